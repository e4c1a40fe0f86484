/**
 * The `open-data` scheduled function: refreshes the derived statistics and writes the daily export
 * (CSV and JSON, last 365 days) and the moderation figures (moderation.json, issue 31) into the public
 * open-data bucket at stable addresses.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../helpers.ts';
import { createUser, runJob } from './helpers.ts';

/**
 * The moderation figures' counts before masking, read as the database owner from the same rollups
 * public.moderation_statistics reads ("block.key" as in moderation.json's figures).
 */
async function trueModerationCounts(): Promise<Record<string, number>> {
  const { rows } = await adminPool().query<Record<string, string>>(
    `with d as (
       select m.day >= (now() at time zone 'utc')::date - 29 as recent, m.to_status, m.decisions
       from private.moderation_daily m),
     rr as (select * from public.removal_requests where contact_confirmed_at is not null)
     select
       (select coalesce(sum(decisions), 0) from d where recent) as "last_30_days.decisions",
       (select coalesce(sum(decisions), 0) from d where recent and to_status = 'verified') as "last_30_days.verified",
       (select coalesce(sum(decisions), 0) from d where recent and to_status = 'rejected') as "last_30_days.rejected",
       (select coalesce(sum(decisions), 0) from d where recent and to_status = 'removed') as "last_30_days.removed",
       (select coalesce(sum(decisions), 0) from d) as "all_time.decisions",
       (select coalesce(sum(decisions), 0) from d where to_status = 'verified') as "all_time.verified",
       (select coalesce(sum(decisions), 0) from d where to_status = 'rejected') as "all_time.rejected",
       (select coalesce(sum(decisions), 0) from d where to_status = 'removed') as "all_time.removed",
       (select count(*) from rr) as "removal_requests.received",
       (select count(*) from rr where decision = 'hide') as "removal_requests.hidden",
       (select coalesce(sum(report_count), 0) from private.stats_daily where status = 'pending') as "backlog.pending"`,
  );
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

const fileUrl = (name: string) => `${stackEnv('API_URL')}/storage/v1/object/public/open-data/${name}`;

describe('open-data job', () => {
  it('holds on: edge function — refuses anyone but the service role', async () => {
    const url = `${stackEnv('API_URL')}/functions/v1/open-data`;
    const user = await createUser('od');
    expect((await fetch(url, { method: 'POST' })).status).toBe(401);
    expect(
      (await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` } }))
        .status,
    ).toBe(403);
    expect(
      (await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${user.token}` } })).status,
    ).toBe(403);
  });

  it('writes the last 365 days as CSV and JSON with the schema and licence, at public addresses', async () => {
    // Two reports on one day 10 days ago, one on a day 400 days ago (outside the export).
    const reporter = await createUser('odr');
    const insert = `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account, status, amount_lost, created_at)
                    values ($1, current_date, 'spam', 'crypto', $2, 'verified', $3, $4)`;
    const day = new Date(Date.now() - 10 * 86_400_000);
    day.setUTCHours(12, 0, 0, 0);
    const old = new Date(Date.now() - 400 * 86_400_000);
    await adminPool().query(insert, [
      reporter.id,
      `bc1qexport${Date.now()}aaaaaaaaaaaaaaaaaaaaaaaaaaa`.slice(0, 42),
      1234.5,
      day,
    ]);
    await adminPool().query(insert, [
      reporter.id,
      `bc1qexport${Date.now()}bbbbbbbbbbbbbbbbbbbbbbbbbbb`.slice(0, 42),
      100,
      day,
    ]);
    await adminPool().query(insert, [
      reporter.id,
      `bc1qexport${Date.now()}ccccccccccccccccccccccccccc`.slice(0, 42),
      5,
      old,
    ]);

    const job = await runJob('open-data');
    expect(job.status).toBe(200);
    expect(job.body.files).toEqual(['reports-daily.csv', 'reports-daily.json', 'moderation.json']);

    const csvRes = await fetch(fileUrl('reports-daily.csv'));
    expect(csvRes.status).toBe(200);
    expect(csvRes.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csvRes.text()).trim().split('\r\n');
    expect(lines[0]).toBe('date,incident_type,reported_account_type,status,reports,amount_lost_php');
    const dayKey = day.toISOString().slice(0, 10);
    // Other tests file reports too: this day's verified spam/crypto row holds at least our two.
    const ours = lines.find((l) => l.startsWith(`${dayKey},spam,crypto,verified,`))!.split(',');
    expect(Number(ours[4])).toBeGreaterThanOrEqual(2);
    // An amount appears only as the sum of 5 or more verified ones (issue 27): with fewer, the field is empty.
    if (Number(ours[4]) < 5) expect(ours[5]).toBe('');
    expect(lines.some((l) => l.startsWith(old.toISOString().slice(0, 10)))).toBe(false);

    const jsonRes = await fetch(fileUrl('reports-daily.json'));
    expect(jsonRes.status).toBe(200);
    const doc = (await jsonRes.json()) as {
      licence: string;
      schema: { fields: { name: string }[] };
      rows: Record<string, unknown>[];
      from: string;
      to: string;
    };
    expect(doc.licence).toMatch(/CC BY 4\.0/);
    expect(doc.schema.fields.map((f) => f.name)).toEqual(lines[0].split(','));
    expect(doc.rows).toHaveLength(lines.length - 1);
    expect((Date.parse(doc.to) - Date.parse(doc.from)) / 86_400_000).toBe(364);
    expect(doc.rows.every((r) => typeof r.reports === 'number' && (r.date as string) >= doc.from)).toBe(true);
    // Rerunning rewrites the same addresses.
    expect((await runJob('open-data')).status).toBe(200);
    expect((await fetch(fileUrl('reports-daily.csv'))).status).toBe(200);
  });

  it('publishes the moderation figures as moderation.json with every count under 5 withheld (issue 31)', async () => {
    // Other test files decide reports meanwhile, so a count is compared with its true value read just
    // before and just after the job: under 5 both times means the file must withhold it; 5 or more both
    // times means it must show a whole number of at least 5 (between the two).
    const before = await trueModerationCounts();
    const job = await runJob('open-data');
    expect(job.status).toBe(200);
    expect(job.body.files).toContain('moderation.json');
    const after = await trueModerationCounts();
    const res = await fetch(fileUrl('moderation.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as {
      title: string;
      licence: string;
      generated_at: string;
      figures: Record<string, Record<string, unknown> | number | string>;
    };
    expect(doc.licence).toMatch(/CC BY 4\.0/);
    expect(Math.abs(Date.parse(doc.generated_at) - Date.now())).toBeLessThan(120_000);
    expect(doc.figures).toMatchObject({ small_count_threshold: 5, time_unit: 'hours' });
    let withheld = 0;
    let shown = 0;
    for (const [path, low] of Object.entries(before)) {
      const high = after[path];
      const [block, key] = path.split('.');
      const published = (doc.figures[block] as Record<string, unknown>)[key];
      if (Math.max(low, high) < 5) {
        expect(published, path).toBeNull();
        withheld++;
      } else if (Math.min(low, high) >= 5) {
        expect(published, path).toBeGreaterThanOrEqual(Math.min(low, high));
        expect(published, path).toBeLessThanOrEqual(Math.max(low, high));
        shown++;
      } else expect(published === null || (published as number) >= 5, path).toBe(true);
    }
    // Only one test in the suite hides a report on a removal request, so that count is always withheld.
    expect(before['removal_requests.hidden']).toBeLessThan(5);
    expect(withheld).toBeGreaterThan(0);
    expect(withheld + shown).toBeGreaterThan(0);
    // The quantiles are withheld with the decisions they summarise.
    for (const period of ['last_30_days', 'all_time']) {
      const block = doc.figures[period] as Record<string, unknown>;
      if (block.decisions === null) {
        expect(block.median_hours, period).toBeNull();
        expect(block.p90_hours, period).toBeNull();
      }
    }
  });

  it('nobody but the service role can write or list the bucket', async () => {
    const user = await createUser('odw');
    const res = await fetch(`${stackEnv('API_URL')}/storage/v1/object/open-data/reports-daily.csv`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${user.token}`,
        apikey: stackEnv('ANON_KEY'),
        'content-type': 'text/csv',
        'x-upsert': 'true',
      },
      body: 'date\r\nforged\r\n',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await (await fetch(fileUrl('reports-daily.csv'))).text()).not.toContain('forged');
  });
});
