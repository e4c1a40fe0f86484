import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { i18n } from '@/i18n';
import { reportKeys } from './keys';
import { REPORT_CARD_COLUMNS, type ReportRow } from './types';

export type EditableReport = ReportRow & { evidence_paths: string[] };

/**
 * One report the caller may edit (RLS: their own, or any for admins), with all its evidence images
 * (reports.evidence_paths, which the report_cards view does not carry); a missing one is an error.
 */
export async function getReport(id: string): Promise<EditableReport> {
  const [card, images] = await Promise.all([
    supabase.from('report_cards').select(REPORT_CARD_COLUMNS).eq('id', id).maybeSingle(),
    supabase.from('reports').select('evidence_paths').eq('id', id).maybeSingle(),
  ]);
  if (card.error) throw card.error;
  if (images.error) throw images.error;
  if (!card.data) throw new Error(i18n.t('reports.notFound'));
  return { ...(card.data as ReportRow), evidence_paths: images.data?.evidence_paths ?? [] };
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
