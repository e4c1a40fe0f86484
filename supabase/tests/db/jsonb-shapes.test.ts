/**
 * The SQL entry points that return jsonb are typed only as `Json` by the generator; the app parses
 * them with zod schemas kept beside its API code. These tests hold those schemas to the real answers
 * (strict, so a key the database adds or drops fails here), for visitors and signed-in users.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anon, createUser, fileReport, run, setStatus, type Actor } from './actors.ts';
import { searchResultSchema } from '../../functions/_shared/search-result.ts';
import { lookupRowsSchema } from '../../functions/_shared/check-message.ts';
import {
  publicStatisticsSchema,
  STATS_PERIODS,
} from '../../../src/features/public-stats/api/public-statistics-schema.ts';
import { userStatsSchema } from '../../../src/features/stats/api/user-stats-schema.ts';
import { appStatsSchema } from '../../../src/features/admin/api/app-stats-schema.ts';

let owner: Actor;
let admin: Actor;
let mobile: string;

async function rpc(actor: Actor, sql: string, params: unknown[] = []): Promise<unknown> {
  const [{ r }] = await run<{ r: unknown }>(actor, `select ${sql} as r`, params);
  return r;
}

beforeAll(async () => {
  [owner, admin] = await Promise.all([createUser('Shapes'), createUser('Shapes Admin', { admin: true })]);
  mobile = `0917${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const verified = await fileReport(owner, { reported_account: mobile, amount_lost: 1234.5 });
  await setStatus(verified.id, 'verified');
  await fileReport(owner, { reported_account: mobile, loc: null, location: null, incident_type: 'spam' });
});

describe('jsonb answers match the app’s schemas', () => {
  it('search_reports, for a visitor (limited columns) and a signed-in user (all of them)', async () => {
    for (const actor of [anon, owner]) {
      const answer = await rpc(actor, 'public.search_reports($1)', [mobile]);
      const parsed = searchResultSchema.strict().parse(answer);
      expect(parsed.count).toBe(2);
      // One verified amount is one victim's: shown only as a sum of 5 or more (issue 27).
      expect(parsed.summary.estimated_amount_lost).toBeNull();
      for (const report of (answer as { reports: object[] }).reports) {
        expect(() => searchResultSchema.shape.reports.element.strict().parse(report)).not.toThrow();
        expect('id' in report).toBe(actor !== anon);
      }
    }
    // An identifier nobody reported: empty lists and a null country still fit.
    const none = searchResultSchema.parse(
      await rpc(anon, 'public.search_reports($1)', ['never-reported.example']),
    );
    expect(none).toMatchObject({ count: 0, reports: [], points: [] });
  });

  it('public_statistics, for every period', async () => {
    for (const period of STATS_PERIODS) {
      const answer = await rpc(anon, 'public.public_statistics($1)', [period]);
      const strict = publicStatisticsSchema.strict().extend({
        totals: publicStatisticsSchema.shape.totals.strict(),
      });
      const parsed = strict.parse(answer);
      expect(parsed.period).toBe(period);
      expect(parsed.totals.reports).toBeGreaterThanOrEqual(2);
      const shapes = publicStatisticsSchema.shape;
      const strictRow = shapes.weekly.element.strict().extend({
        by_incident_type: shapes.weekly.element.shape.by_incident_type.strict(),
        by_account_type: shapes.weekly.element.shape.by_account_type.strict(),
        by_status: shapes.weekly.element.shape.by_status.strict(),
      });
      for (const row of [...parsed.weekly, ...parsed.monthly]) strictRow.parse(row);
      for (const a of parsed.amounts) shapes.amounts.element.strict().parse(a);
      for (const r of parsed.regions) shapes.regions.element.strict().parse(r);
      for (const t of parsed.top_identifiers) shapes.top_identifiers.element.strict().parse(t);
      expect(parsed.regions.length).toBeGreaterThan(0);
    }
  });

  it('search_top_identifier has search_reports’ shape', async () => {
    // The verified report filed above is within the last 30 days, so the refreshed list is not empty.
    await run({ ...admin, claims: { role: 'service_role' } }, 'select public.refresh_public_statistics()');
    const stats = publicStatisticsSchema.parse(await rpc(anon, "public.public_statistics('last_30_days')"));
    const first = stats.top_identifiers[0];
    expect(first).toBeDefined();
    for (const actor of [anon, owner]) {
      const answer = await rpc(actor, 'public.search_top_identifier($1)', [first.ref]);
      const parsed = searchResultSchema.strict().parse(answer);
      expect(parsed.count).toBeGreaterThanOrEqual(first.verified_reports);
      for (const report of (answer as { reports: object[] }).reports) {
        expect(() => searchResultSchema.shape.reports.element.strict().parse(report)).not.toThrow();
        expect('id' in report).toBe(actor !== anon);
      }
    }
  });

  it('check_identifiers, one row per identifier asked', async () => {
    const answer = await rpc(anon, 'public.check_identifiers($1::jsonb)', [
      JSON.stringify([
        { type: 'mobile', value: mobile },
        { type: 'website', value: 'never-reported.example' },
      ]),
    ]);
    const rows = z.array(lookupRowsSchema.element.strict()).parse(answer);
    expect(rows.map((r) => [r.type, r.count])).toEqual([
      ['mobile', 2],
      ['website', 0],
    ]);
  });

  it('user_report_stats and admin_app_stats', async () => {
    const stats = userStatsSchema.strict().parse(await rpc(owner, 'public.user_report_stats()'));
    expect(stats.defaultStats).toEqual({ scam: 1, hacked: 0, spam: 1 });
    expect(stats.monthlyApplications.reduce((n, m) => n + m.count, 0)).toBe(2);
    const app = appStatsSchema.strict().parse(await rpc(admin, 'public.admin_app_stats()'));
    expect(app.reports).toBeGreaterThanOrEqual(2);
  });
});
