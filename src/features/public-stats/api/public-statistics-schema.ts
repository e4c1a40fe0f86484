/**
 * The JSON that public.public_statistics returns (jsonb: the generated types say only `Json`), as a
 * zod schema: the /statistics page parses the answer with it, and supabase/tests/db/jsonb-shapes.test.ts
 * holds it to the real answer. Relative imports only, so the Node tests can import it too.
 */
import { z } from 'zod';
import { Constants } from '../../../types/database.types';

const enums = Constants.public.Enums;
const count = z.number().int().min(0);
/** A calendar day, YYYY-MM-DD. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Counts keyed by every value of an enum, so a value the database adds or drops fails the parse. */
function countsOf<const K extends readonly [string, ...string[]]>(keys: K) {
  return z.object(Object.fromEntries(keys.map((k) => [k, count])) as { [P in K[number]]: typeof count });
}

export const STATS_PERIODS = ['last_30_days', 'last_12_months', 'all_time'] as const;
export const INCIDENT_TYPES = enums.incident_type;
export const ACCOUNT_TYPES = enums.reported_account_type;

/** One week (its Monday) or month (its first day) of the series; empty periods are there as 0. */
export const statsPeriodRowSchema = z.object({
  period: day,
  total: count,
  by_incident_type: countsOf(INCIDENT_TYPES),
  by_account_type: countsOf(ACCOUNT_TYPES),
  by_status: countsOf(['verified', 'pending']),
});

export const publicStatisticsSchema = z.object({
  period: z.enum(STATS_PERIODS),
  from: day,
  to: day,
  generated_at: z.string(),
  /** Counts from 1 to this minus 1 are hidden (null with fewer_than_5). */
  small_count_threshold: z.number().int(),
  /** amount_lost: the sum over at least 5 verified reports that give one, else null (issue 27). */
  totals: z.object({
    reports: count,
    verified: count,
    pending: count,
    amount_lost: z.number().nullable(),
    amount_fewer_than_5: z.boolean(),
  }),
  weekly: z.array(statsPeriodRowSchema),
  monthly: z.array(statsPeriodRowSchema),
  /**
   * Per month, verified reports only: total and median are null when 1 to 4 verified reports of the
   * month gave an amount (fewer_than_5).
   */
  amounts: z.array(
    z.object({
      month: day,
      total: z.number().nullable(),
      median: z.number().nullable(),
      reports_with_amount: count,
      fewer_than_5: z.boolean(),
    }),
  ),
  /** Every region of the Philippines; count is null (fewer_than_5) for 1 to 4 reports. */
  regions: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      lat: z.number(),
      lng: z.number(),
      count: count.nullable(),
      fewer_than_5: z.boolean(),
    }),
  ),
  top_identifiers: z.array(
    z.object({
      rank: z.number().int().min(1),
      /** Phone numbers, e-mails and e-wallets partly masked. */
      identifier: z.string(),
      masked: z.boolean(),
      /** The value to search for, or null for masked identifiers (searched through ref). */
      search: z.string().nullable(),
      ref: z.uuid(),
      reported_account_type: z.enum(ACCOUNT_TYPES),
      verified_reports: count,
    }),
  ),
  top_identifiers_refreshed_at: z.string().nullable(),
});

export type StatsPeriod = (typeof STATS_PERIODS)[number];
export type StatsPeriodRow = z.infer<typeof statsPeriodRowSchema>;
export type PublicStatistics = z.infer<typeof publicStatisticsSchema>;
