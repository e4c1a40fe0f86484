/**
 * Hostile and broken input to every /api/v1 call: bad JSON, wrong types, huge bodies, unsupported
 * content types and forged tokens get a 4xx with a readable `msg`, never a 500, and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { adminPool } from '../helpers.ts';
import { api, createUser, forgedToken, type TestUser } from './helpers.ts';
import { API_CALLS as ROUTES } from './api-calls.ts';

/** Calls that start or end a session ignore the token a client sends (a stale cookie must not block login). */
const SESSION_CALLS = /^\/(auth|verify)\//;
const TOKEN_ROUTES = ROUTES.filter(([, p]) => !SESSION_CALLS.test(p));
/** POST /auth/logout reads no body (it is GET's twin, docs/behaviour.md §7), so body checks do not apply. */
const TAKES_BODY = ([m, p]: [string, string]) => m !== 'GET' && p !== '/auth/logout';
const WRITES = ROUTES.filter(TAKES_BODY);
const BODY_ROUTES = ROUTES.filter((r) => TAKES_BODY(r) && (r[0] === 'POST' || r[0] === 'PATCH'));

/** What the test user owns everywhere, so tests running beside this one cannot disturb the count. */
async function counts(userId: string): Promise<Record<string, number>> {
  const q = async (sql: string) => (await adminPool().query(sql, [userId])).rows[0].n as number;
  return {
    reports: await q('select count(*)::int as n from public.reports where reporter_id = $1'),
    news: await q('select count(*)::int as n from public.news where author_id = $1'),
    contact: await q('select count(*)::int as n from public.contact_messages where user_id = $1'),
    notify: await q('select count(*)::int as n from public.notify_registrations where user_id = $1'),
    removal: await q('select count(*)::int as n from public.removal_requests where requester_id = $1'),
    profile: await q("select count(*)::int as n from public.profiles where id = $1 and name = 'Test User'"),
    objects: await q(
      "select count(*)::int as n from storage.objects where owner_id = $1::text or name like $1 || '/%'",
    ),
  };
}

function expectClientError(r: { status: number; body: unknown }, what: string) {
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
  expect(typeof (r.body as { msg?: unknown }).msg, what).toBe('string');
}

describe('malformed input to every /api/v1 call', () => {
  let user: TestUser;
  let before: Record<string, number>;

  beforeAll(async () => {
    user = await createUser('mal', { admin: true });
    before = await counts(user.id);
  });

  it.each(TOKEN_ROUTES)('holds on: edge function — %s %s with a forged token: 401', async (method, path) => {
    const r = await api(method, path, { token: forgedToken(user) });
    expectClientError(r, `${method} ${path}`);
    expect(r.status).toBe(401);
  });

  it.each(WRITES)(
    '%s %s with broken JSON, a JSON array, wrong types and a foreign content type: 4xx',
    async (method, path) => {
      const bodies: [string, string][] = [
        ['{"a": ', 'application/json'],
        ['[1,2,3]', 'application/json'],
        ['"just a string"', 'application/json'],
        [
          JSON.stringify({
            name: 1,
            email: [],
            password: {},
            searchString: 5,
            assetName: false,
            message: null,
            newsTitle: 7,
            incidentType: 3,
            reportId: 1,
            response: {},
          }),
          'application/json',
        ],
        ['\u0000\u0001binary', 'application/octet-stream'],
        ['--x\r\nbroken multipart', 'multipart/form-data; boundary=x'],
      ];
      for (const [body, type] of bodies) {
        const r = await api(method, path, { token: user.token, body, headers: { 'content-type': type } });
        expectClientError(r, `${method} ${path} ${type} ${body.slice(0, 20)}`);
      }
    },
  );

  it.each(BODY_ROUTES)(
    'holds on: edge function — %s %s with a 3 MB body: 413 before reading it all',
    async (method, path) => {
      const r = await api(method, path, {
        token: user.token,
        body: JSON.stringify({ searchString: 'x'.repeat(3_000_000) }),
        headers: { 'content-type': 'application/json' },
      });
      expectClientError(r, `${method} ${path}`);
      expect(r.status).toBe(413);
    },
  );

  it.each(BODY_ROUTES)('%s %s with NUL characters or a lone surrogate in text: 400', async (method, path) => {
    for (const bad of ['a\\u0000b', '\\ud800']) {
      // JSON escapes, so the server's parser (not the client's encoder) meets the NUL and the lone surrogate.
      const body = `{"name":"x","email":"a@b.co","password":"long enough pw","searchString":"${bad}","message":"${bad}","assetName":"${bad}","newsTitle":"${bad}","reason":"${bad}","response":"${bad}"}`;
      const r = await api(method, path, {
        token: user.token,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectClientError(r, `${method} ${path} ${bad}`);
      expect(r.status).toBe(400);
    }
  });

  it.each(BODY_ROUTES)('%s %s with JSON nested 5000 levels deep: 400, not a 500', async (method, path) => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    for (const body of [deep, `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`]) {
      const r = await api(method, path, {
        token: user.token,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expectClientError(r, `${method} ${path}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ msg: 'The request body is nested too deeply (at most 32 levels)' });
    }
  });

  it('identifiers that have no canonical form are refused by name, not by a database error', async () => {
    const report = await api('POST', '/reports', {
      token: user.token,
      json: {
        incidentDate: '2026-11-01',
        incidentType: 'scam',
        reportedAccountType: 'website',
        reportedAccount: 'https://',
      },
    });
    expect(report.status).toBe(400);
    expect(report.body.msg).toBe('reportedAccount is not a valid website');
    const notify = await api('POST', '/notify', {
      token: user.token,
      json: { assetName: 'ok@example.com, https://' },
    });
    expect(notify.status).toBe(400);
    expect(notify.body.msg).toMatch(/"https:\/\/" is not a number, e-mail, website or wallet/);
  });

  it('unknown paths and methods answer 404 and 405 as JSON', async () => {
    expectClientError(await api('GET', '/no-such-thing'), 'unknown path');
    expect((await api('GET', '/no-such-thing')).status).toBe(404);
    expect((await api('PUT', '/reports')).status).toBe(405);
    expect((await api('GET', '/search/%E0%A4%A')).status).toBe(400);
  });

  it('changed nothing in the database or storage', async () => {
    expect(await counts(user.id)).toEqual(before);
  });
});
