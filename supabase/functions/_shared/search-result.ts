/**
 * The JSON that public.search_reports (and search_top_identifier, which runs it) returns: a jsonb, so
 * the generated types say only `Json`. The search functions parse the database's answer with this
 * zod schema, the app parses theirs with it (src/lib/search-result.ts), and
 * supabase/tests/db/jsonb-shapes.test.ts checks it against the real answer for visitors and
 * signed-in users.
 */
import { z } from 'npm:zod@4.6.7';
import { Constants } from './database.types.ts';

const enums = Constants.public.Enums;

/** One row of the Latest Incident table. Anonymous visitors get only the first six fields. */
export const searchReportSchema = z.object({
  reported_date: z.string(),
  incident_date: z.string(),
  incident_type: z.enum(enums.incident_type),
  reported_account_type: z.enum(enums.reported_account_type),
  location: z.string().nullable(),
  status: z.enum(['verified', 'not-verified']),
  id: z.string().optional(),
  reported_account: z.string().optional(),
  country: z.string().nullable().optional(),
  incident_description: z.string().nullable().optional(),
  amount_lost: z.number().nullable().optional(),
});

export const searchSummarySchema = z.object({
  count: z.number().int(),
  last_victim_country: z.string().nullable(),
  /**
   * 0-100, computed from verified (and a little from pending) reports, newer weighing more; never
   * 'high' without a verified report (docs/behaviour.md §10).
   */
  risk_level: z.number().int().min(0).max(100),
  risk_label: z.enum(['low', 'medium', 'high']),
  /** Sum of amounts lost over verified reports, or null while fewer than 5 verified reports give one. */
  estimated_amount_lost: z.number().nullable(),
  verified_count: z.number().int().min(0),
  pending_count: z.number().int().min(0),
  /** What the risk rests on: verified reports, unverified reports only, or nothing. */
  risk_basis: z.enum(['verified', 'unverified_only', 'none']),
  /** "Reported N times, not yet reviewed" when risk_basis is unverified_only, else null. */
  risk_note: z.string().nullable(),
});

export const searchResultSchema = z.object({
  count: z.number().int(),
  /** The newest LATEST_INCIDENT_ROWS (limits.ts). */
  reports: z.array(searchReportSchema),
  summary: searchSummarySchema,
  /** [lat, lng] of every report with a location, for the heatmap. */
  points: z.array(z.tuple([z.number(), z.number()])),
});

export type SearchReport = z.infer<typeof searchReportSchema>;
export type SearchSummary = z.infer<typeof searchSummarySchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type ReportStatusLabel = SearchReport['status'];
