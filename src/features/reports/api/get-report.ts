import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { i18n } from '@/i18n';
import { reportKeys } from './keys';
import { REPORT_CARD_COLUMNS, type ReportRow } from './types';

/** One report the caller may edit (RLS: their own, or any for admins); a missing one is an error. */
export async function getReport(id: string): Promise<ReportRow> {
  const { data, error } = await supabase
    .from('report_cards')
    .select(REPORT_CARD_COLUMNS)
    .eq('id', id)
    .maybeSingle();
  if (error) throw error;
  if (!data) throw new Error(i18n.t('reports.notFound'));
  return data as ReportRow;
}

export function getReportQueryOptions(id: string) {
  // The edit page leaves when the report cannot be loaded, so the reason is a toast.
  return queryOptions({
    queryKey: reportKeys.detail(id),
    queryFn: () => getReport(id),
    meta: { errorToast: true },
  });
}

export function useReport(id: string) {
  return useQuery(getReportQueryOptions(id));
}
