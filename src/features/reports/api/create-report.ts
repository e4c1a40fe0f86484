import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/errors';
import { translateServerMessage } from '@/lib/server-errors';
import { uploadImage } from '@/lib/image-file';
import { supabase } from '@/lib/supabase';
import type { FilledByDatabase } from '@/types/db';
import type { TablesInsert } from '@/types/database.types';
import { reportKeys } from './keys';
import { formToColumns, type ReportFormInput } from './report-form-schema';
import { EVIDENCE_BUCKET } from './types';
import { locateReport } from './locate-report';

export interface CreateReportInput {
  values: ReportFormInput;
  userId: string;
}

/** Uploads evidence (checked and cleaned by the upload-image function) into the reporter's own folder. */
export function uploadEvidence(file: File): Promise<string> {
  return uploadImage(EVIDENCE_BUCKET, file);
}

/**
 * Files a report: evidence first (so the row never points at a missing file), then the row. The
 * database sets the reporter, the pending status and the canonical identifier itself; the server then
 * sets the location from the caller's address (locateReport: the browser never sends one).
 */
export async function createReport({ values, userId }: CreateReportInput): Promise<{ id: string }> {
  const evidencePath = values.evidence ? await uploadEvidence(values.evidence) : null;
  const row = {
    ...formToColumns(values),
    reporter_id: userId,
    evidence_path: evidencePath,
    source: 'dashboard',
  } satisfies FilledByDatabase<'reports', 'reported_account_canonical'>;
  const { data, error } = await supabase
    .from('reports')
    .insert(row as TablesInsert<'reports'>)
    .select('id')
    .single();
  if (error) {
    // Do not leave an orphaned image behind a report that was refused.
    if (evidencePath) await supabase.storage.from(EVIDENCE_BUCKET).remove([evidencePath]);
    throw error;
  }
  await locateReport((data as { id: string }).id);
  return data as { id: string };
}

/** The database's answer to a second report on the same identifier (409, code PT409): the report to edit instead. */
export interface DuplicateReport {
  message: string;
  reportId: string;
}

export function duplicateReportOf(error: unknown): DuplicateReport | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { code?: unknown; message?: unknown; details?: unknown };
  if (e.code !== 'PT409' || typeof e.details !== 'string' || typeof e.message !== 'string') return null;
  const id = /existing_report_id=([0-9a-f-]{36})/.exec(e.details)?.[1];
  // The server words it in English; the notice reads in the reader's language.
  return id ? { message: translateServerMessage(e.message), reportId: id } : null;
}

export function useCreateReport({ onSuccess }: { onSuccess?: (report: { id: string }) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReport,
    onSuccess: async (report) => {
      await queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
      onSuccess?.(report);
    },
    // A duplicate is shown on the page with a link to the existing report, not as a passing toast.
    meta: { errorToast: (error) => (duplicateReportOf(error) ? null : errorMessage(error)) },
  });
}
