import type { QueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { i18n } from '@/i18n';
import { reportKeys } from './keys';
import { EVIDENCE_BUCKET } from './types';

/**
 * Deletes a report (RLS: the reporter's own, or any for admins) and then its evidence images. Used by
 * the /dashboard/delete-report/:id route action, which the cards' delete buttons post to.
 */
export async function deleteReport(id: string): Promise<void> {
  const { data, error } = await supabase.from('reports').delete().eq('id', id).select('id, evidence_paths');
  if (error) throw error;
  const deleted = data ?? [];
  if (deleted.length === 0) throw new Error(i18n.t('reports.delete.notYours'));
  const evidence = deleted[0].evidence_paths;
  if (evidence.length) await supabase.storage.from(EVIDENCE_BUCKET).remove(evidence);
}

export async function deleteReportAndRefresh(queryClient: QueryClient, id: string) {
  await deleteReport(id);
  queryClient.removeQueries({ queryKey: reportKeys.detail(id) });
  await queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
}
