/**
 * Issue 14, section 3: API keys (made, listed and revoked through the Data API as the app does, by
 * anon, the owner, a stranger and an admin) and the keyed limits of /api/v1 (429 with Retry-After and
 * RateLimit-*, a key gets more than an address, a revoked key is refused on the next request).
 */
import { createHash } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withRole } from '../helpers.ts';
import { adminPool, stackEnv } from '../helpers.ts';
import { address, api, createUser, subjectOf, type TestUser } from './helpers.ts';

interface MadeKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  created_at: string;
}

async function rest(path: string, token: string | null, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${token ?? stackEnv('ANON_KEY')}`,
      'content-type': 'application/json',
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function makeKey(user: TestUser, name = 'my program'): Promise<MadeKey> {
  const r = await rest('rpc/create_api_key', user.token, { json: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as MadeKey;
}

const listKeys = (token: string | null) => rest('api_keys?select=*&order=created_at', token);
const revoke = (token: string | null, id: string) =>
  rest('rpc/revoke_api_key', token, { json: { key_id: id } });

/** A call that costs the API nothing but its limit (no route: 404). */
const ping = (headers: Record<string, string>) => api('GET', '/no-such-route', { headers });

let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [owner, stranger, admin] = await Promise.all([
    createUser('keyowner'),
    createUser('keystranger'),
    createUser('keyadmin', { admin: true }),
  ]);
});

// An account holds at most 3 live keys (issue 27): each test's keys belong to an owner of its own.
beforeEach(async () => {
  owner = await createUser('keyowner');
});

describe('API keys through the Data API', () => {
  it('the owner gets the key once; only its prefix and hash are kept, the hash where no API role reads it', async () => {
    const made = await makeKey(owner, '  Bank feed  ');
    expect(made.key).toMatch(/^sck_[0-9a-f]{64}$/);
    expect(made).toMatchObject({ name: 'Bank feed', prefix: made.key.slice(0, 12) });

    const listed = await listKeys(owner.token);
    expect(listed.status).toBe(200);
    const row = (listed.body as Record<string, unknown>[]).find((k) => k.id === made.id)!;
    expect(Object.keys(row).sort()).toEqual(
      [
        'created_at',
        'id',
        'last_used_at',
        'name',
        'partner_organisation',
        'partner_since',
        'prefix',
        'revoked_at',
        'revoked_by',
        'user_id',
      ].sort(),
    );
    expect(JSON.stringify(listed.body)).not.toContain(made.key.slice(12));

    const stored = await adminPool().query('select key_hash from private.api_key_hashes where key_id = $1', [
      made.id,
    ]);
    expect(stored.rows).toEqual([{ key_hash: createHash('sha256').update(made.key).digest('hex') }]);
    // The private schema is not exposed, and the roles hold no grant on it either.
    const hashes = await rest('api_key_hashes', owner.token);
    expect(hashes.status).toBeGreaterThanOrEqual(400);
    const grants = await adminPool().query(
      `select has_table_privilege('authenticated', 'private.api_key_hashes', 'select') as a,
              has_table_privilege('anon', 'private.api_key_hashes', 'select') as b`,
    );
    expect(grants.rows[0]).toEqual({ a: false, b: false });
  });

  it('holds on: postgres — anon can neither list nor make nor revoke keys', async () => {
    const made = await makeKey(owner);
    expect((await listKeys(null)).status).toBe(401);
    expect((await rest('rpc/create_api_key', null, { json: { name: 'x' } })).status).toBe(401);
    expect((await revoke(null, made.id)).status).toBe(401);
    const still = await adminPool().query('select revoked_at from public.api_keys where id = $1', [made.id]);
    expect(still.rows[0].revoked_at).toBeNull();
  });

  it('a stranger sees none of the owner’s keys and cannot revoke one (it is not found to them)', async () => {
    const made = await makeKey(owner);
    const theirs = await listKeys(stranger.token);
    expect(theirs.status).toBe(200);
    expect((theirs.body as { id: string }[]).map((k) => k.id)).not.toContain(made.id);
    const r = await revoke(stranger.token, made.id);
    expect(r.status).toBe(404);
    const still = await adminPool().query('select revoked_at from public.api_keys where id = $1', [made.id]);
    expect(still.rows[0].revoked_at).toBeNull();
  });

  it('an admin sees every key and can revoke any; revoking twice changes nothing', async () => {
    const made = await makeKey(owner);
    const all = await listKeys(admin.token);
    expect((all.body as { id: string }[]).map((k) => k.id)).toContain(made.id);
    const r = await revoke(admin.token, made.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: made.id, revoked_by: admin.id });
    const again = await revoke(owner.token, made.id);
    expect(again.body).toMatchObject({ revoked_at: (r.body as { revoked_at: string }).revoked_at });
  });

  it('refuses a bad name and writes nothing', async () => {
    const user = await createUser('keyname');
    for (const name of ['', '   ', 'x'.repeat(61), null]) {
      const r = await rest('rpc/create_api_key', user.token, { json: { name } });
      expect(r.status, JSON.stringify(name)).toBe(400);
    }
    const rows = await adminPool().query(
      'select count(*)::int as n from public.api_keys where user_id = $1',
      [user.id],
    );
    expect(rows.rows[0].n).toBe(0);
  });

  it('a user holds at most 3 keys that are not revoked (issue 27); revoking one makes room', async () => {
    const user = await createUser('keycap');
    const made = await Promise.all(Array.from({ length: 3 }, (_, i) => makeKey(user, `key ${i}`)));
    const over = await rest('rpc/create_api_key', user.token, { json: { name: 'fourth' } });
    expect(over.status).toBe(409);
    expect(JSON.stringify(over.body)).toMatch(/revoke one/);
    expect((await revoke(user.token, made[0].id)).status).toBe(200);
    await makeKey(user, 'fourth');
  });
});

describe('keyed limits of /api/v1', () => {
  it('holds on: edge function + postgres — a burst from one address ends in 429 with Retry-After, RateLimit-* and when to come back', async () => {
    const xff = address();
    const first = await ping({ 'x-forwarded-for': xff });
    expect(first.status).toBe(404);
    expect(first.headers.get('ratelimit-limit')).toBe('120');
    expect(first.headers.get('ratelimit-remaining')).toBe('119');
    expect(first.headers.get('ratelimit-policy')).toBe('120;w=60');
    // Spend the rest of the address's minute at once, in the database (the same bucket).
    await adminPool().query(`select private.rate_limit_take('api.anon', $1, 119)`, [await subjectOf(xff)]);
    let refused: Awaited<ReturnType<typeof ping>> | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      // Whatever came back (one call every 0.5 s) is spent again just before the call.
      await adminPool().query(
        `select count(*) from generate_series(1, 5) where (private.rate_limit_take('api.anon', $1, 1)).allowed`,
        [await subjectOf(xff)],
      );
      const r = await ping({ 'x-forwarded-for': xff });
      if (r.status === 429) refused = r;
    }
    expect(refused, 'no 429 within 6 calls after the bucket was spent').toBeDefined();
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBe(1);
    expect(refused!.headers.get('ratelimit-limit')).toBe('120');
    expect(refused!.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused!.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(59);
    const body = refused!.body as { msg: string; retryAfter: number; retryAt: string };
    expect(body.msg).toMatch(
      /^Too many API requests from your address: at most 120 per 1 minute\. Please try again in 1 second\. You can call again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.$/,
    );
    expect(body.retryAfter).toBe(retryAfter);
    expect(Math.abs(Date.parse(body.retryAt) - Date.now() - retryAfter * 1000)).toBeLessThan(3000);
  });

  it('holds on: edge function + postgres — a key gets its own, larger limit: from an address that is spent, X-API-Key and Bearer both pass', async () => {
    const xff = address();
    // The address's bucket spent, and held empty for a while (one call comes back every 0.5 s).
    const subject = await subjectOf(xff);
    await adminPool().query(`select private.rate_limit_take('api.anon', $1, 120)`, [subject]);
    await adminPool().query(
      `update private.rate_limit_buckets set tat = now() + interval '2 minutes' where name = 'api.anon' and subject = $1`,
      [subject],
    );
    expect((await ping({ 'x-forwarded-for': xff })).status).toBe(429);
    const { key } = await makeKey(owner);
    const viaHeader = await ping({ 'x-forwarded-for': xff, 'x-api-key': key });
    expect(viaHeader.status).toBe(404);
    expect(viaHeader.headers.get('ratelimit-limit')).toBe('1200');
    expect(viaHeader.headers.get('ratelimit-remaining')).toBe('1199');
    const viaBearer = await ping({ 'x-forwarded-for': xff, authorization: `Bearer ${key}` });
    expect(viaBearer.status).toBe(404);
    // The same key's bucket: one call fewer, unless the 50 ms in which one call comes back passed
    // between the two requests (it does on a loaded machine).
    expect(['1198', '1199']).toContain(viaBearer.headers.get('ratelimit-remaining'));
    expect(viaBearer.headers.get('ratelimit-limit')).toBe('1200');
  });

  it('holds on: edge function + postgres — limits are per key: one key spent leaves another key of the same owner whole', async () => {
    const a = await makeKey(owner);
    const b = await makeKey(owner);
    const hash = (k: string) => createHash('sha256').update(k).digest('hex');
    const { spent, seconds } = await withRole(adminPool(), { role: 'service_role' }, async (c) => {
      const began = Date.now();
      const { rows } = await c.query<{ n: number }>(
        `select count(*) filter (where (public.api_limit($1) ->> 'allowed')::boolean)::int as n
         from generate_series(1, 1300)`,
        [hash(a.key)],
      );
      return { spent: rows[0].n, seconds: (Date.now() - began) / 1000 };
    });
    // 1200 at once, plus the few that came back (20 a second) while the loop ran.
    expect(spent).toBeGreaterThanOrEqual(1200);
    expect(spent).toBeLessThanOrEqual(1200 + Math.ceil(seconds * 20) + 1);
    // One call comes back every 50 ms; hold the bucket empty for the HTTP check on a busy machine.
    await adminPool().query(
      `update private.rate_limit_buckets set tat = now() + interval '2 minutes' where name = 'api.key' and subject = $1`,
      [`key:${a.id}`],
    );
    expect((await ping({ 'x-api-key': a.key })).status).toBe(429);
    const other = await ping({ 'x-api-key': b.key });
    expect(other.status).toBe(404);
    expect(Number(other.headers.get('ratelimit-remaining'))).toBe(1199);
  });

  it('holds on: edge function + postgres — a revoked key is refused on the very next request; unknown and malformed keys too', async () => {
    const made = await makeKey(owner);
    expect((await ping({ 'x-api-key': made.key })).status).toBe(404);
    expect((await revoke(owner.token, made.id)).status).toBe(200);
    const after = await ping({ 'x-api-key': made.key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ msg: 'This API key has been revoked' });
    const unknown = await ping({ authorization: `Bearer sck_${'0'.repeat(64)}` });
    expect(unknown).toMatchObject({ status: 401, body: { msg: 'Unknown API key' } });
    const malformed = await ping({ 'x-api-key': 'not-a-key' });
    expect(malformed.status).toBe(401);
    expect((malformed.body as { msg: string }).msg).toMatch(/not a ScamCheck API key/);
  });

  it('records when a key was last used', async () => {
    const made = await makeKey(owner);
    await ping({ 'x-api-key': made.key });
    const row = await adminPool().query('select last_used_at from public.api_keys where id = $1', [made.id]);
    expect(Date.now() - new Date(row.rows[0].last_used_at).getTime()).toBeLessThan(60_000);
  });

  it("holds on: edge function + postgres — a user's session token as Bearer still signs them in on the legacy routes, and carries the limit headers", async () => {
    const xff = address();
    const r = await api('GET', '/users/current-user', {
      token: owner.token,
      headers: { 'x-forwarded-for': xff },
    });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).toContain(owner.email);
    expect(r.headers.get('ratelimit-limit')).toBe('120');
    // A key names no user: the same route with only a key is anonymous.
    const { key } = await makeKey(owner);
    expect((await api('GET', '/users/current-user', { token: key })).status).toBe(401);
  });
});
