/**
 * public.range_lookup answers verified identifiers only, with the risk of their verified reports alone
 * (issue 27): the values and labels at the documented reference points, hand-computed, so a changed
 * constant there is caught (check:sql-mutation). The route around it is tested in
 * supabase/tests/functions/range.test.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DENIED, anon, createUser, fileReport, run, serviceRole, verifiedAged } from './actors.ts';
import { adminPool } from '../helpers.ts';

interface RangeEntry {
  suffix: string;
  count: number;
  risk_level: number;
  risk_label: string;
}

/** The entry range_lookup answers for one mobile number typed the local way ('0918...'). */
async function lookUp(number: string): Promise<RangeEntry | undefined> {
  const canonical = `+63${number.slice(1)}`;
  const hash = createHash('sha256').update(canonical, 'utf8').digest('hex');
  const [{ entries }] = await run<{ entries: RangeEntry[] }>(
    serviceRole,
    'select public.range_lookup($1) as entries',
    [hash.slice(0, 5)],
  );
  return entries.find((e) => e.suffix === hash.slice(5));
}

describe('holds on: postgres — range_lookup risk', () => {
  it('gives the hand-computed risk: one fresh verified report 39, and the 24/25 and 59/60 label edges', async () => {
    const numbers = [
      await verifiedAged([0]), // w = 1: 100 * (1 - exp(-0.5)) = 39.35
      await verifiedAged([152]), // w = 0.5^(152/180) = 0.5569 -> 24.31
      await verifiedAged([144]), // w = 0.5743 -> 24.96
      await verifiedAged([30, 30]), // w = 2 * 0.8909 = 1.7818 -> 58.97
      await verifiedAged([22, 22]), // w = 2 * 0.9188 = 1.8375 -> 60.10
    ];
    const entries = [];
    for (const n of numbers) entries.push(await lookUp(n));
    expect(entries.map((e) => e && [e.suffix.length, e.count, e.risk_level, e.risk_label])).toEqual([
      [59, 1, 39, 'medium'],
      [59, 1, 24, 'low'],
      [59, 1, 25, 'medium'],
      [59, 2, 59, 'medium'],
      [59, 2, 60, 'high'],
    ]);
  });

  it('lists verified identifiers only (issue 27): pending-only ones are absent, pending ones neither counted nor weighed', async () => {
    const pendingOnly = `0918${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    for (let i = 0; i < 3; i++)
      await fileReport(await createUser('Pending reporter'), { reported_account: pendingOnly });
    expect(await lookUp(pendingOnly)).toBeUndefined();

    const mixed = await verifiedAged([0]);
    for (let i = 0; i < 4; i++)
      await fileReport(await createUser('Pending reporter'), { reported_account: mixed });
    const { rows } = await adminPool().query(
      `select count(*)::int as n from public.reports where reported_account_canonical = $1 and status = 'pending'`,
      [`+63${mixed.slice(1)}`],
    );
    expect(rows[0].n).toBe(4);
    // The one verified report alone: count 1, 39 medium, as if the four pending ones were not there.
    expect(await lookUp(mixed)).toMatchObject({ count: 1, risk_level: 39, risk_label: 'medium' });
  });

  it('is for the service role only', async () => {
    const user = await createUser('Range caller');
    for (const actor of [anon, user])
      await expect(run(actor, "select public.range_lookup('00000')")).rejects.toThrow(DENIED);
  });
});
