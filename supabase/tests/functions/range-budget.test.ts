/**
 * Issue 27, "no bulk list of accusations": one account with 10 keys walked all 16^5 range prefixes in
 * about 90 minutes, and the answers listed pending-only identifiers. Replayed against the API: the
 * range lists verified identifiers only; an account holds at most 3 live keys; all its keys share one
 * budget (range.account), and every account at one address shares that address's (range.address).
 */
import { createHash, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../helpers.ts';
import { address, api, createUser, subjectOf, type TestUser } from './helpers.ts';

async function makeKey(user: TestUser, name: string) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/rpc/create_api_key`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name }),
  });
  return { status: res.status, body: (await res.json()) as { key: string; message?: string } };
}

function prefix(): string {
  return randomInt(0, 0xfffff).toString(16).padStart(5, '0');
}

const range = (p: string, key: string, xff: string) =>
  api<{ msg?: string; entries?: { suffix: string; count: number }[] }>('GET', `/range/${p}`, {
    headers: { 'x-api-key': key, 'x-forwarded-for': xff },
  });

/** Empties a limiter bucket for the next minute, as a caller who spent it would have. */
async function spend(name: string, subject: string) {
  await adminPool().query(
    `insert into private.rate_limit_buckets (name, subject, tat) values ($1, $2, now() + interval '61 seconds')
     on conflict (name, subject) do update set tat = excluded.tat`,
    [name, subject],
  );
}

describe('the range lookup is no bulk list (issue 27)', () => {
  it('an account holds at most 3 live keys', async () => {
    const user = await createUser('rkeys');
    for (let i = 1; i <= 3; i++) expect((await makeKey(user, `key ${i}`)).status).toBe(200);
    const fourth = await makeKey(user, 'key 4');
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toBe('You already have 3 API keys; revoke one before making another');
  });

  it("holds on: edge function + postgres — all of an account's keys spend one budget: when it is spent, every key gets 429", async () => {
    const user = await createUser('rbudget');
    const [a, b] = [(await makeKey(user, 'a')).body.key, (await makeKey(user, 'b')).body.key];
    const xff = address();
    expect((await range(prefix(), a, xff)).status).toBe(200);
    expect((await range(prefix(), b, xff)).status).toBe(200);
    const { rows } = await adminPool().query(
      `select name, subject from private.rate_limit_buckets where name in ('range.account', 'api.key') and (subject = $1 or subject like 'key:%')
         and (subject = $1 or subject in (select 'key:' || id from public.api_keys where user_id = $2))`,
      [`user:${user.id}`, user.id],
    );
    // One bucket for the account, none per key.
    expect(rows).toEqual([{ name: 'range.account', subject: `user:${user.id}` }]);
    await spend('range.account', `user:${user.id}`);
    for (const key of [a, b]) {
      const r = await range(prefix(), key, address());
      expect(r.status).toBe(429);
      expect(r.body.msg).toMatch(/^Too many range lookups from your account: at most 1200 per 1 minute\./);
    }
  });

  it("holds on: edge function + postgres — accounts at one address share that address's budget", async () => {
    const [one, two] = [await createUser('raddr1'), await createUser('raddr2')];
    const [k1, k2] = [(await makeKey(one, 'k')).body.key, (await makeKey(two, 'k')).body.key];
    const xff = address();
    expect((await range(prefix(), k1, xff)).status).toBe(200);
    await spend('range.address', await subjectOf(xff));
    const refused = await range(prefix(), k2, xff);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^Too many range lookups from your address/);
    // The same key from elsewhere is served: the budget is the address's, not the key's.
    expect((await range(prefix(), k2, address())).status).toBe(200);
  });

  it('a number reported only by pending reports is not in its range; once verified, it is, counting only verified reports', async () => {
    const mobile = `0917${String(randomInt(0, 1e7)).padStart(7, '0')}`;
    const canonical = `+63${mobile.slice(1)}`;
    const hash = createHash('sha256').update(canonical, 'utf8').digest('hex');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { rows } = await adminPool().query<{ id: string }>(
        `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account)
         values (current_date, 'scam', 'mobile', $1) returning id`,
        [mobile],
      );
      ids.push(rows[0].id);
    }
    const user = await createUser('rpend');
    const key = (await makeKey(user, 'k')).body.key;
    const hit = async () =>
      (await range(hash.slice(0, 5), key, address())).body.entries?.find((e) => e.suffix === hash.slice(5));
    // Padding decoys have count 0; a pending-only identifier is not there at all.
    expect(await hit()).toBeUndefined();
    await adminPool().query(`update public.reports set status = 'verified' where id = $1`, [ids[0]]);
    expect(await hit()).toMatchObject({ count: 1 });
  });
});
