import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { statsKeys } from './keys';

/** SPEC.md section 3: defaultStats {scam, hacked, spam} and monthlyApplications [{date, count}]. */
export interface UserStats {
  defaultStats: { scam: number; hacked: number; spam: number };
  monthlyApplications: { date: string; count: number }[];
}

/** The caller's own counts, from rollups kept by triggers (public.user_report_stats). */
export async function getUserStats(): Promise<UserStats> {
  const { data, error } = await supabase.rpc('user_report_stats');
  if (error) throw error;
  const stats = data as UserStats;
  return {
    defaultStats: {
      scam: Number(stats.defaultStats?.scam ?? 0),
      hacked: Number(stats.defaultStats?.hacked ?? 0),
      spam: Number(stats.defaultStats?.spam ?? 0),
    },
    monthlyApplications: (stats.monthlyApplications ?? []).map((m) => ({
      date: m.date,
      count: Number(m.count),
    })),
  };
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
