/**
 * The short version of `npm run check:fuzz` for hostile requests (8 per /api/v1 call and edge function;
 * the full run sends 200 each): always a 4xx with a message, never a 5xx or a hang, no table changed.
 * On a stack of its own (ports STACK_PORT_OFFSET + 90), so that other tests' writes cannot hide one.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnStack, type OwnStack } from '../own-stack.ts';
import { fuzzHttp } from './http.ts';

describe('hostile requests to every API call and function', () => {
  let own: OwnStack;
  let pool: pg.Pool;
  beforeAll(async () => {
    own = await startOwnStack(90);
    // The scheduled jobs write on their own (pg_net calls logged in private.edge_function_calls, the
    // seed's notifications sent): stopped, so that every row counted before and after is the requests'.
    await own.stack.scheduler.stop();
    pool = new pg.Pool({ connectionString: own.env.DB_URL, max: 2 });
  }, 240_000);
  afterAll(async () => {
    await pool?.end();
    await own?.stack.stop();
  }, 60_000);

  it('get a 4xx with a message, never a 5xx, and change nothing', async () => {
    const r = await fuzzHttp({ apiUrl: own.env.API_URL, pool, runs: 8 });
    expect(r.changedTables).toEqual([]);
    expect(Object.keys(r.byStatus).filter((s) => Number(s) >= 500)).toEqual([]);
    expect(r.requests).toBeGreaterThan(200);
  }, 240_000);
});
