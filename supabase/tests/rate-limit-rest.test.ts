/**
 * /rest/v1 honours PostgREST's db-pre-request (read from the authenticator role's settings, reloaded on
 * NOTIFY pgrst 'reload config') and answers a limit raised in SQL as PostgREST does: 429 with
 * Retry-After, RateLimit-* headers and the JSON error body.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '@scamcheck/local-supabase';
import { adminPool, stackEnv, unique } from './helpers.ts';

const user = crypto.randomUUID();
/** A table anon may write to and that has no limit of its own. */
const table = unique('limit_rest_');
let token: string;

function rest(
  path: string,
  init: { method?: string; token?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  return fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${init.token ?? stackEnv('ANON_KEY')}`,
      'content-type': 'application/json',
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** A public test address nobody else uses in this run. */
function address(): string {
  const b = crypto.randomBytes(2);
  return `198.51.${b[0]}.${(b[1] % 250) + 1}`;
}

beforeAll(async () => {
  await adminPool().query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at) values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [user, `${user}@example.com`],
  );
  const now = Math.floor(Date.now() / 1000);
  await adminPool()
    .query(`create table public.${table} (id bigint generated always as identity primary key, note text);
    grant insert on public.${table} to anon;`);
  token = await signJwt({
    role: 'authenticated',
    aud: 'authenticated',
    sub: user,
    iat: now,
    exp: now + 3600,
  });
});

afterAll(async () => {
  await adminPool().query('delete from auth.users where id = $1', [user]);
  await adminPool().query(`drop table public.${table}`);
});

describe('holds on: postgres — db-pre-request and 429 from SQL', () => {
  it('write requests beyond rest_write.user get 429 with Retry-After, RateLimit-* and the JSON message', async () => {
    // 120 per minute as a bucket: 120 at once, then one more every 0.5 s while the flood runs.
    let accepted = 0;
    let refused: Response | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await rest(`notify_registrations?id=eq.${crypto.randomUUID()}`, {
        method: 'DELETE',
        token,
        headers: { 'x-forwarded-for': address() },
      });
      if (r.status === 429) refused = r;
      else {
        expect(r.status).toBe(204);
        accepted++;
        await r.arrayBuffer();
      }
    }
    expect(accepted).toBeGreaterThanOrEqual(120);
    expect(accepted).toBeLessThan(150);
    if (!refused) throw new Error('never refused');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-limit')).toBe('120');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-policy')).toBe('120;w=60');
    const body = await refused.json();
    expect(body).toMatchObject({
      code: 'PT429',
      message: expect.stringMatching(
        /^Too many changes from your account: at most 120 per 1 minute\. Please try again in \d+ seconds?\.$/,
      ),
    });
    // Reads are not write requests and stay open.
    const read = await rest('news?select=id&limit=1', { token });
    expect(read.status).toBe(200);
  });

  it('write requests beyond rest_write.ip from one address get 429, whoever signs them', async () => {
    const xff = address();
    let accepted = 0;
    let last = 0;
    for (let i = 0; i < 200 && last !== 429; i++) {
      const r = await rest(table, {
        method: 'POST',
        headers: { 'x-forwarded-for': `10.1.1.1, ${xff}` },
        body: { note: `n${i}` },
      });
      last = r.status;
      await r.arrayBuffer();
      if (last !== 429) {
        expect(r.status).toBe(201);
        accepted++;
      }
    }
    expect(last).toBe(429);
    expect(accepted).toBeGreaterThanOrEqual(120);
    expect(accepted).toBeLessThan(150);
  });

  it("follows pgrst.db_pre_request on the authenticator role, reloaded on NOTIFY pgrst, 'reload config'", async () => {
    const marker = unique('pre');
    const fn = `${marker}_check`;
    const db = adminPool();
    await db.query(`
      create function private.${fn}() returns void language plpgsql as $$
      begin
        if current_setting('request.headers', true)::json ->> 'x-test-pre' = '${marker}' then
          raise sqlstate 'PGRST' using message = '{"code":"PT402","message":"Payment required by the pre-request"}',
            detail = '{"status":402,"headers":{"X-Pre":"yes"}}';
        end if;
        perform private.rest_pre_request();
      end $$;
      grant execute on function private.${fn}() to anon, authenticated;`);
    const original = (
      await db.query(
        `select s from pg_db_role_setting d join pg_roles r on r.oid = d.setrole, unnest(d.setconfig) s where r.rolname = 'authenticator' and s like 'pgrst.db_pre_request=%'`,
      )
    ).rows[0]?.s?.split('=')[1];
    expect(original).toBe('private.rest_pre_request');
    try {
      await db.query(`alter role authenticator set pgrst.db_pre_request = 'private.${fn}'`);
      await db.query(`notify pgrst, 'reload config'`);
      let status = 0;
      for (let i = 0; i < 50 && status !== 402; i++) {
        const r = await rest('news?select=id&limit=1', { headers: { 'x-test-pre': marker } });
        status = r.status;
        if (status === 402) {
          expect(r.headers.get('x-pre')).toBe('yes');
          expect(await r.json()).toMatchObject({
            code: 'PT402',
            message: 'Payment required by the pre-request',
          });
        } else {
          await r.arrayBuffer();
          await new Promise((res) => setTimeout(res, 50));
        }
      }
      expect(status).toBe(402);
      expect((await rest('news?select=id&limit=1')).status).toBe(200);
    } finally {
      await db.query(`alter role authenticator set pgrst.db_pre_request = 'private.rest_pre_request'`);
      await db.query(`notify pgrst, 'reload config'`);
      // Requests already on their way may still name the test function; let them finish.
      await new Promise((res) => setTimeout(res, 500));
      await db.query(`drop function private.${fn}()`);
    }
  });
});
