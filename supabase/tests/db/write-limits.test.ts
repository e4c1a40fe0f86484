/**
 * Floods of every write path, as the attacker of issue 11 ran them, acting as anon or one signed-in
 * user from one address: each is refused with the limiter's 429 (PGRST error PT429) once its limit is
 * spent, and nothing past the limit is written.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { anon, createUser, serviceRole, type Actor } from './actors.ts';
import { withRole } from '../helpers.ts';
import { adminPool } from '../helpers.ts';

/** A public address of its own for each flood, followed by a private proxy hop. */
function address(): string {
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
  return `2a00:${hex()}:${hex()}::1, 10.0.0.7`;
}

let n = 0;
/** Runs `sql` as the actor from `xff` as a Data API POST would; resolves 'ok' or 'limited'. */
async function attempt(
  actor: Actor,
  xff: string,
  sql: string,
  params: (i: number) => unknown[],
): Promise<'ok' | 'limited'> {
  const i = n++;
  try {
    await withRole(adminPool(), actor.claims, (c: pg.PoolClient) => c.query(sql, params(i)), {
      headers: { 'x-forwarded-for': xff },
      method: 'POST',
    });
    return 'ok';
  } catch (e) {
    const err = e as { code?: string; message: string };
    if (err.code === 'PGRST' && JSON.parse(err.message).code === 'PT429') return 'limited';
    throw e;
  }
}

/** Tries `tries` times; returns how many went through before the first refusal, and whether later ones were refused too. */
async function flood(
  actor: Actor,
  xff: string,
  tries: number,
  sql: string,
  params: (i: number) => unknown[] = () => [],
) {
  const began = Date.now();
  const outcomes: string[] = [];
  for (let i = 0; i < tries; i++) outcomes.push(await attempt(actor, xff, sql, params));
  const accepted = outcomes.indexOf('limited') < 0 ? outcomes.length : outcomes.indexOf('limited');
  return {
    accepted,
    refusedAfter: outcomes.slice(accepted).every((o) => o === 'limited') && accepted < tries,
    seconds: (Date.now() - began) / 1000,
  };
}

/** A per-minute limit of 60 gives one call back each second the flood lasts. */
function expectMinuteLimit(r: { accepted: number; seconds: number }) {
  expect(r.accepted).toBeGreaterThanOrEqual(60);
  expect(r.accepted).toBeLessThanOrEqual(60 + Math.ceil(r.seconds) + 1);
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await adminPool().query(sql, params)).rows[0].count);
}

describe('write limits per address and per user (issue 11: no limits outside Auth)', () => {
  it('contact messages: 5 an hour from one address, and nothing past them is stored', async () => {
    const marker = randomUUID();
    const r = await flood(
      anon,
      address(),
      8,
      `insert into public.contact_messages (nickname, message) values ($1, 'hello')`,
      () => [marker],
    );
    expect(r).toMatchObject({ accepted: 5, refusedAfter: true });
    expect(await count('select count(*) from public.contact_messages where nickname = $1', [marker])).toBe(5);
  });

  it('contact messages: 5 an hour from one account, whatever address it uses', async () => {
    const signedIn = await createUser('Contact flooder');
    const outcomes = [];
    for (let i = 0; i < 7; i++)
      outcomes.push(
        await attempt(
          signedIn,
          address(),
          `insert into public.contact_messages (message) values ('hi')`,
          () => [],
        ),
      );
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'limited', 'limited']);
  });

  it('searches (each one logged): 60 a minute from one address', async () => {
    const r = await flood(anon, address(), 90, `select public.search_reports($1)`, (i) => [
      `flood-${i}@example.com`,
    ]);
    expectMinuteLimit(r);
  });

  it('visits (recorded by the visitor function through record_visits): 60 a minute from one address', async () => {
    // The API roles cannot write visitor_log; the function passes the caller's address to record_visits.
    const r = await flood(
      serviceRole,
      '',
      90,
      `select public.record_visits(array['/flood'], null, null, $1)`,
      () => [address().split(',')[0]],
    );
    expect(r.accepted).toBe(90);
    const from = address().split(',')[0];
    const limited = await flood(
      serviceRole,
      '',
      90,
      `select public.record_visits(array['/flood'], null, null, $1)`,
      () => [from],
    );
    expectMinuteLimit(limited);
  });

  it('reports: 20 an hour from one account, one row at a time or in one bulk insert', async () => {
    const reporter = await createUser('Report flooder');
    const insert = `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
                    values ('2026-01-01', 'scam', 'website', $1)`;
    const r = await flood(reporter, address(), 22, insert, (i) => [
      `flood-${i}-${randomUUID().slice(0, 8)}.example`,
    ]);
    expect(r).toMatchObject({ accepted: 20, refusedAfter: true });
    const bulk = await createUser('Bulk flooder');
    expect(
      await attempt(
        bulk,
        address(),
        `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
      select '2026-01-01', 'scam', 'website', 'bulk-' || g || '-' || $1 || '.example' from generate_series(1, 300) g`,
        () => [randomUUID().slice(0, 8)],
      ),
    ).toBe('limited');
    expect(await count('select count(*) from public.reports where reporter_id = $1', [bulk.id])).toBe(0);
  });

  it('removal requests: 5 a day from one account', async () => {
    const requester = await createUser('Removal flooder');
    const reporter = await createUser('Reporter');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const { rows } = await adminPool().query(
        `insert into public.reports (reporter_id, incident_date, incident_type, reported_account_type, reported_account)
         values ($1, '2026-01-01', 'scam', 'website', $2) returning id`,
        [reporter.id, `removal-${i}-${randomUUID().slice(0, 8)}.example`],
      );
      ids.push(rows[0].id);
    }
    const r = await flood(
      requester,
      address(),
      7,
      `insert into public.removal_requests (report_id, reason, contact_email) values ($1, 'not a scam', 'owner@example.com')`,
      (i) => [ids[i % ids.length]],
    );
    expect(r).toMatchObject({ accepted: 5, refusedAfter: true });
  });

  it('Notify Me registrations: 30 an hour from one account', async () => {
    const watcher = await createUser('Notify flooder');
    const tag = randomUUID().slice(0, 8);
    let i = 0;
    const r = await flood(
      watcher,
      address(),
      33,
      `insert into public.notify_registrations (user_id, asset_name) values (auth.uid(), $1)`,
      () => [`watch-${tag}-${i++}@example.com`],
    );
    expect(r).toMatchObject({ accepted: 30, refusedAfter: true });
  });

  it('the service role, seeds and operators are not limited', async () => {
    const marker = randomUUID();
    const service: Actor = { name: 'service', id: null, email: null, claims: { role: 'service_role' } };
    const xff = address();
    for (let i = 0; i < 8; i++)
      await attempt(
        service,
        xff,
        `insert into public.contact_messages (nickname, message) values ($1, 'job')`,
        () => [marker],
      );
    for (let i = 0; i < 8; i++)
      await adminPool().query(`insert into public.contact_messages (nickname, message) values ($1, 'op')`, [
        marker,
      ]);
    expect(await count('select count(*) from public.contact_messages where nickname = $1', [marker])).toBe(
      16,
    );
  });
});
