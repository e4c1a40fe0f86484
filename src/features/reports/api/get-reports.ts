import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { reportKeys } from './keys';
import { REPORT_CARD_COLUMNS, type ReportRow } from './types';

/**
 * The user's own reports, newest first. report_cards is a security-invoker view, so RLS applies; the
 * reporter filter matters for admins, who may read everyone's reports but list only their own here.
 */
export async function getReports(userId: string): Promise<ReportRow[]> {
  const { data, error } = await supabase
    .from('report_cards')
    .select(REPORT_CARD_COLUMNS)
    .eq('reporter_id', userId)
    .order('created_at', { ascending: false })
    .limit(500);
  if (error) throw error;
  return (data ?? []) as ReportRow[];
}

export function getReportsQueryOptions(userId: string | undefined) {
  return queryOptions({
    queryKey: reportKeys.list(userId),
    queryFn: () => getReports(userId!),
    enabled: !!userId,
    // A failed list load is a toast (docs/behaviour.md).
    meta: { errorToast: true },
  });
}

export function useReports(userId: string | undefined) {
  return useQuery(getReportsQueryOptions(userId));
}
