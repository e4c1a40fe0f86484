/**
 * Public statistics (issue 14): the rollups the trigger keeps, the scheduled job's medians and top list,
 * and the one entry point anon may call, which must return aggregates only.
 *
 * Other test files add reports at the same time, so these tests file theirs on a day of their own
 * (~14 months ago, in a region nobody else uses) and compare before and after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { anon, createUser, DENIED, fileReport, run, setStatus, type Actor } from './actors.ts';
import pg from 'pg';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { requestSettingValues, SET_REQUEST_SQL } from '@scamcheck/local-supabase';
import type { PublicStatistics } from '../../../src/features/public-stats/api/public-statistics-schema.ts';

type Stats = PublicStatistics;

async function stats(actor: Actor, period = 'all_time'): Promise<Stats> {
  const [{ s }] = await run<{ s: Stats }>(actor, 'select public.public_statistics($1) as s', [period]);
  return s;
}

/** Moves a report's filing time (and so its period) as an operator would when importing history. */
async function backdate(id: unknown, at: string) {
  await adminPool().query('update public.reports set created_at = $2 where id = $1', [id, at]);
}

const monthAgo = (n: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 10, 12)).toISOString();
};
// Caraga (Butuan) and Bangsamoro (Cotabato City): the seed and other tests file in Luzon and the Visayas.
const BUTUAN = '8.9475,125.5406';
const COTABATO = '7.2236,124.2464';
// Zamboanga City (Zamboanga Peninsula) for the shard tests, which commit their reports: the browser test of
// /statistics, which may share this stack, counts Caraga's reports exactly.
const ZAMBOANGA = '6.9214,122.079';

const ROLLUPS = [
  'stats_daily',
  'stats_periods',
  'stats_monthly',
  'stats_monthly_amounts',
  'stats_region_daily',
  'stats_region_monthly',
];

/** Every rollup's figures per key, its shards summed (keys whose sums are all zero left out). */
async function rollupSums(client: pg.PoolClient): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of ROLLUPS) {
    if (t === 'stats_periods') {
      // One row per part of a week within a month and shard, its figures as columns: summed per part.
      out[t] = (
        await client.query(
          `select week, month, sum(total)::text as total, sum(scam)::text as scam, sum(hacked)::text as hacked,
                  sum(spam)::text as spam, sum(mobile)::text as mobile, sum(email)::text as email,
                  sum(ewallet)::text as ewallet, sum(crypto)::text as crypto, sum(website)::text as website,
                  sum(social)::text as social, sum(verified)::text as verified, sum(pending)::text as pending
             from private.stats_periods group by week, month having sum(total) <> 0 order by week, month`,
        )
      ).rows;
      continue;
    }
    const amount =
      t === 'stats_daily' || t === 'stats_monthly' ? 'sum(amount_total)::numeric(20,2)::text' : "''";
    out[t] = (
      await client.query(
        `select k, sum(report_count)::text as n, ${amount} as a
           from (select to_jsonb(s) - 'report_count' - 'amount_total' - 'amount_reports' - 'shard' as k, s.*
                   from private.${t} s) s
          group by k having sum(report_count) <> 0 order by k`,
      )
    ).rows;
  }
  return out;
}

/** Checks each period's totals in public_statistics against a count of the reports table. */
async function expectTotalsOfReports(client: pg.PoolClient) {
  for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
    const {
      rows: [{ s }],
    } = await client.query<{ s: Stats }>('select public.public_statistics($1) as s', [period]);
    const {
      rows: [counted],
    } = await client.query(
      `select count(*)::int as reports, (count(*) filter (where status = 'verified'))::int as verified,
              (count(*) filter (where status = 'pending'))::int as pending,
              -- Issue 27: verified amounts only, as a sum of at least 5 of them.
              case when count(*) filter (where status = 'verified' and amount_lost > 0) >= 5
                   then (sum(amount_lost) filter (where status = 'verified' and amount_lost > 0))::float8 end as amount_lost
       from public.reports
       where status in ('pending', 'verified') and (created_at at time zone 'UTC')::date between $1 and $2`,
      [s.from, s.to],
    );
    expect(
      {
        reports: Number(s.totals.reports),
        verified: Number(s.totals.verified),
        pending: Number(s.totals.pending),
        amount_lost: s.totals.amount_lost == null ? null : Number(s.totals.amount_lost),
      },
      period,
    ).toEqual(counted);
    if (period === 'all_time') expect(counted.reports).toBeGreaterThan(0);
    if (period !== 'last_30_days') {
      // Whole months: the monthly series adds up to the totals.
      expect(
        s.monthly.reduce((n, m) => n + Number(m.total), 0),
        period,
      ).toBe(counted.reports);
    }
  }
}

/**
 * public_statistics' answer recomputed from the reports table alone, with jsonb builders: no rollup and
 * no job table (a month's median is the lower median of its amounts, as percentile_disc gives it; the top
 * list's refs are left out). Run in the caller's transaction after
 * refresh_public_statistics, it must equal the function's answer key for key (issue 37).
 */
const RECOMPUTED = `
  with b0 as (select (now() at time zone 'UTC')::date as today),
  v as (
    select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type, r.status,
           r.amount_lost, r.reported_account_canonical as canonical, g.region
    from public.reports r
    -- One region lookup per distinct location, as rebuild_public_statistics does.
    left join (select d.loc, d.country, private.ph_region(d.loc, d.country) as region
               from (select distinct loc, country from public.reports where loc is not null) d) g
      on g.loc = r.loc and g.country = r.country
    where r.status in ('pending', 'verified')
  ),
  b as (
    select today,
           case $1::text
             when 'last_30_days' then today - 29
             when 'last_12_months' then (date_trunc('month', today::timestamp) - interval '11 months')::date
             else coalesce((select date_trunc('month', min(v.day)::timestamp)::date from v), date_trunc('month', today::timestamp)::date)
           end as from_day
    from b0
  ),
  series as (
    select u.unit, coalesce(jsonb_agg(jsonb_build_object(
             'period', c.period, 'total', c.total,
             'by_incident_type', jsonb_build_object('scam', c.scam, 'hacked', c.hacked, 'spam', c.spam),
             'by_account_type', jsonb_build_object('mobile', c.mobile, 'email', c.email, 'ewallet', c.ewallet,
                                                   'crypto', c.crypto, 'website', c.website, 'social', c.social),
             'by_status', jsonb_build_object('verified', c.verified, 'pending', c.pending)) order by c.period), '[]') as s
    from (values ('week'), ('month')) u(unit)
    cross join lateral (
      select p::date as period, count(v.day) as total,
             count(v.day) filter (where v.incident_type = 'scam') as scam,
             count(v.day) filter (where v.incident_type = 'hacked') as hacked,
             count(v.day) filter (where v.incident_type = 'spam') as spam,
             count(v.day) filter (where v.reported_account_type = 'mobile') as mobile,
             count(v.day) filter (where v.reported_account_type = 'email') as email,
             count(v.day) filter (where v.reported_account_type = 'ewallet') as ewallet,
             count(v.day) filter (where v.reported_account_type = 'crypto') as crypto,
             count(v.day) filter (where v.reported_account_type = 'website') as website,
             count(v.day) filter (where v.reported_account_type = 'social') as social,
             count(v.day) filter (where v.status = 'verified') as verified,
             count(v.day) filter (where v.status = 'pending') as pending
      from b, generate_series(date_trunc(u.unit, b.from_day::timestamp), date_trunc(u.unit, b.today::timestamp),
                              ('1 ' || u.unit)::interval) p
      left join v on date_trunc(u.unit, v.day::timestamp) = p
      group by p
    ) c
    group by u.unit
  ),
  months as (
    select p::date as month,
           count(v.day) filter (where v.status = 'verified' and v.amount_lost > 0) as n,
           sum(v.amount_lost) filter (where v.status = 'verified' and v.amount_lost > 0) as total,
           -- The job's median is of the month's verified amounts only (issue 27).
           percentile_disc(0.5) within group (order by v.amount_lost)
             filter (where v.status = 'verified' and v.amount_lost > 0) as median
    from b, generate_series(date_trunc('month', b.from_day::timestamp), date_trunc('month', b.today::timestamp), interval '1 month') p
    left join v on date_trunc('month', v.day::timestamp) = p
    group by p
  ),
  totals as (
    select count(*) as reports, count(*) filter (where v.status = 'verified') as verified,
           count(*) filter (where v.status = 'pending') as pending,
           count(*) filter (where v.status = 'verified' and v.amount_lost > 0) as n,
           sum(v.amount_lost) filter (where v.status = 'verified' and v.amount_lost > 0) as amount
    from v, b where v.day between b.from_day and b.today
  ),
  regions as (
    select g.code, g.name, g.lat, g.lng, g.sort_order, count(v.day) as n
    from b cross join private.ph_regions g
    left join v on v.region = g.code and v.day <= b.today
      and v.day >= case when $1 = 'last_30_days' then b.from_day else date_trunc('month', b.from_day::timestamp)::date end
    group by g.code, b.today
  ),
  top as (
    select row_number() over (order by count(*) desc, v.canonical) as rank, v.canonical, v.reported_account_type, count(*) as n
    from v, b where v.status = 'verified' and v.day >= b.today - 29
    group by v.canonical, v.reported_account_type
    order by n desc, v.canonical limit 10
  )
  select jsonb_build_object(
    'period', $1::text, 'from', b.from_day, 'to', b.today, 'small_count_threshold', 5,
    'totals', (select jsonb_build_object('reports', t.reports, 'verified', t.verified, 'pending', t.pending,
                                         'amount_lost', case when t.n >= 5 then t.amount end,
                                         'amount_fewer_than_5', t.n < 5) from totals t),
    'weekly', (select s from series where unit = 'week'),
    'monthly', (select s from series where unit = 'month'),
    'amounts', (select jsonb_agg(jsonb_build_object(
                  'month', m.month, 'total', case when m.n >= 5 then m.total when m.n = 0 then 0 end,
                  'reports_with_amount', m.n, 'median', case when m.n >= 5 then m.median end,
                  'fewer_than_5', m.n between 1 and 4) order by m.month) from months m),
    'regions', (select jsonb_agg(jsonb_build_object(
                  'code', g.code, 'name', g.name, 'lat', g.lat, 'lng', g.lng,
                  'count', case when g.n between 1 and 4 then null else g.n end,
                  'fewer_than_5', g.n between 1 and 4) order by g.sort_order) from regions g),
    'top_identifiers', (select coalesce(jsonb_agg(jsonb_build_object(
                  'rank', t.rank, 'identifier', private.mask_identifier(t.reported_account_type, t.canonical),
                  'masked', t.reported_account_type in ('mobile', 'email', 'ewallet'),
                  'search', case when t.reported_account_type in ('mobile', 'email', 'ewallet') then null else t.canonical end,
                  'reported_account_type', t.reported_account_type, 'verified_reports', t.n) order by t.rank), '[]') from top t)
  ) as e
  from b`;

/** public_statistics for every period against RECOMPUTED, in the caller's transaction. */
async function expectRecomputed(client: pg.PoolClient) {
  await client.query('select public.refresh_public_statistics()');
  for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
    const {
      rows: [{ s }],
    } = await client.query<{ s: Stats }>('select public.public_statistics($1) as s', [period]);
    const {
      rows: [{ e }],
    } = await client.query<{ e: Stats }>(RECOMPUTED, [period]);
    const { generated_at, top_identifiers_refreshed_at, top_identifiers, ...rest } = s;
    expect(Date.parse(generated_at)).toBeGreaterThan(0);
    expect(Date.parse(top_identifiers_refreshed_at ?? '')).toBeGreaterThan(0);
    expect(
      { ...rest, top_identifiers: top_identifiers.map(({ ref, ...t }) => (expect(ref).toBeTruthy(), t)) },
      period,
    ).toEqual(e);
  }
}

let reporter: Actor;
let admin: Actor;

beforeAll(async () => {
  [reporter, admin] = await Promise.all([
    createUser('Stats reporter'),
    createUser('Stats admin', { admin: true }),
  ]);
});

describe('holds on: postgres — anon reads aggregates only', () => {
  it('cannot read reports or any rollup row directly', async () => {
    await expect(run(anon, 'select * from public.reports limit 1')).rejects.toThrow(DENIED);
    for (const t of [
      'stats_daily',
      'stats_periods',
      'stats_monthly',
      'stats_monthly_amounts',
      'stats_region_daily',
      'stats_recent_identifiers',
      'stats_top_identifiers',
      'ph_regions',
    ]) {
      await expect(run(anon, `select * from private.${t} limit 1`), t).rejects.toThrow(/permission denied/);
    }
    for (const f of ['refresh_public_statistics()']) {
      await expect(run(anon, `select public.${f}`)).rejects.toThrow(/permission denied/);
      await expect(run(reporter, `select public.${f}`)).rejects.toThrow(/permission denied/);
    }
  });

  it('gets only aggregate fields from public_statistics, whatever the period', async () => {
    const allowed = new Set([
      'period',
      'from',
      'to',
      'generated_at',
      'small_count_threshold',
      'totals',
      'reports',
      'verified',
      'pending',
      'amount_lost',
      'amount_fewer_than_5',
      'weekly',
      'monthly',
      'total',
      'by_incident_type',
      'by_account_type',
      'by_status',
      'scam',
      'hacked',
      'spam',
      'mobile',
      'email',
      'ewallet',
      'crypto',
      'website',
      'social',
      'amounts',
      'month',
      'median',
      'reports_with_amount',
      'fewer_than_5',
      'regions',
      'code',
      'name',
      'lat',
      'lng',
      'count',
      'top_identifiers',
      'rank',
      'identifier',
      'masked',
      'search',
      'ref',
      'reported_account_type',
      'verified_reports',
      'top_identifiers_refreshed_at',
    ]);
    const keys = (v: unknown, out: Set<string>) => {
      if (Array.isArray(v)) v.forEach((x) => keys(x, out));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) {
          out.add(k);
          keys(x, out);
        }
      return out;
    };
    for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
      const s = await stats(anon, period);
      expect(s.period).toBe(period);
      const extra = [...keys(s, new Set())].filter((k) => !allowed.has(k) && !/^\d{4}-\d{2}-\d{2}$/.test(k));
      expect(extra, period).toEqual([]);
    }
  });

  it('refuses an unknown period with a clear error', async () => {
    await expect(stats(anon, 'forever')).rejects.toThrow(
      /period must be last_30_days, last_12_months or all_time/,
    );
    await expect(stats(anon, "all_time'; select 1")).rejects.toThrow(/period must be/);
  });
});

describe('rollups kept by the trigger', () => {
  it('counts visible reports per month, type and status, follows status changes and deletes, and fills empty months', async () => {
    const at = monthAgo(14);
    const month = at.slice(0, 7) + '-01';
    const before = (await stats(anon)).monthly.find((p) => p.period === month);
    const ids = [];
    for (const [i, type] of ['crypto', 'crypto', 'website'].entries()) {
      const r = await fileReport(reporter, {
        reported_account_type: type,
        reported_account:
          type === 'crypto'
            ? `bc1q${unique('').toLowerCase().padEnd(38, 'q').slice(0, 38)}`
            : `${unique('s')}.example.com`,
        incident_type: i === 2 ? 'hacked' : 'scam',
        amount_lost: null,
      });
      await backdate(r.id, at);
      ids.push(r.id);
    }
    await setStatus(ids[0], 'verified');
    let after = (await stats(anon)).monthly.find((p) => p.period === month)!;
    const base = before ?? {
      total: 0,
      by_incident_type: { scam: 0, hacked: 0 },
      by_account_type: { crypto: 0, website: 0 },
      by_status: { verified: 0, pending: 0 },
    };
    expect(after.total - base.total).toBe(3);
    expect(after.by_account_type.crypto - base.by_account_type.crypto).toBe(2);
    expect(after.by_account_type.website - base.by_account_type.website).toBe(1);
    expect(after.by_incident_type.hacked - base.by_incident_type.hacked).toBe(1);
    expect(after.by_status.verified - base.by_status.verified).toBe(1);
    expect(after.by_status.pending - base.by_status.pending).toBe(2);

    await setStatus(ids[1], 'rejected');
    await adminPool().query('delete from public.reports where id = $1', [ids[2]]);
    after = (await stats(anon)).monthly.find((p) => p.period === month)!;
    expect(after.total - base.total).toBe(1);
    expect(after.by_status.pending - base.by_status.pending).toBe(0);

    // Every month from the first to this one is present, in order, empty ones as zero.
    const all = await stats(anon);
    const months = all.monthly.map((p) => p.period);
    for (let i = 1; i < months.length; i++) {
      const prev = new Date(`${months[i - 1]}T00:00:00Z`);
      expect(months[i]).toBe(
        new Date(Date.UTC(prev.getUTCFullYear(), prev.getUTCMonth() + 1, 1)).toISOString().slice(0, 10),
      );
    }
    expect(months.at(-1)).toBe(new Date().toISOString().slice(0, 8) + '01');
    expect(all.monthly.every((p) => p.total === p.by_status.verified + p.by_status.pending)).toBe(true);
    const weeks = all.weekly.map((p) => p.period);
    for (let i = 1; i < weeks.length; i++) {
      expect(Date.parse(weeks[i]) - Date.parse(weeks[i - 1])).toBe(7 * 86_400_000);
    }
    expect(new Date(`${weeks[0]}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it('shows a region with fewer than 5 reports as "fewer than 5", and its count from 5 on', async () => {
    const regionCount = async () => (await stats(anon)).regions.find((r) => r.code === 'BARMM')!;
    const start = await regionCount();
    expect(start.name).toBe('Bangsamoro (BARMM)');
    // The test database starts empty there (the seed files in Luzon and the Visayas).
    expect(start).toMatchObject({ count: 0, fewer_than_5: false });
    const filed = [];
    for (let i = 0; i < 3; i++) {
      const r = await fileReport(reporter, { loc: COTABATO, country: 'PH' });
      await backdate(r.id, monthAgo(15));
      filed.push(r);
    }
    const low = await regionCount();
    expect(low).toMatchObject({ count: null, fewer_than_5: true });
    for (let i = 0; i < 3; i++) {
      const r = await fileReport(reporter, { loc: COTABATO, country: 'PH' });
      await backdate(r.id, monthAgo(15));
    }
    const high = await regionCount();
    expect(high).toMatchObject({ count: 6, fewer_than_5: false });
    // A location outside the Philippines, or a PH report without one, counts in no region.
    const sum = async () => (await stats(anon)).regions.reduce((n, r) => n + (r.count ?? 0), 0);
    const s0 = await sum();
    const abroad = await fileReport(reporter, { loc: '1.3521,103.8198', country: 'SG' });
    const unlocated = await fileReport(reporter, { loc: null, country: 'PH' });
    await backdate(abroad.id, monthAgo(15));
    await backdate(unlocated.id, monthAgo(15));
    expect(await sum()).toBe(s0);
  });

  it('puts a location in the region of its nearest town', async () => {
    const region = async (loc: string | null, country: string | null) =>
      (await adminPool().query('select private.ph_region($1, $2) as r', [loc, country])).rows[0].r;
    expect(await region('14.6760,121.0437', 'PH')).toBe('NCR');
    expect(await region(BUTUAN, 'PH')).toBe('XIII');
    expect(await region('10.3157,123.8854', 'PH')).toBe('VII');
    expect(await region('16.4023,120.5960', 'PH')).toBe('CAR');
    expect(await region('9.7392,118.7353', 'PH')).toBe('IV-B');
    expect(await region('10.3157,123.8854', 'SG')).toBeNull();
    expect(await region(null, 'PH')).toBeNull();
    expect(await region('40.7,-74.0', 'PH')).toBeNull();
  });

  it('gives every period the totals the reports table gives (12 months and all time from the monthly rollup)', async () => {
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      await client.query('lock table public.reports in share mode');
      await expectTotalsOfReports(client);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it("shows the totals' amount in every period only as the sum of at least 5 verified amounts, read from the rollups (issue 37)", async () => {
    const client = await adminPool().connect();
    const totals = async () => {
      const out: Record<string, { amount_lost: number | null; amount_fewer_than_5: boolean }> = {};
      for (const period of ['last_30_days', 'last_12_months', 'all_time']) {
        const {
          rows: [{ s }],
        } = await client.query<{ s: Stats }>('select public.public_statistics($1) as s', [period]);
        out[period] = {
          amount_lost: s.totals.amount_lost == null ? null : Number(s.totals.amount_lost),
          amount_fewer_than_5: s.totals.amount_fewer_than_5,
        };
      }
      return out;
    };
    const each = (amount_lost: number | null, amount_fewer_than_5: boolean) => ({
      last_30_days: { amount_lost, amount_fewer_than_5 },
      last_12_months: { amount_lost, amount_fewer_than_5 },
      all_time: { amount_lost, amount_fewer_than_5 },
    });
    const file = (amount: number) =>
      client.query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type,
                                     reported_account, status, amount_lost)
         values ($1, current_date, 'scam', 'mobile', '0917 555 0177', 'verified', $2)`,
        [reporter.id, amount],
      );
    try {
      await client.query('begin');
      await client.query('lock table public.reports in share row exclusive mode');
      // No verified report gives an amount (the rollups follow through their trigger); pending and
      // zero amounts never count.
      await client.query(`update public.reports set amount_lost = null where status = 'verified'`);
      await client.query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type,
                                     reported_account, status, amount_lost)
         values ($1, current_date, 'scam', 'mobile', '0917 555 0177', 'pending', 9000),
                ($1, current_date, 'scam', 'mobile', '0917 555 0177', 'verified', 0)`,
        [reporter.id],
      );
      expect(await totals()).toEqual(each(null, true));
      for (const amount of [100, 200, 300, 400]) await file(amount);
      expect(await totals()).toEqual(each(null, true));
      await expectTotalsOfReports(client);
      await file(500);
      expect(await totals()).toEqual(each(1500, false));
      await expectTotalsOfReports(client);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('answers every period exactly as a recomputation from the reports table gives, after reports are filed, reviewed, moved, edited and deleted (issue 37)', async () => {
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      await client.query('lock table public.reports in share row exclusive mode');
      await expectRecomputed(client);
      // Filed today, 3 months ago (six verified amounts: that month's total and median) and 14 months
      // ago: three kinds of account, three statuses, two regions and none.
      const { rows: filed } = await client.query<{ id: string }>(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                                     status, amount_lost, loc, country, created_at)
         select $1, current_date - 1, (array['scam', 'hacked', 'spam'])[1 + g % 3]::public.incident_type,
                (array['mobile', 'email', 'website'])[1 + g % 3]::public.reported_account_type,
                case g % 3 when 0 then '0917 ' || lpad((g + $2::int)::text, 7, '0')
                           when 1 then 'recomputed' || g || '.' || $2 || '@example.com'
                           else 'recomputed' || g || '-' || $2 || '.example.com' end,
                (array['pending', 'verified', 'rejected'])[1 + g % 4 % 3]::public.report_status,
                (array[null, 0, 150, 2500, 999.5])[1 + g % 5], (array[$3, $4, null])[1 + g % 3], 'PH',
                now() - (array[interval '1 hour', interval '3 months', interval '14 months'])[1 + g % 3]
         from generate_series(1, 24) g
         returning id`,
        [reporter.id, Math.floor(Math.random() * 1e6), BUTUAN, COTABATO],
      );
      await client.query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                                     status, amount_lost, created_at)
         select $1, current_date - 90, 'scam', 'website', 'median' || g || '-' || $2 || '.example.com', 'verified', g * 1000,
                now() - interval '3 months'
         from generate_series(1, 6) g`,
        [reporter.id, Math.floor(Math.random() * 1e6)],
      );
      const ids = filed.map((r) => r.id);
      await client.query(
        `update public.reports set status = 'verified' where id = any($1) and status = 'pending'`,
        [ids.slice(0, 8)],
      );
      await client.query(`update public.reports set status = 'rejected' where id = any($1)`, [
        ids.slice(8, 10),
      ]);
      await client.query(`update public.reports set status = 'removed' where id = $1`, [ids[10]]);
      await client.query(
        `update public.reports set created_at = now() - interval '200 days' where id = any($1)`,
        [ids.slice(11, 14)],
      );
      await client.query(`update public.reports set loc = $2, country = 'PH' where id = any($1)`, [
        ids.slice(14, 17),
        COTABATO,
      ]);
      await client.query(`update public.reports set amount_lost = 4321 where id = any($1)`, [
        ids.slice(17, 20),
      ]);
      await client.query(
        `update public.reports set incident_type = 'spam', reported_account_type = 'website',
                                 reported_account = 'moved-' || id || '.example.com' where id = $1`,
        [ids[20]],
      );
      await client.query('delete from public.reports where id = any($1)', [ids.slice(21)]);
      // Pending reports with a huge amount, one more than the month's verified amounts: counted with them,
      // the month's median would move. Neither it nor the month's total or count may (issue 27).
      const month = (
        await client.query<{ m: string }>(
          `select to_char(date_trunc('month', (now() - interval '3 months') at time zone 'UTC'), 'YYYY-MM-DD') as m`,
        )
      ).rows[0].m;
      const { rows: huge } = await client.query<{ id: string }>(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                                     status, amount_lost, created_at)
         select $1, current_date - 90, 'scam', 'website', 'huge' || g || '-' || $2 || '.example.com', 'pending', 99000000,
                now() - interval '3 months'
         from generate_series(0, (select count(*) from public.reports
                                  where status = 'verified' and amount_lost > 0
                                    and date_trunc('month', created_at at time zone 'UTC') = $3::date)) g
         returning id`,
        [reporter.id, Math.floor(Math.random() * 1e6), month],
      );
      const medians = async () =>
        (
          await client.query<{ verified: string; visible: string }>(
            `select percentile_disc(0.5) within group (order by amount_lost) filter (where status = 'verified') as verified,
                    percentile_disc(0.5) within group (order by amount_lost) as visible
               from public.reports
              where status in ('pending', 'verified') and amount_lost > 0
                and date_trunc('month', created_at at time zone 'UTC') = $1::date`,
            [month],
          )
        ).rows[0];
      const { verified, visible } = await medians();
      expect(Number(visible)).not.toBe(Number(verified));
      await expectRecomputed(client);
      const shown = async () =>
        (
          await client.query<{ s: Stats }>(`select public.public_statistics('last_12_months') as s`)
        ).rows[0].s.amounts.find((a) => a.month === month);
      const before = await shown();
      expect(Number(before?.median)).toBe(Number(verified));
      // Verified, they count; rejected again, they leave the distribution.
      await client.query(`update public.reports set status = 'verified' where id = any($1)`, [
        huge.map((r) => r.id),
      ]);
      await expectRecomputed(client);
      expect(Number((await shown())?.median)).toBe(99000000);
      await client.query(`update public.reports set status = 'rejected' where id = any($1)`, [
        huge.map((r) => r.id),
      ]);
      await expectRecomputed(client);
      expect(await shown()).toEqual(before);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('keeps the same figures a rebuild from the reports table gives', async () => {
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      await client.query('lock table public.reports in share mode');
      const kept = await rollupSums(client);
      await client.query('select private.rebuild_public_statistics()');
      expect(await rollupSums(client)).toEqual(kept);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('two sessions file reports with the same rollup rows at once: neither waits for the other (sharded, issue 12)', async () => {
    // Backends in different shards (pid modulo 16). Before, the second insert queued on the first's
    // rollup rows (same day, types, status, amount and region) until the first committed.
    const [u1, u2] = await Promise.all([createUser('Shard one'), createUser('Shard two')]);
    const clients: pg.Client[] = [];
    try {
      const sessions: { c: pg.Client; shard: number }[] = [];
      for (let i = 0; i < 12 && sessions.length < 2; i++) {
        const c = new pg.Client({ connectionString: stackEnv('DB_URL') });
        await c.connect();
        clients.push(c);
        const { pid } = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0];
        if (sessions.every((s) => s.shard !== pid % 16)) sessions.push({ c, shard: pid % 16 });
      }
      if (sessions.length < 2) throw new Error('no two sessions in different shards');
      const file = async (c: pg.Client, user: Actor) => {
        await c.query('begin');
        await c.query(
          SET_REQUEST_SQL,
          requestSettingValues({
            role: 'authenticated',
            claimsJson: JSON.stringify(user.claims),
            sub: user.id ?? '',
            headersJson: '{}',
            cookiesJson: '{}',
            method: 'POST',
            path: '/rest/v1/reports',
            readOnly: false,
          }),
        );
        await c.query("set local lock_timeout = '2s'");
        const {
          rows: [{ id }],
        } = await c.query<{ id: string }>(
          `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account,
                                       incident_description, location, amount_lost)
           values (current_date, 'scam', 'mobile', $1, 'Sharded rollups: same rows at once.', 'Zamboanga City', 2750)
           returning id`,
          [`0917 ${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`],
        );
        // The location as the server sets it (issue 27: no API role writes it), in the same session.
        await c.query('reset role');
        await c.query(`update public.reports set loc = $2, country = 'PH' where id = $1`, [id, ZAMBOANGA]);
      };
      await file(sessions[0].c, u1);
      await file(sessions[1].c, u2); // fails with "canceling statement due to lock timeout" if it waits
      await sessions[1].c.query('commit');
      await sessions[0].c.query('commit');
      // Both are counted, each in its session's shard.
      const { rows } = await adminPool().query<{ shard: number }>(
        `select distinct shard from private.stats_region_daily
          where day = (now() at time zone 'UTC')::date and region_code = 'IX' and shard = any($1::smallint[])`,
        [sessions.map((s) => s.shard)],
      );
      expect(rows.length).toBe(2);
    } finally {
      for (const c of clients) await c.end();
    }
  });

  it('gives exact figures from sharded rows, and the same after the shards are folded and after a rebuild', async () => {
    // Reports from several sessions at once, so that today's rows are spread over shards.
    const u = await createUser('Shard crowd');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fileReport(u, {
          loc: ZAMBOANGA,
          amount_lost: 100 * (i + 1),
          incident_type: i % 2 ? 'hacked' : 'scam',
        }),
      ),
    );
    const client = await adminPool().connect();
    try {
      await client.query('begin');
      await client.query('lock table public.reports in share mode');
      await expectTotalsOfReports(client);
      const sums = await rollupSums(client);
      const statistics = (await client.query('select public.public_statistics($1) as s', ['all_time']))
        .rows[0].s;
      const withoutTime = (s: Stats) => ({ ...s, generated_at: null });

      await client.query('select private.rebuild_rollups()');
      const {
        rows: [{ left }],
      } = await client.query<{ left: number }>(
        `select (select count(*) from private.stats_daily where shard <> 0) + (select count(*) from private.stats_periods where shard <> 0)
              + (select count(*) from private.stats_monthly where shard <> 0) + (select count(*) from private.stats_monthly_amounts where shard <> 0)
              + (select count(*) from private.stats_region_daily where shard <> 0) + (select count(*) from private.stats_region_monthly where shard <> 0) as left`,
      );
      expect(Number(left)).toBe(0);
      expect(await rollupSums(client)).toEqual(sums);
      const folded = (await client.query('select public.public_statistics($1) as s', ['all_time'])).rows[0].s;
      expect(withoutTime(folded)).toEqual(withoutTime(statistics));
      await expectTotalsOfReports(client);

      await client.query('select private.rebuild_public_statistics()');
      expect(await rollupSums(client)).toEqual(sums);
      await expectTotalsOfReports(client);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('holds on: postgres — the scheduled job: medians and the most-reported identifiers', () => {
  it('computes the median amount of a month from 5 amounts on, and hides it below', async () => {
    // Older than the seed's 548 days of history, so the month starts empty.
    const at = monthAgo(24);
    const month = at.slice(0, 7) + '-01';
    const read = async () => {
      await run({ ...admin, claims: { role: 'service_role' } }, 'select public.refresh_public_statistics()');
      // Before any report, the month lies before the first one and is not in the series at all.
      return (
        (await stats(anon)).amounts.find((a) => a.month === month) ?? {
          month,
          total: 0,
          reports_with_amount: 0,
          median: null,
          fewer_than_5: false,
        }
      );
    };
    const start = await read();
    expect(start).toMatchObject({ reports_with_amount: 0, median: null, fewer_than_5: false });
    // Only verified amounts count (issue 27); a pending one is neither summed nor counted.
    const verified = async (amount: number) => {
      const r = await fileReport(reporter, { amount_lost: amount });
      await setStatus(r.id, 'verified');
      await backdate(r.id, at);
    };
    for (const amount of [100, 5000, 300, 200]) await verified(amount);
    const zero = await fileReport(reporter, { amount_lost: 0 });
    await backdate(zero.id, at);
    const pending = await fileReport(reporter, { amount_lost: 7000 });
    await backdate(pending.id, at);
    const four = await read();
    expect(four.reports_with_amount - start.reports_with_amount).toBe(4);
    // Four amounts: neither their total nor their median is shown.
    expect(four).toMatchObject({ total: null, median: null, fewer_than_5: true });
    await verified(250);
    const five = await read();
    expect(Number(five.total) - Number(start.total)).toBe(5850);
    // 100, 200, 250, 300, 5000: the median is 250 (a mean would say 1170).
    expect(Number(five.median)).toBe(250);
    expect(five.fewer_than_5).toBe(false);
  });

  it('lists the identifiers with the most verified reports of the last 30 days, phone numbers masked, linked to their search', async () => {
    const service = { ...admin, claims: { role: 'service_role' } };
    const site = `${unique('top').toLowerCase()}.example.com`;
    const mobile = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    for (let i = 0; i < 60; i++) {
      const r = await fileReport(
        reporter,
        i < 35
          ? { reported_account_type: 'website', reported_account: site }
          : { reported_account_type: 'mobile', reported_account: mobile },
      );
      await setStatus(r.id, 'verified');
    }
    // A pending report does not count, however many.
    await run(service, 'select public.refresh_public_statistics()');
    const top = (await stats(anon, 'last_30_days')).top_identifiers;
    const web = top.find((t) => t.identifier === site)!;
    expect(web).toMatchObject({
      masked: false,
      search: site,
      reported_account_type: 'website',
      verified_reports: 35,
    });
    const phone = top.find((t) => t.reported_account_type === 'mobile' && t.verified_reports === 25)!;
    const canonical = `+63${mobile.slice(1)}`;
    expect(phone.identifier).toBe(`${canonical.slice(0, -7)}•••••${canonical.slice(-2)}`);
    expect(phone.masked).toBe(true);
    expect(phone.search).toBeNull();
    expect(JSON.stringify(top)).not.toContain(canonical.slice(-7));
    // The handle searches the full number; anon's answer still has the limited columns only.
    const [{ r }] = await run<{ r: { count: number; reports: Record<string, unknown>[] } }>(
      anon,
      'select public.search_top_identifier($1) as r',
      [phone.ref],
    );
    expect(r.count).toBe(25);
    expect(r.reports[0]).not.toHaveProperty('reported_account');
    // Staying on the list keeps the handle; an unknown handle is a clear error.
    await run(service, 'select public.refresh_public_statistics()');
    expect((await stats(anon)).top_identifiers.find((t) => t.identifier === site)!.ref).toBe(web.ref);
    await expect(
      run(anon, 'select public.search_top_identifier($1)', ['00000000-0000-4000-8000-000000000000']),
    ).rejects.toThrow(/expired/);
  });

  it('masks e-wallet accounts like phone numbers, since GCash and Maya accounts are mobile numbers', async () => {
    const service = { ...admin, claims: { role: 'service_role' } };
    const wallet = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    for (let i = 0; i < 30; i++) {
      const r = await fileReport(reporter, { reported_account_type: 'ewallet', reported_account: wallet });
      await setStatus(r.id, 'verified');
    }
    await run(service, 'select public.refresh_public_statistics()');
    const top = (await stats(anon, 'last_30_days')).top_identifiers;
    const canonical = `+63${wallet.slice(1)}`;
    const row = top.find((t) => t.reported_account_type === 'ewallet' && t.verified_reports === 30)!;
    // +63917 then five dots and the last two digits: written out here, not read from the masking code.
    expect(row.identifier).toBe(`+63917•••••${wallet.slice(-2)}`);
    expect(row).toMatchObject({ masked: true, search: null });
    expect(JSON.stringify(top)).not.toContain(canonical.slice(-7));
    const [{ r }] = await run<{ r: { count: number } }>(
      anon,
      'select public.search_top_identifier($1) as r',
      [row.ref],
    );
    expect(r.count).toBe(30);
  });
});
