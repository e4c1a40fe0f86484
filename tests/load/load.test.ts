/**
 * The short version of `npm run check:load` for `npm test`: 6 s at 30 searches/s and 6 writes/s against
 * the test stack (the full check runs 200 and 50 for 60 s on a stack of its own). No 5xx, and every
 * write answered 2xx is in the database with its evidence. Rates are not asserted: the test stack
 * shares the machine with the other test files.
 */
import { describe, expect, it } from 'vitest';
import { adminPool, stackEnv } from '../../supabase/tests/helpers.ts';
import { describeLoad, runLoad } from './load.ts';

describe('load: searches and report writes at a fixed rate', () => {
  it('answers without a 5xx and loses no acknowledged write', async () => {
    const env = {
      API_URL: stackEnv('API_URL'),
      ANON_KEY: stackEnv('ANON_KEY'),
      SERVICE_ROLE_KEY: stackEnv('SERVICE_ROLE_KEY'),
    };
    const r = await runLoad({ env, pool: adminPool(), seconds: 6, searchRate: 30, writeRate: 6 });
    const summary = describeLoad(r).join('\n');
    expect(r.fiveXx, summary).toBe(0);
    expect(r.acknowledged, summary).toBeGreaterThan(20);
    expect(r.lost, summary).toEqual([]);
    expect(r.damaged, summary).toEqual([]);
    expect(r.rest.answered + r.api.answered, summary).toBe(180);
  }, 180_000);
});
