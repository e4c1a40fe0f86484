import { queryOptions, useQuery } from '@tanstack/react-query';
// Loaded with the query, not with the page: the page's text (its largest paint, Lighthouse) then renders
// once the route's own small chunk is in, while supabase-js (~53 KB gzipped) downloads beside the call.
import { loadSupabase } from '@/lib/load-supabase';
import { publicStatsKeys } from './keys';
import { publicStatisticsSchema, type PublicStatistics, type StatsPeriod } from './public-statistics-schema';

export {
  ACCOUNT_TYPES,
  INCIDENT_TYPES,
  type PublicStatistics,
  type StatsPeriod,
  type StatsPeriodRow,
} from './public-statistics-schema';

/** The /statistics page's figures: one call to public.public_statistics, which reads rollups only. */
export async function getPublicStatistics(period: StatsPeriod): Promise<PublicStatistics> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.rpc('public_statistics', { period });
  if (error) throw error;
  return publicStatisticsSchema.parse(data);
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
