import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { z } from 'zod';
import { appStatsSchema } from './app-stats-schema';
import { adminKeys } from './keys';

/** docs/behaviour.md §3's admin stats: contact inbox, verified reports and the site totals. */
export type AppStats = z.output<typeof appStatsSchema> & {
  /** Reports waiting for review (not one of the rollups: an exact count over the pending index). */
  pendingReports: number;
};

/** public.admin_app_stats refuses anyone but admins (42501), whatever the page shows. */
export async function getAppStats(): Promise<AppStats> {
  const [{ data, error }, pending] = await Promise.all([
    supabase.rpc('admin_app_stats'),
    supabase.from('reports').select('id', { count: 'exact', head: true }).eq('status', 'pending'),
  ]);
  if (error) throw error;
  if (pending.error) throw pending.error;
  return { ...appStatsSchema.parse(data), pendingReports: pending.count ?? 0 };
}

export function getAppStatsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.stats(), queryFn: getAppStats, staleTime: 0 });
}

export function useAppStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAppStatsQueryOptions(), enabled });
}
