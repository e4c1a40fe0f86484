/**
 * The `open-data` scheduled function: refreshes the derived statistics and writes the daily export
 * (CSV and JSON, last 365 days) into the public open-data bucket at stable addresses.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../helpers.ts';
import { createUser, runJob } from './helpers.ts';

const fileUrl = (name: string) => `${stackEnv('API_URL')}/storage/v1/object/public/open-data/${name}`;

describe('open-data job', () => {
  it('refuses anyone but the service role', async () => {
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
    // The moderation figures (issue 31) beside the reports, as /statistics shows them.
    const moderation = (await (await fetch(fileUrl('moderation.json'))).json()) as Record<string, unknown>;
    expect(moderation.licence).toMatch(/CC BY 4\.0/);
    expect(moderation.figures).toMatchObject({
      small_count_threshold: 5,
      last_30_days: expect.any(Object),
      all_time: expect.any(Object),
      removal_requests: expect.any(Object),
      backlog: expect.any(Object),
    });

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
