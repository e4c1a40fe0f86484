import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { uploadEvidence } from './create-report';
import { reportKeys } from './keys';
import { formToColumns, type ReportFormInput } from './report-form-schema';
import { EVIDENCE_BUCKET, type ReportRow } from './types';

export interface UpdateReportInput {
  report: Pick<ReportRow, 'id' | 'evidence_path'>;
  values: ReportFormInput;
}

/** Saves an edited report; a new evidence image replaces the old one, which is then deleted. */
export async function updateReport({ report, values }: UpdateReportInput): Promise<void> {
  const newEvidence = values.evidence ? await uploadEvidence(values.evidence) : null;
  const { error } = await supabase
    .from('reports')
    .update({ ...formToColumns(values), ...(newEvidence ? { evidence_path: newEvidence } : {}) })
    .eq('id', report.id)
    .select('id')
    .single();
  if (error) {
    if (newEvidence) await supabase.storage.from(EVIDENCE_BUCKET).remove([newEvidence]);
    throw error;
  }
  if (newEvidence && report.evidence_path) {
    // Best effort: the report already points at the new image; a leftover file harms nobody.
    await supabase.storage.from(EVIDENCE_BUCKET).remove([report.evidence_path]);
  }
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
