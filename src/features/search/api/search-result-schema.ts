/**
 * The JSON that public.search_reports returns (a jsonb, so the generated types say only `Json`), as a
 * zod schema: the app parses the search function's answer with it, and a database test checks it
 * against the real answer for visitors and signed-in users. Relative imports only, so the Node tests
 * can import it too.
 */
import { z } from 'zod';
import { Constants } from '../../../types/database.types';

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
  /** 0-100, computed from verified (and a little from pending) reports, newer weighing more. */
  risk_level: z.number().int().min(0).max(100),
  risk_label: z.enum(['low', 'medium', 'high']),
  /** Sum of amounts lost over verified reports. */
  estimated_amount_lost: z.number(),
});

export const searchResultSchema = z.object({
  count: z.number().int(),
  /** The newest LATEST_INCIDENT_ROWS (supabase/functions/_shared/limits.ts). */
  reports: z.array(searchReportSchema),
  summary: searchSummarySchema,
  /** [lat, lng] of every report with a location, for the heatmap. */
  points: z.array(z.tuple([z.number(), z.number()])),
});

export type SearchReport = z.infer<typeof searchReportSchema>;
export type SearchSummary = z.infer<typeof searchSummarySchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type ReportStatusLabel = SearchReport['status'];
