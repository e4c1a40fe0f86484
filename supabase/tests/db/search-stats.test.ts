/**
 * The search entry point (what anonymous and signed-in visitors see, which reports appear, the summary
 * and heatmap points, the search log) and the stats RPCs fed by rollups.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { anon, createUser, fileReport, run, serviceRole, setStatus, type Actor } from './actors.ts';
import { adminPool } from '../helpers.ts';

interface SearchResult {
  count: number;
  reports: Record<string, unknown>[];
  summary: {
    count: number;
    last_victim_country: string | null;
    risk_level: number;
    risk_label: string;
    estimated_amount_lost: number;
  };
  points: [number, number][];
}

let owner: Actor;
let stranger: Actor;
let admin: Actor;

async function search(actor: Actor, q: string): Promise<SearchResult> {
  const [{ r }] = await run<{ r: SearchResult }>(actor, 'select public.search_reports($1) as r', [q]);
  return r;
}

function randomMobile() {
  return `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
}

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([
    createUser('Owner'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
  ]);
});

describe('holds on: postgres — search_reports', () => {
  let mobile: string;
  let ids: Record<string, unknown>[];

  beforeAll(async () => {
    mobile = randomMobile();
    ids = [];
    // 12 visible reports (the newest first in time order), one rejected and one removed
    for (let i = 0; i < 14; i++) {
      const r = await fileReport(i % 2 ? owner : stranger, {
        reported_account: i % 3 ? mobile : `+63 ${mobile.slice(1, 4)} ${mobile.slice(4)}`,
        country: i === 11 ? 'AE' : 'PH',
        loc: `14.${i},121.${i}`,
        amount_lost: 1000,
        incident_date: `2026-01-${String(i + 1).padStart(2, '0')}`,
      });
      ids.push(r);
      await adminPool().query(
        `update public.reports set created_at = now() - ($2 || ' days')::interval where id = $1`,
        [r.id, 30 - i],
      );
    }
    await setStatus(ids[12].id, 'rejected');
    await setStatus(ids[13].id, 'removed');
    for (const i of [0, 1, 2]) await setStatus(ids[i].id, 'verified');
  });

  it('anon finds the reports however the number is typed, with limited columns only', async () => {
    for (const q of [
      mobile,
      `+63-${mobile.slice(1, 4)}-${mobile.slice(4, 7)}-${mobile.slice(7)}`,
      `63${mobile.slice(1)}`,
    ]) {
      const r = await search(anon, q);
      expect(r.count).toBe(12);
      expect(r.reports).toHaveLength(10);
      for (const row of r.reports) {
        expect(Object.keys(row).sort()).toEqual([
          'incident_date',
          'incident_type',
          'location',
          'reported_account_type',
          'reported_date',
          'status',
        ]);
      }
    }
  });

  it('returns the latest 10 newest first; pending shows as not-verified; rejected and removed never appear', async () => {
    const r = await search(owner, mobile);
    const shown = r.reports.map((x) => x.id);
    expect(shown).toEqual(
      ids
        .slice(2, 12)
        .map((x) => x.id)
        .reverse(),
    );
    expect(shown).not.toContain(ids[12].id);
    expect(shown).not.toContain(ids[13].id);
    expect(r.reports.at(-1)).toMatchObject({ id: ids[2].id, status: 'verified' });
    expect(r.reports[0]).toMatchObject({ id: ids[11].id, status: 'not-verified' });
  });

  it("signed-in users also get id and description, never the reporter nor another reporter's amount", async () => {
    const r = await search(stranger, mobile);
    // A single report's amount is its reporter's alone (issue 27).
    expect(r.reports[0]).toMatchObject({
      id: ids[11].id,
      incident_description: expect.any(String),
      amount_lost: null,
    });
    expect(JSON.stringify(r)).not.toContain(owner.id!);
    expect(JSON.stringify(r)).not.toContain('reporter');
  });

  it('summarises: count, last victim country, risk from verified reports and recency, amount lost', async () => {
    const r = await search(anon, mobile);
    // Fewer than 5 verified reports give an amount: no estimate (issue 27: never a few victims' losses).
    expect(r.summary).toMatchObject({ count: 12, last_victim_country: 'AE', estimated_amount_lost: null });
    // Two reporters (owner and stranger), each weighing as much as their strongest report (issue 11):
    // the owner's verified report of 29 days (0.5^(29/180) = 0.894) and the stranger's of 28 days
    // (0.898): w = 1.792, risk = 100 * (1 - exp(-0.896)) = 59.2 -> 59, medium.
    expect(r.summary.risk_level).toBe(59);
    expect(r.summary.risk_label).toBe('medium');
    expect(r.points).toHaveLength(12);
    expect(r.points).toContainEqual([14.11, 121.11]);
  });

  it('risk is low for an unknown identifier and for old or unverified reports', async () => {
    expect((await search(anon, 'never-reported.example')).summary).toEqual({
      count: 0,
      last_victim_country: null,
      risk_level: 0,
      risk_label: 'low',
      estimated_amount_lost: null,
      verified_count: 0,
      pending_count: 0,
      risk_basis: 'none',
      risk_note: null,
    });
    const q = randomMobile();
    const old = await fileReport(owner, { reported_account: q });
    await adminPool().query(
      `update public.reports set created_at = now() - interval '400 days', status = 'verified' where id = $1`,
      [old.id],
    );
    const r = await search(anon, q);
    expect(r.summary.risk_label).toBe('low');
    expect(r.summary.risk_level).toBeGreaterThan(0);
    const fresh = await fileReport(owner, { reported_account: q });
    await setStatus(fresh.id, 'verified');
    expect((await search(anon, q)).summary.risk_label).toBe('medium');
  });

  it('a search through REST is logged without a location: the caller cannot supply one (issue 11)', async () => {
    const q = `Rest-${Date.now()}@Example.com`;
    await search(anon, q);
    for (const sql of [
      'select public.search_reports($1, $2)',
      'select public.search_reports(search_string => $1, visitor => $2)',
    ]) {
      await expect(run(anon, sql, [q, { city: 'Fakeville', country: 'XX' }])).rejects.toThrow(
        /does not exist/,
      );
    }
    await expect(
      run(anon, 'select public.search_reports_located($1, null, $2, null)', [q, { city: 'Fakeville' }]),
    ).rejects.toThrow(/permission denied/);
    await expect(
      run(owner, 'select public.search_reports_located($1, $2, $3, null)', [
        q,
        stranger.id,
        { city: 'Fakeville' },
      ]),
    ).rejects.toThrow(/permission denied/);
    const { rows } = await adminPool().query(
      'select city, country, loc, ip_hash, user_id from public.search_log where search_string = $1',
      [q],
    );
    expect(rows).toEqual([{ city: null, country: null, loc: null, ip_hash: null, user_id: null }]);
  });

  it("no entry point keeps a location an API caller chose: check_identifiers' visitor argument is dropped for anon and users", async () => {
    for (const actor of [anon, owner]) {
      const q = `${actor.name}-${Date.now()}@example.com`;
      await run(actor, 'select public.check_identifiers($1, $2)', [
        JSON.stringify([{ type: 'email', value: q }]),
        { city: 'Fakeville', country: 'XX', loc: '1.5,2.5', ip_hash: 'ab12cd34ef56ab78' },
      ]);
      const { rows } = await adminPool().query(
        'select city, country, loc, ip_hash from public.search_log where search_string = $1',
        [q],
      );
      expect(rows).toEqual([{ city: null, country: null, loc: null, ip_hash: null }]);
    }
  });

  it("search_reports_located (service role, for the edge functions) logs the server's location and the verified searcher, no raw IP", async () => {
    const q = `Scam-${Date.now()}@Example.com`;
    const visitor = {
      city: 'Cebu City',
      country: 'PH',
      loc: '10.3157,123.8854',
      ip: '203.0.113.5',
      ip_hash: 'ab12cd34ef56ab78',
    };
    const [{ r }] = await run<{ r: SearchResult }>(
      serviceRole,
      'select public.search_reports_located($1, $2, $3, $4) as r',
      [q, owner.id, visitor, '203.0.113.5'],
    );
    expect(r.count).toBe(0);
    const { rows } = await adminPool().query('select * from public.search_log where search_string = $1', [q]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      identifier_kind: 'email',
      identifier_canonical: q.toLowerCase(),
      city: 'Cebu City',
      country: 'PH',
      user_id: owner.id,
      ip_hash: 'ab12cd34ef56ab78',
    });
    expect(JSON.stringify(rows[0])).not.toContain('203.0.113.5');
  });

  it('search_reports_located gives an anonymous searcher the limited columns and a signed-in one the full rows', async () => {
    const located = async (searcher: string | null) =>
      (
        await run<{ r: SearchResult }>(
          serviceRole,
          'select public.search_reports_located($1, $2, null, null) as r',
          [mobile, searcher],
        )
      )[0].r;
    expect(Object.keys((await located(null)).reports[0]).sort()).toEqual(
      Object.keys((await search(anon, mobile)).reports[0]).sort(),
    );
    expect(Object.keys((await located(owner.id)).reports[0]).sort()).toEqual(
      Object.keys((await search(owner, mobile)).reports[0]).sort(),
    );
    expect((await located(owner.id)).reports[0]).toHaveProperty('incident_description');
  });

  it('search_reports_located takes from the search limits per address (429 past 60 a minute)', async () => {
    const ip = `81.3.${Math.floor(Math.random() * 200) + 10}.${Math.floor(Math.random() * 200) + 10}`;
    const q = `limit-${Date.now()}.example`;
    // 60 at once, then one more every second (a token bucket): the flood is refused within a few calls.
    let refused: unknown = null;
    let calls = 0;
    while (!refused && calls < 80) {
      calls++;
      refused = await run(serviceRole, 'select public.search_reports_located($1, null, null, $2)', [
        q,
        ip,
      ]).then(
        () => null,
        (e: unknown) => e,
      );
    }
    expect(String(refused)).toMatch(/Too many searches from your address/);
    expect(calls).toBeGreaterThan(60);
    expect(calls).toBeLessThan(70);
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.search_log where search_string = $1',
      [q],
    );
    expect(rows[0].n).toBe(calls - 1);
  });

  it('a signed-in search is logged with the user', async () => {
    const q = randomMobile();
    await search(owner, q);
    const { rows } = await adminPool().query(
      'select user_id from public.search_log where search_string = $1',
      [q],
    );
    expect(rows).toEqual([{ user_id: owner.id }]);
  });

  it('refuses an empty or oversized search string', async () => {
    await expect(search(anon, '   ')).rejects.toThrow(/1 to 256 characters/);
    await expect(search(anon, 'x'.repeat(300))).rejects.toThrow(/1 to 256 characters/);
  });

  it('is an index lookup on reported_account_canonical', async () => {
    const { rows } = await adminPool().query(
      `explain (format json) select * from public.reports where reported_account_canonical = $1 and status in ('pending', 'verified')
       order by created_at desc`,
      [mobile],
    );
    const plan = JSON.stringify(rows[0]['QUERY PLAN']);
    expect(plan).toMatch(/Index Scan|Bitmap Index Scan/);
    expect(plan).toContain('reports_canonical_created_at_idx');
  });
});

/**
 * The documented risk formula (docs/database.md): risk = round(100 * (1 - exp(-w / 2))), w = the sum over visible
 * reports of weight(verified 1, pending 0.2) * 0.5 ^ (age in days / 180); 'high' from 60, 'medium' from
 * 25. Every expected number below was worked out by hand from that formula (w and the unrounded risk in
 * the comment), so a changed constant, half-life, weight or threshold fails here. Each report comes from
 * a reporter of its own, so the cases hold however one reporter's duplicates are counted.
 */
describe('search_reports risk at its reference points', () => {
  type Filed = { status: 'verified' | 'pending' | 'rejected' | 'removed'; days: number };

  /** Files one report per entry about a new identifier, each by its own reporter, aged by `days`. */
  async function identifierWith(reports: Filed[]): Promise<string> {
    const q = randomMobile();
    for (const { status, days } of reports) {
      const reporter = await createUser('Risk reporter');
      const r = await fileReport(reporter, { reported_account: q });
      if (status !== 'pending') await setStatus(r.id, status);
      await adminPool().query(
        `update public.reports set created_at = now() - make_interval(days => $2) where id = $1`,
        [r.id, days],
      );
    }
    return q;
  }

  async function risk(reports: Filed[]) {
    const { risk_level, risk_label, count } = (await search(anon, await identifierWith(reports))).summary;
    return { risk_level, risk_label, count };
  }

  const verified = (days: number): Filed => ({ status: 'verified', days });
  const pending = (days: number): Filed => ({ status: 'pending', days });

  it('one fresh verified report is medium 39 (w = 1, 39.35); two are high 63 (w = 2, 63.21)', async () => {
    expect(await risk([verified(0)])).toEqual({ risk_level: 39, risk_label: 'medium', count: 1 });
    expect(await risk([verified(0), verified(0)])).toEqual({ risk_level: 63, risk_label: 'high', count: 2 });
  });

  it('a verified report loses half its weight every 180 days: 22 at 180 days (w = 0.5, 22.12), 12 at 360 (w = 0.25, 11.75)', async () => {
    expect(await risk([verified(180)])).toEqual({ risk_level: 22, risk_label: 'low', count: 1 });
    expect(await risk([verified(360)])).toEqual({ risk_level: 12, risk_label: 'low', count: 1 });
  });

  it('an identifier with only pending reports from young accounts: one is 2 (w = 0.05, 2.47), three are 7 (w = 0.15, 7.23)', async () => {
    expect(await risk([pending(0)])).toEqual({ risk_level: 2, risk_label: 'low', count: 1 });
    // Weighted like verified ones, three unreviewed reports would read high (w = 3, 77.69); issue 27
    // weighs a young account's pending report 0.05 (0.2 for an established account).
    expect(await risk([pending(0), pending(0), pending(0)])).toEqual({
      risk_level: 7,
      risk_label: 'low',
      count: 3,
    });
  });

  it('old and new, verified and pending add up; rejected and removed reports weigh nothing', async () => {
    // w = 1 + 0.25 = 1.25 -> 46.47
    expect(await risk([verified(0), verified(360)])).toEqual({
      risk_level: 46,
      risk_label: 'medium',
      count: 2,
    });
    // w = 1 + 5 * 0.05 * 0.5 = 1.125 -> 43.02 (young accounts' pending reports weigh 0.05)
    expect(
      await risk([
        verified(0),
        pending(180),
        pending(180),
        pending(180),
        pending(180),
        pending(180),
        { status: 'rejected', days: 0 },
        { status: 'removed', days: 0 },
      ]),
    ).toEqual({ risk_level: 43, risk_label: 'medium', count: 6 });
  });

  it('medium starts at 25: 24 is low (152 days, w = 0.5569, 24.31), 25 is medium (144 days, w = 0.5743, 24.96)', async () => {
    expect(await risk([verified(152)])).toEqual({ risk_level: 24, risk_label: 'low', count: 1 });
    expect(await risk([verified(144)])).toEqual({ risk_level: 25, risk_label: 'medium', count: 1 });
  });

  it('high starts at 60: 59 is medium (2 x 30 days, w = 1.7818, 58.97), 60 is high (2 x 22 days, w = 1.8375, 60.10)', async () => {
    expect(await risk([verified(30), verified(30)])).toEqual({
      risk_level: 59,
      risk_label: 'medium',
      count: 2,
    });
    expect(await risk([verified(22), verified(22)])).toEqual({
      risk_level: 60,
      risk_label: 'high',
      count: 2,
    });
  });
});

describe('holds on: postgres — user_report_stats', () => {
  it("counts the caller's reports by type and month, from the rollups", async () => {
    const u = await createUser('Stats');
    for (const t of ['scam', 'scam', 'hacked']) await fileReport(u, { incident_type: t });
    const old = await fileReport(u, { incident_type: 'spam' });
    await adminPool().query(
      `update public.reports set created_at = date_trunc('month', now()) - interval '2 months' where id = $1`,
      [old.id],
    );
    const [{ s }] = await run<{
      s: { defaultStats: unknown; monthlyApplications: { date: string; count: number }[] };
    }>(u, 'select public.user_report_stats() as s');
    expect(s.defaultStats).toEqual({ scam: 2, hacked: 1, spam: 1 });
    const { rows } = await adminPool().query(
      `select to_char(now() - interval '2 months', 'YYYY-MM') as old, to_char(now(), 'YYYY-MM') as now`,
    );
    expect(s.monthlyApplications).toEqual([
      { date: rows[0].old, count: 1 },
      { date: rows[0].now, count: 3 },
    ]);
  });

  it('deleting a report takes it out of the stats', async () => {
    const u = await createUser('Deleter');
    const r = await fileReport(u, { incident_type: 'hacked' });
    await run(u, 'delete from public.reports where id = $1', [r.id]);
    const [{ s }] = await run<{ s: { defaultStats: unknown; monthlyApplications: unknown[] } }>(
      u,
      'select public.user_report_stats() as s',
    );
    expect(s).toEqual({ defaultStats: { scam: 0, hacked: 0, spam: 0 }, monthlyApplications: [] });
  });

  it('anon cannot call it', async () => {
    await expect(run(anon, 'select public.user_report_stats()')).rejects.toThrow(
      /permission denied for function/,
    );
  });
});

describe('holds on: postgres — admin_app_stats', () => {
  it('gives admins the site counters, kept current by triggers', async () => {
    type Stats = Record<'contact' | 'verifiedReports' | 'users' | 'reports' | 'search' | 'visitor', number>;
    const get = async () => (await run<{ s: Stats }>(admin, 'select public.admin_app_stats() as s'))[0].s;
    const before = await get();
    const truth = (
      await adminPool().query(`select
      (select count(*) from public.contact_messages)::int as contact, (select count(*) from public.reports where status = 'verified')::int as "verifiedReports",
      (select count(*) from public.profiles)::int as users, (select count(*) from public.reports)::int as reports,
      (select count(*) from public.search_log)::int as search, (select count(*) from public.visitor_log)::int as visitor`)
    ).rows[0];
    expect(before).toEqual(truth);

    const u = await createUser('Counter');
    const r = await fileReport(u);
    await setStatus(r.id, 'verified');
    await run(anon, `insert into public.contact_messages (message) values ('hi')`);
    await run(serviceRole, `select public.record_visits(array['/'], null, null, null)`);
    await run(anon, `select public.search_reports('counter.example')`);
    const after = await get();
    // other test files run in parallel, so the counters grew by at least what this test did
    expect(after.users - before.users).toBeGreaterThanOrEqual(1);
    expect(after.reports - before.reports).toBeGreaterThanOrEqual(1);
    expect(after.verifiedReports - before.verifiedReports).toBeGreaterThanOrEqual(1);
    expect(after.contact - before.contact).toBeGreaterThanOrEqual(1);
    expect(after.visitor - before.visitor).toBeGreaterThanOrEqual(1);
    expect(after.search - before.search).toBeGreaterThanOrEqual(1);
  });

  it('refuses non-admins and anon', async () => {
    await expect(run(owner, 'select public.admin_app_stats()')).rejects.toThrow(/only admins/);
    await expect(run(anon, 'select public.admin_app_stats()')).rejects.toThrow(
      /permission denied for function/,
    );
  });

  it('two sessions add to a counter at once: neither waits for the other to commit (sharded, issue 12)', async () => {
    // Sessions whose backends fall in different shards (pid modulo 16); before, every search, visit and
    // report queued on one row per counter until the previous holder committed.
    const clients = [];
    try {
      let a, b;
      for (let i = 0; i < 8 && !b; i++) {
        const c = await adminPool().connect();
        clients.push(c);
        const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
        if (!a) a = { c, shard: pid % 16 };
        else if (pid % 16 !== a.shard) b = c;
      }
      if (!a || !b) throw new Error('no two sessions in different shards');
      await a.c.query(`begin; select private.bump_site_counter('searches', 1)`);
      await b.query(`begin; set local lock_timeout = '2s'; select private.bump_site_counter('searches', 1)`);
      await b.query('rollback');
      await a.c.query('rollback');
    } finally {
      for (const c of clients) c.release();
    }
  });

  it('private.rebuild_rollups recomputes every rollup from the tables, repairing drift', async () => {
    // A reporter of our own with a known history: 2 scam + 1 hacked this month, 1 spam two months ago.
    const u = await createUser('Rollups');
    for (const t of ['scam', 'scam', 'hacked']) await fileReport(u, { incident_type: t });
    const old = await fileReport(u, { incident_type: 'spam' });
    await adminPool().query(
      `update public.reports set created_at = date_trunc('month', now()) - interval '2 months' where id = $1`,
      [old.id],
    );
    const snapshot = `select
      (select jsonb_object_agg(name, total order by name) from (select name, sum(value)::bigint as total from private.site_counters group by name) s) as site,
      (select jsonb_agg(jsonb_build_array(user_id, incident_type, report_count) order by user_id, incident_type) from private.user_report_counts where report_count > 0) as types,
      (select jsonb_agg(jsonb_build_array(user_id, month, report_count) order by user_id, month) from private.user_monthly_report_counts where report_count > 0) as months,
      (select jsonb_agg(jsonb_build_array(identifier_canonical, report_count, verified_count) order by identifier_canonical) from public.identifier_report_counts where report_count > 0) as idents`;
    const mine = `select incident_type::text as type, report_count::int as n from private.user_report_counts where user_id = $1 order by 1`;
    const client = await adminPool().connect();
    try {
      // serialise with the other files' writers so the snapshots see the same data
      await client.query(
        'begin; lock table public.reports, public.profiles, public.contact_messages, public.search_log, public.visitor_log in share mode',
      );
      const {
        rows: [kept],
      } = await client.query(snapshot);
      // Drift in every rollup: what rebuild_rollups must repair.
      await client.query(`update private.site_counters set value = value + 7;
        update private.user_report_counts set report_count = report_count + 1;
        update private.user_monthly_report_counts set report_count = report_count + 1;
        update public.identifier_report_counts set report_count = report_count + 1, verified_count = verified_count + 1`);
      const {
        rows: [drifted],
      } = await client.query(snapshot);
      expect(drifted.site).not.toEqual(kept.site);
      await client.query('select private.rebuild_rollups()');
      const {
        rows: [rebuilt],
      } = await client.query(snapshot);
      const { rows: counts } = await client.query(mine, [u.id]);
      await client.query('rollback');
      expect(rebuilt).toEqual(kept);
      expect(counts).toEqual([
        { type: 'hacked', n: 1 },
        { type: 'scam', n: 2 },
        { type: 'spam', n: 1 },
      ]);
    } finally {
      client.release();
    }
  });
});
