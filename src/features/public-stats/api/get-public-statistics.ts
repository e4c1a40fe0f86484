import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { publicStatsKeys, type StatsPeriod } from './keys';

export const INCIDENT_TYPES = ['scam', 'hacked', 'spam'] as const;
export const ACCOUNT_TYPES = ['mobile', 'email', 'ewallet', 'crypto', 'website'] as const;

export interface StatsPeriodRow {
  /** First day of the ISO week (Monday) or month, YYYY-MM-DD. */
  period: string;
  total: number;
  by_incident_type: Record<(typeof INCIDENT_TYPES)[number], number>;
  by_account_type: Record<(typeof ACCOUNT_TYPES)[number], number>;
  by_status: { verified: number; pending: number };
}

export interface PublicStatistics {
  period: StatsPeriod;
  from: string;
  to: string;
  generated_at: string;
  totals: { reports: number; verified: number; pending: number; amount_lost: number };
  weekly: StatsPeriodRow[];
  monthly: StatsPeriodRow[];
  /** Per month; median is null when fewer than 5 reports of the month gave an amount. */
  amounts: {
    month: string;
    total: number;
    median: number | null;
    reports_with_amount: number;
    fewer_than_5: boolean;
  }[];
  /** Every region of the Philippines; count is null (fewer_than_5) for 1 to 4 reports. */
  regions: {
    code: string;
    name: string;
    lat: number;
    lng: number;
    count: number | null;
    fewer_than_5: boolean;
  }[];
  top_identifiers: {
    rank: number;
    /** Phone numbers and e-mails partly masked. */
    identifier: string;
    masked: boolean;
    /** The value to search for, or null for masked identifiers (searched through ref). */
    search: string | null;
    ref: string;
    reported_account_type: (typeof ACCOUNT_TYPES)[number];
    verified_reports: number;
  }[];
  top_identifiers_refreshed_at: string | null;
}

/** The /statistics page's figures: one call to public.public_statistics, which reads rollups only. */
export async function getPublicStatistics(period: StatsPeriod): Promise<PublicStatistics> {
  const { data, error } = await supabase.rpc('public_statistics', { period });
  if (error) throw error;
  return data as unknown as PublicStatistics;
}

export function getPublicStatisticsQueryOptions(period: StatsPeriod) {
  return queryOptions({
    queryKey: publicStatsKeys.period(period),
    queryFn: () => getPublicStatistics(period),
    // The rollups move with every report, but nobody needs this page to the second.
    staleTime: 60_000,
  });
}

export function usePublicStatistics(period: StatsPeriod) {
  return useQuery(getPublicStatisticsQueryOptions(period));
}
