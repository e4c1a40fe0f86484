/**
 * The crash test's short version for `npm test` (3 rounds; `npm run check:crash` runs 20): Postgres
 * killed with SIGKILL while reports with evidence are filed; nothing answered 2xx may be lost.
 * Ports: the test stack's offset + 80.
 */
import { describe, expect, it } from 'vitest';
import { runCrashTest } from './crash.ts';

describe('a durable local database under SIGKILL', () => {
  it('keeps every report it acknowledged, whole and with its evidence', async () => {
    const r = await runCrashTest({ rounds: 3, writers: 3 });
    expect(r.acknowledged).toBeGreaterThan(10);
    expect(r.lost).toEqual([]);
    expect(r.damaged).toEqual([]);
    expect(r.dangling).toBe(0);
  }, 300_000);
});
