import { queryOptions, useQuery } from '@tanstack/react-query';
import { takeEarlySearch } from '@/lib/early-search';
import { invokeFunction, readFunctionAnswer } from '@/lib/functions';
import { searchKeys } from './keys';

export type ReportStatusLabel = 'verified' | 'not-verified';

/**
 * One row of the Latest Incident table, as public.search_reports returns it. Anonymous visitors get
 * only the limited columns; the database adds the rest for signed-in users (DESIGN.md section 1:
 * what anon sees is decided in SQL, not by hiding fields here).
 */
export interface SearchReport {
  reported_date: string;
  incident_date: string;
  incident_type: 'scam' | 'hacked' | 'spam';
  reported_account_type: 'mobile' | 'email' | 'ewallet' | 'crypto' | 'website';
  location: string | null;
  status: ReportStatusLabel;
  id?: string;
  reported_account?: string;
  country?: string | null;
  incident_description?: string | null;
  amount_lost?: number | null;
}

export interface SearchSummary {
  count: number;
  last_victim_country: string | null;
  /** 0-100, computed from verified (and a little from pending) reports, newer weighing more. */
  risk_level: number;
  risk_label: 'low' | 'medium' | 'high';
  /** Sum of amounts lost over verified reports. */
  estimated_amount_lost: number;
}

export interface SearchResult {
  count: number;
  /** The newest LATEST_INCIDENT_ROWS (supabase/functions/_shared/limits.ts). */
  reports: SearchReport[];
  summary: SearchSummary;
  /** [lat, lng] of every report with a location, for the heatmap. */
  points: [number, number][];
}

/**
 * Runs (and logs) one search; the database canonicalises the identifier however it was typed. It goes
 * through the `search` edge function, one request, so that the search is logged with the location
 * the server resolves from the caller's address (never one the browser could claim).
 */
export async function searchReports(searchString: string): Promise<SearchResult> {
  const ask = () => invokeFunction<SearchResult>('search', { searchString });
  const early = takeEarlySearch(searchString);
  // A failed early request never reached the function (nothing logged): ask again the usual way.
  const result = early ? await early.then(readFunctionAnswer<SearchResult>, ask) : await ask();
  return {
    ...result,
    summary: { ...result.summary, estimated_amount_lost: Number(result.summary.estimated_amount_lost ?? 0) },
  };
}

export function searchReportsQueryOptions(searchString: string, userId: string | null) {
  return queryOptions({
    queryKey: searchKeys.result(searchString, userId),
    queryFn: () => searchReports(searchString),
    // The results page leaves when the search fails, so the reason is a toast.
    meta: { errorToast: true },
  });
}

export function useSearchReports(
  searchString: string,
  userId: string | null,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    ...searchReportsQueryOptions(searchString, userId),
    enabled: enabled && searchString.trim().length > 0,
  });
}
