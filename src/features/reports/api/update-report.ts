import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { removeEvidence, uploadEvidenceImages } from './create-report';
import { reportKeys } from './keys';
import { formToColumns, type ReportFormInput } from './report-form-schema';
import type { ReportRow } from './types';

export interface UpdateReportInput {
  report: Pick<ReportRow, 'id'> & { evidence_paths: string[] };
  values: ReportFormInput;
}

/**
 * Saves an edited report: the kept images in their order, then the new ones; images the user removed
 * are deleted from storage once the report no longer points at them.
 */
export async function updateReport({ report, values }: UpdateReportInput): Promise<void> {
  const added = await uploadEvidenceImages(values.evidence);
  const kept = values.keepEvidence.filter((path) => report.evidence_paths.includes(path));
  const { error } = await supabase
    .from('reports')
    .update({ ...formToColumns(values), evidence_paths: [...kept, ...added] })
    .eq('id', report.id)
    .select('id')
    .single();
  if (error) {
    await removeEvidence(added);
    throw error;
  }
  await removeEvidence(report.evidence_paths.filter((path) => !kept.includes(path))).catch(() => undefined);
}

export function useUpdateReport({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReport,
    onSuccess: async (_data, { report }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reportKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: reportKeys.detail(report.id) }),
        queryClient.invalidateQueries({ queryKey: reportKeys.fullReport(report.id) }),
      ]);
      onSuccess?.();
    },
  });
}
