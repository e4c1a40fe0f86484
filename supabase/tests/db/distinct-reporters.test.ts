/**
 * Issue 11, "one account moves a verdict": ten identical pending reports from one new account took a
 * never-reported site from risk 0 to 63. Risk now counts distinct reporters (one reporter's reports on
 * one identifier weigh as one, as much as their strongest), and the same reporter filing the same
 * identifier again within 30 days is refused with a message naming the report to edit instead.
 * Issue 27 weighs young accounts' pending reports less and groups reporters by network
 * (verdict-sybil.test.ts replays that attack).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { anon, createUser, run, type Actor } from './actors.ts';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';

interface Summary {
  count: number;
  risk_level: number;
  risk_label: string;
}

/** As the Data API runs a request (request.method set), from an address of its own. */
function api<T extends pg.QueryResultRow>(actor: Actor, sql: string, params: unknown[]) {
  return withRole(adminPool(), actor.claims, async (c) => (await c.query<T>(sql, params)).rows, {
    method: 'POST',
    headers: {},
  });
}

async function fileAsApi(actor: Actor, site: string) {
  const [row] = await api<{ id: string }>(
    actor,
    `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
     values ('2026-01-01', 'scam', 'website', $1) returning id`,
    [site],
  );
  return row;
}

async function summary(site: string): Promise<Summary> {
  const [{ r }] = await run<{ r: { summary: Summary } }>(anon, 'select public.search_reports($1) as r', [
    site,
  ]);
  return r.summary;
}

/** The JSON error body PostgREST would answer, from a raised PGRST error. */
function bodyOf(e: unknown): { code: string; message: string; details: string; hint: string } {
  return JSON.parse((e as Error).message);
}

describe('one account cannot move a verdict', () => {
  it('ten identical reports from one new account: the first is filed, the others refused pointing at it; risk stays low', async () => {
    const attacker = await createUser('Attacker');
    const site = `victim-${randomUUID().slice(0, 8)}.example`;
    const first = await fileAsApi(attacker, site);
    for (let i = 0; i < 9; i++) {
      const e = await fileAsApi(attacker, `https://www.${site}/page-${i}`).catch((err: unknown) => err);
      expect(e).toMatchObject({ code: 'PGRST' });
      const body = bodyOf(e);
      expect(body.code).toBe('PT409');
      expect(body.message).toMatch(
        new RegExp(
          `^You already reported ${site.replace(/\./g, '\\.')} on \\w+ \\d+, \\d{4}\\. Edit that report to add what happened instead of filing a new one\\.$`,
        ),
      );
      expect(body.details).toBe(`existing_report_id=${first.id}`);
      expect(JSON.parse((e as { detail: string }).detail)).toMatchObject({ status: 409 });
    }
    const { rows } = await adminPool().query(
      'select count(*)::int as n from public.reports where reporter_id = $1',
      [attacker.id],
    );
    expect(rows[0].n).toBe(1);
    // One young account's pending report: w = 0.05 (issue 27), 2.
    expect(await summary(site)).toEqual(
      expect.objectContaining({ count: 1, risk_level: 2, risk_label: 'low' }),
    );
  });

  it('duplicates that exist anyway (older ones, imports) weigh as one reporter: ten pending reports stay at 2, not 63', async () => {
    const reporter = await createUser('Prolific');
    const site = `imported-${randomUUID().slice(0, 8)}.example`;
    for (let i = 0; i < 10; i++) {
      await adminPool().query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account)
         values ($1, '2026-01-01', 'scam', 'website', $2)`,
        [reporter.id, site],
      );
    }
    // A young account (issue 27): its pending reports weigh 0.05, once.
    expect(await summary(site)).toEqual(
      expect.objectContaining({ count: 10, risk_level: 2, risk_label: 'low' }),
    );
    // A second reporter counts: two distinct young pending reporters, w = 0.1, 5.
    const other = await createUser('Second reporter');
    await fileAsApi(other, site);
    expect(await summary(site)).toEqual(expect.objectContaining({ count: 11, risk_level: 5 }));
  });

  it('one reporter weighs as much as their strongest report: verified beats their pending ones', async () => {
    const reporter = await createUser('Verified reporter');
    const site = `strongest-${randomUUID().slice(0, 8)}.example`;
    for (const status of ['pending', 'verified', 'pending']) {
      await adminPool().query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account, status)
         values ($1, '2026-01-01', 'scam', 'website', $2, $3)`,
        [reporter.id, site, status],
      );
    }
    // w = 1 (the verified report), 39: not 1 + 0.2 + 0.2 = 1.4 (50).
    expect(await summary(site)).toEqual(
      expect.objectContaining({ count: 3, risk_level: 39, risk_label: 'medium' }),
    );
  });

  it('a hand-computed reference: four reports from one account and five from others, of mixed age and status, are medium 55', async () => {
    const site = `reference-${randomUUID().slice(0, 8)}.example`;
    /** Files a report as the admin would import it (no duplicate check), then ages it by `days`. */
    async function filed(reporter: Actor | null, status: string, days: number) {
      const { rows } = await adminPool().query<{ id: string }>(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account, status)
         values ($1, '2026-01-01', 'scam', 'website', $2, $3) returning id`,
        [reporter?.id ?? null, site, status],
      );
      await adminPool().query(
        `update public.reports set created_at = now() - make_interval(days => $2) where id = $1`,
        [rows[0].id, days],
      );
    }
    const one = await createUser('Reference prolific');
    const [b, c, d] = [
      await createUser('Reference B'),
      await createUser('Reference C'),
      await createUser('Reference D'),
    ];
    // Weight of a report: decay = 0.5 ^ (age in days / 180); a verified report weighs 1 * decay, each
    // reporter once with their strongest; a pending report of a reporter with no verified one weighs
    // 0.05 * decay from a young account (all of these; issue 27: 0.2 only for established accounts);
    // a report whose account is gone is a reporter (and a network) of its own.
    await filed(one, 'verified', 90); //  1    * 0.5^(90/180)  = 0.70711  <- this account's strongest
    await filed(one, 'pending', 0); //    covered by the account's verified report
    await filed(one, 'pending', 10); //   covered by the account's verified report
    await filed(one, 'rejected', 0); //   not visible, weighs nothing and is not counted
    await filed(b, 'pending', 0); //      0.05                  = 0.05
    await filed(c, 'verified', 360); //   1    * 0.5^2          = 0.25
    await filed(d, 'verified', 180); //   1    * 0.5^1          = 0.5      <- D's strongest
    await filed(d, 'pending', 0); //      covered by D's verified report
    await filed(null, 'pending', 30); //  0.05 * 0.5^(30/180)  = 0.04454
    await filed(null, 'pending', 30); //  0.04454, a second reporter of its own
    // w = 0.70711 + 0.25 + 0.5 + 0.05 + 2 * 0.04454 = 1.59619
    // risk = 100 * (1 - exp(-1.59619 / 2)) = 54.98 -> 55, medium.
    expect(await summary(site)).toEqual(
      expect.objectContaining({ count: 9, risk_level: 55, risk_label: 'medium' }),
    );
  });

  it('the same identifier again after 30 days is a new report; changing another report to a reported identifier is refused', async () => {
    const reporter = await createUser('Returning');
    const site = `again-${randomUUID().slice(0, 8)}.example`;
    const old = await fileAsApi(reporter, site);
    await adminPool().query(
      `update public.reports set created_at = now() - interval '31 days' where id = $1`,
      [old.id],
    );
    await fileAsApi(reporter, site);
    const other = await fileAsApi(reporter, `other-${randomUUID().slice(0, 8)}.example`);
    const e = await api(reporter, 'update public.reports set reported_account = $2 where id = $1', [
      other.id,
      site,
    ]).catch((err: unknown) => err);
    expect(bodyOf(e).code).toBe('PT409');
    // Editing the report itself (same identifier) is what the message asks for, and works.
    await api(reporter, 'update public.reports set incident_description = $2 where id = $1', [
      other.id,
      'More details',
    ]);
  });

  it('rejected and removed reports do not block a new one', async () => {
    const reporter = await createUser('Rejected');
    const site = `rejected-${randomUUID().slice(0, 8)}.example`;
    const first = await fileAsApi(reporter, site);
    await adminPool().query(`update public.reports set status = 'rejected' where id = $1`, [first.id]);
    await expect(fileAsApi(reporter, site)).resolves.toMatchObject({ id: expect.any(String) });
  });
});
