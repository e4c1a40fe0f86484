/**
 * The short version of `npm run check:fuzz` for the canonical identifier rules (300 runs per property
 * on the test stack; the full run does 10k): never throws, idempotent, TypeScript = SQL.
 */
import { describe, expect, it } from 'vitest';
import { adminPool } from '../../supabase/tests/helpers.ts';
import { fuzzCanonical } from './canonical.ts';

describe('canonical identifiers under fuzzing', () => {
  it('TypeScript and SQL agree, never throw and are idempotent on 300 generated inputs', async () => {
    // A fixed seed, so CI answers the same on every run (FUZZ_SEED tries another); `npm run check:fuzz`
    // draws a new seed each time and is where new counterexamples are looked for.
    const seed = Number(process.env.FUZZ_SEED ?? 20261128);
    const r = await fuzzCanonical({ pool: adminPool(), runs: 300, seed });
    expect(r.runs).toBe(300);
    // Only letters newer than one side's Unicode tables are left out (55 with Node 20's ICU and Postgres 17).
    expect(r.unicodeVersionGap.length).toBeLessThan(200);
  }, 120_000);
});
