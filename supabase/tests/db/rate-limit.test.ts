/**
 * The product's one rate limiter (private.rate_limit_take / private.rate_limit), its configuration and
 * the client address it keys on, exercised in SQL as the API roles call it.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, createUser, run, type Actor } from './actors.ts';
import { withRole } from '../helpers.ts';
import { adminPool, unique } from '../helpers.ts';

interface Take {
  allowed: boolean;
  max_calls: number;
  remaining: number;
  reset_seconds: number;
  retry_after_seconds: number;
}

const limit = unique('test.limit_');
let user: Actor;

async function take(name: string, subject: string, cost = 1): Promise<Take> {
  const [r] = await run<Take & Record<string, unknown>>(
    anon,
    'select * from private.rate_limit_take($1, $2, $3)',
    [name, subject, cost],
  );
  return r;
}

/**
 * The client address the limiter sees for a request carrying these headers. The range lookup's path,
 * which gets X-Forwarded-For as an argument (private.forwarded_client_address), must see the same.
 */
async function addressFor(headers: Record<string, string>): Promise<string | null> {
  const { rows } = await adminPool().query<{ a: string | null }>(
    'select host(private.forwarded_client_address($1)) as a',
    [headers['x-forwarded-for'] ?? null],
  );
  const address = await withRole(
    adminPool(),
    { role: 'anon' },
    async (c) =>
      (await c.query<{ a: string | null }>('select host(private.client_address()) as a')).rows[0].a,
    { headers, method: 'POST' },
  );
  expect(rows[0].a).toBe(address);
  return address;
}

beforeAll(async () => {
  user = await createUser('Limited');
  await adminPool().query(
    `insert into private.rate_limits (name, max_calls, per_seconds, description) values ($1, 3, 60, 'Too many test calls')`,
    [limit],
  );
});

afterAll(async () => {
  await adminPool().query('delete from private.rate_limits where name = $1', [limit]);
});

describe('holds on: postgres — rate limiter: token bucket', () => {
  it('allows max_calls at once, then refuses with the time until one call comes back', async () => {
    const subject = unique('s');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await take(limit, subject));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.remaining)).toEqual([2, 1, 0, 0]);
    expect(answers[0]).toMatchObject({ max_calls: 3, retry_after_seconds: 0, reset_seconds: 20 });
    // 3 calls per 60 s: one comes back every 20 s.
    expect(answers[3].retry_after_seconds).toBeGreaterThanOrEqual(19);
    expect(answers[3].retry_after_seconds).toBeLessThanOrEqual(20);
    expect(answers[3].reset_seconds).toBeGreaterThanOrEqual(59);
  });

  it('a refused call spends nothing, and subjects and limits are counted apart', async () => {
    const subject = unique('s');
    for (let i = 0; i < 3; i++) expect((await take(limit, subject)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) expect((await take(limit, subject)).allowed).toBe(false);
    // Once the bucket has regained one call (simulated by moving its clock 20 s back), one call passes.
    await adminPool().query(
      `update private.rate_limit_buckets set tat = tat - interval '20 seconds' where name = $1 and subject = $2`,
      [limit, subject],
    );
    expect((await take(limit, subject)).allowed).toBe(true);
    expect((await take(limit, subject)).allowed).toBe(false);
    expect((await take(limit, unique('other'))).allowed).toBe(true);
  });

  it('a cost spends several calls; a cost above the limit is never allowed', async () => {
    const subject = unique('s');
    expect(await take(limit, subject, 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await take(limit, subject, 2)).toMatchObject({ allowed: false, remaining: 1 });
    expect(await take(limit, unique('s'), 4)).toMatchObject({ allowed: false, retry_after_seconds: 60 });
  });

  it('concurrent calls never get more than max_calls between them', async () => {
    const subject = unique('race');
    const answers = await Promise.all(Array.from({ length: 12 }, () => take(limit, subject)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(3);
  });

  it('a disabled limit always allows; an unknown limit or bad subject is an error', async () => {
    const name = unique('test.off_');
    await adminPool().query(
      `insert into private.rate_limits (name, max_calls, per_seconds, description, enabled) values ($1, 1, 60, 'Off', false)`,
      [name],
    );
    try {
      for (let i = 0; i < 3; i++) expect((await take(name, 'x')).allowed).toBe(true);
    } finally {
      await adminPool().query('delete from private.rate_limits where name = $1', [name]);
    }
    await expect(take('no.such.limit', 'x')).rejects.toThrow(/unknown rate limit/);
    await expect(take(limit, '')).rejects.toThrow(/subject is 1 to 200 characters/);
    await expect(take(limit, 'x', 0)).rejects.toThrow(/cost is at least 1/);
  });

  it("rate_limit raises PostgREST's 429 error with Retry-After and RateLimit-* headers", async () => {
    const subject = unique('s');
    for (let i = 0; i < 3; i++) await run(user, 'select private.rate_limit($1, $2)', [limit, subject]);
    const err = await run(user, 'select private.rate_limit($1, $2)', [limit, subject]).catch(
      (e: Error & { code: string; detail: string }) => e,
    );
    expect(err).toMatchObject({ code: 'PGRST' });
    const body = JSON.parse((err as Error).message);
    expect(body).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(
        /^Too many test calls: at most 3 per 1 minute\. Please try again in \d+ seconds\.$/,
      ),
    });
    expect(body.details).toMatch(new RegExp(`^limit=${limit.replace(/\./g, '\\.')}; retry_after=\\d+$`));
    const detail = JSON.parse((err as { detail: string }).detail);
    expect(detail.status).toBe(429);
    expect(detail.headers).toMatchObject({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '0',
      'RateLimit-Policy': '3;w=60',
    });
    expect(Number(detail.headers['Retry-After'])).toBeGreaterThanOrEqual(19);
  });

  it('the API roles cannot read or change the limits or the counters', async () => {
    await expect(run(anon, 'select * from private.rate_limit_buckets')).rejects.toThrow(/permission denied/);
    await expect(run(user, 'update private.rate_limits set max_calls = 1000000')).rejects.toThrow(
      /permission denied/,
    );
    await expect(run(user, 'delete from private.rate_limit_buckets')).rejects.toThrow(/permission denied/);
    await expect(run(user, 'select public.rate_limit_check($1, $2, 1)', [limit, 'x'])).rejects.toThrow(
      /permission denied/,
    );
  });

  it('cleanup deletes only buckets that are full again', async () => {
    const fresh = unique('fresh');
    const stale = unique('stale');
    await take(limit, fresh);
    await take(limit, stale);
    await adminPool().query(
      `update private.rate_limit_buckets set tat = now() - interval '1 second' where name = $1 and subject = $2`,
      [limit, stale],
    );
    await adminPool().query('select private.rate_limit_cleanup()');
    const { rows } = await adminPool().query(
      'select subject from private.rate_limit_buckets where name = $1 and subject = any($2)',
      [limit, [fresh, stale]],
    );
    expect(rows.map((r) => r.subject)).toEqual([fresh]);
  });
});

describe('rate limiter: the client address', () => {
  it('is the right-most public X-Forwarded-For entry; what the client wrote further left is ignored', async () => {
    expect(await addressFor({ 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.7');
    expect(await addressFor({ 'x-forwarded-for': '1.2.3.4, 203.0.113.7' })).toBe('203.0.113.7');
    expect(await addressFor({ 'x-forwarded-for': '203.0.113.7, 10.0.0.2, 127.0.0.1' })).toBe('203.0.113.7');
    expect(await addressFor({ 'x-forwarded-for': '[2001:4860::8888]:443' })).toBe('2001:4860::8888');
    expect(await addressFor({ 'x-forwarded-for': '::ffff:198.51.100.9' })).toBe('198.51.100.9');
    expect(await addressFor({ 'x-forwarded-for': 'garbage, 127.0.0.1' })).toBeNull();
    expect(await addressFor({})).toBeNull();
  });

  it('skips the trusted proxies configured, and keys on a salted hash, never the address', async () => {
    await adminPool().query(
      `update private.rate_limit_settings set value = '198.51.100.0/24' where name = 'trusted_proxies'`,
    );
    try {
      expect(await addressFor({ 'x-forwarded-for': '203.0.113.7, 198.51.100.20' })).toBe('203.0.113.7');
    } finally {
      await adminPool().query(
        `update private.rate_limit_settings set value = '' where name = 'trusted_proxies'`,
      );
    }
    const key = await withRole(
      adminPool(),
      { role: 'anon' },
      async (c) => (await c.query('select private.client_address_key() as k')).rows[0].k,
      { headers: { 'x-forwarded-for': '203.0.113.7' } },
    );
    expect(key).toMatch(/^ip:[0-9a-f]{32}$/);
    // Salted: not a bare digest of the address that anyone could recompute. (A check that the hex holds no
    // '203' failed about once in 140 runs, when a random salt's digest happened to contain those digits.)
    for (const algorithm of ['md5', 'sha1', 'sha256']) {
      const bare = createHash(algorithm).update('203.0.113.7').digest('hex');
      expect(bare).not.toContain(key.slice(3));
    }
  });

  it('counts an IPv6 caller per /64, so rotating addresses within it buys no fresh limit', async () => {
    const keyOf = async (addr: string) =>
      (await adminPool().query<{ k: string }>('select private.address_key($1::inet) as k', [addr])).rows[0].k;
    const [a, b, c] = Array.from({ length: 3 }, () => Math.floor(Math.random() * 0xffff));
    const home = `2a02:${a.toString(16)}:${b.toString(16)}:${c.toString(16)}`;
    const neighbour = `2a02:${a.toString(16)}:${b.toString(16)}:${(c ^ 1).toString(16)}`;
    // Any address of one /64 is one subject; the next /64, or another IPv4 address, is another.
    const same = await Promise.all(
      [`${home}::1`, `${home}:ffff:ffff:ffff:ffff`, `${home}:1:2:3:4`].map(keyOf),
    );
    expect(new Set(same).size).toBe(1);
    expect(await keyOf(`${neighbour}::1`)).not.toBe(same[0]);
    expect(await keyOf('203.0.113.7')).not.toBe(await keyOf('203.0.113.8'));
    // So a limit spent from one address of the /64 is spent for all of them.
    const { rows } = await adminPool().query<{ allowed: boolean }>(
      `select (private.rate_limit_take('api.anon', private.address_key(a::inet), 1)).allowed
       from unnest($1::text[]) a`,
      [[`${home}::1`, `${home}::2`]],
    );
    expect(rows.map((r) => r.allowed)).toEqual([true, true]);
    const spent = await adminPool().query<{ remaining: number }>(
      `select (private.rate_limit_take('api.anon', private.address_key($1::inet), 1)).remaining`,
      [`${home}::3`],
    );
    const { rows: limit } = await adminPool().query<{ max_calls: number }>(
      `select max_calls from private.rate_limits where name = 'api.anon'`,
    );
    expect(spent.rows[0].remaining).toBe(limit[0].max_calls - 3);
  });
});
