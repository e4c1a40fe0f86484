import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { statsKeys } from './keys';
import { userStatsSchema, type UserStats } from './user-stats-schema';

export type { UserStats } from './user-stats-schema';

/** The caller's own counts, from rollups kept by triggers (public.user_report_stats). */
export async function getUserStats(): Promise<UserStats> {
  const { data, error } = await supabase.rpc('user_report_stats');
  if (error) throw error;
  return userStatsSchema.parse(data);
}

export function getUserStatsQueryOptions(userId: string | undefined) {
  return queryOptions({
    queryKey: statsKeys.user(userId),
    queryFn: getUserStats,
    enabled: !!userId,
    // Filing, editing or deleting a report changes these counts; ask again on every visit.
    staleTime: 0,
  });
}

export function useUserStats(userId: string | undefined) {
  return useQuery(getUserStatsQueryOptions(userId));
}
