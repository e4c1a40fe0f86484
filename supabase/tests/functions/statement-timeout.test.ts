/**
 * Calls over the functions' own Postgres connection (_shared/postgres.ts) keep the Data API's
 * statement timeout (8 s): a search or range lookup queued behind a lock answers 503 with Retry-After
 * once it runs out, writes nothing, and the next call after the lock is gone answers 200. Without the
 * pool's timeout they would wait as long as the lock is held.
 */
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { address, api, subjectOf } from './helpers.ts';

/** _shared/postgres.ts's STATEMENT_TIMEOUT_MS (that module imports npm:pg, which only Deno resolves). */
const STATEMENT_TIMEOUT_MS = 8_000;
/** What a request may take beyond the timeout itself (function start, limiter, answer). */
const MARGIN_MS = 4_000;
const TEST_TIMEOUT = STATEMENT_TIMEOUT_MS + MARGIN_MS + 20_000;

let holder: pg.PoolClient | undefined;

/** Holds `lock table <table> in share row exclusive mode` (no insert or update) in an open transaction. */
async function holdLock(table: string): Promise<void> {
  holder = await adminPool().connect();
  await holder.query('begin');
  await holder.query(`lock table ${table} in share row exclusive mode`);
}

async function releaseLock(): Promise<void> {
  if (!holder) return;
  await holder.query('rollback');
  holder.release();
  holder = undefined;
}

afterEach(releaseLock);

async function timed<T>(call: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await call();
  return { answer, ms: performance.now() - started };
}

async function appSearch(searchString: string, xff: string) {
  const res = await fetch(`${stackEnv('API_URL')}/functions/v1/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${stackEnv('ANON_KEY')}`,
      'content-type': 'application/json',
      'x-forwarded-for': xff,
    },
    body: JSON.stringify({ searchString }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

function expectBusy(a: { status: number; headers: Headers; body: unknown }, ms: number): void {
  expect(a.status).toBe(503);
  expect(a.headers.get('retry-after')).toBe('5');
  expect(a.body).toMatchObject({ msg: expect.stringMatching(/busy/) });
  // It waited for the timeout (not some other failure) and no longer.
  expect(ms).toBeGreaterThan(STATEMENT_TIMEOUT_MS - 500);
  expect(ms).toBeLessThan(STATEMENT_TIMEOUT_MS + MARGIN_MS);
}

describe("the direct connection's statement timeout", () => {
  it(
    "a search queued behind search_log's lock: 503 with Retry-After from the API and the app's function, nothing logged; 200 after",
    async () => {
      const legacy = `${unique('to')}@example.com`;
      const app = `${unique('to')}@example.com`;
      await holdLock('public.search_log');
      const [viaApi, viaApp] = await Promise.all([
        timed(() =>
          api('GET', `/search/${encodeURIComponent(legacy)}`, { headers: { 'x-forwarded-for': address() } }),
        ),
        timed(() => appSearch(app, address())),
      ]);
      expectBusy(viaApi.answer, viaApi.ms);
      expectBusy(viaApp.answer, viaApp.ms);
      await releaseLock();

      const logged = async () =>
        (
          await adminPool().query<{ n: number }>(
            'select count(*)::int as n from public.search_log where search_string = any($1)',
            [[legacy, app]],
          )
        ).rows[0].n;
      expect(await logged()).toBe(0);
      expect(
        (
          await api('GET', `/search/${encodeURIComponent(legacy)}`, {
            headers: { 'x-forwarded-for': address() },
          })
        ).status,
      ).toBe(200);
      expect((await appSearch(app, address())).status).toBe(200);
      expect(await logged()).toBe(2);
    },
    TEST_TIMEOUT,
  );

  it(
    "a range lookup queued behind the limiter's lock: 503 with Retry-After, no bucket taken; 200 after",
    async () => {
      const xff = address();
      const subject = await subjectOf(xff);
      const buckets = async () =>
        (
          await adminPool().query<{ n: number }>(
            'select count(*)::int as n from private.rate_limit_buckets where position($1 in subject) > 0',
            [subject],
          )
        ).rows[0].n;
      await holdLock('private.rate_limit_buckets');
      const range = await timed(() => api('GET', '/range/0a1b2', { headers: { 'x-forwarded-for': xff } }));
      expectBusy(range.answer, range.ms);
      await releaseLock();

      expect(await buckets()).toBe(0);
      expect((await api('GET', '/range/0a1b2', { headers: { 'x-forwarded-for': xff } })).status).toBe(200);
      expect(await buckets()).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );
});
