import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/errors';
import { serverCodeOf, translateServerError } from '@/lib/server-errors';
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

/** Removes stored evidence images, best effort (a leftover file harms nobody and the cleanup finds it). */
export async function removeEvidence(paths: string[]): Promise<void> {
  if (paths.length) await supabase.storage.from(EVIDENCE_BUCKET).remove(paths);
}

/**
 * Uploads the images in order, one after the other (each is at most 500,000 bytes; a phone's uplink
 * is the limit, not the requests). If one is refused, the ones already stored are removed again.
 */
export async function uploadEvidenceImages(files: File[]): Promise<string[]> {
  const stored: string[] = [];
  try {
    for (const file of files) stored.push(await uploadEvidence(file));
  } catch (e) {
    await removeEvidence(stored).catch(() => undefined);
    throw e;
  }
  return stored;
}

/**
 * Files a report: evidence first (so the row never points at a missing file), then the row. The
 * database sets the reporter, the pending status and the canonical identifier itself; the server then
 * sets the location from the caller's address (locateReport: the browser never sends one).
 */
export async function createReport({
  values,
  userId,
}: CreateReportInput): Promise<{ id: string; evidencePaths: string[] }> {
  const evidencePaths = await uploadEvidenceImages(values.evidence);
  const row = {
    ...formToColumns(values),
    reporter_id: userId,
    // The database keeps evidence_path (the legacy API's one image) equal to the first of these.
    evidence_paths: evidencePaths,
    source: 'dashboard',
  } satisfies FilledByDatabase<'reports', 'reported_account_canonical'>;
  const { data, error } = await supabase
    .from('reports')
    .insert(row as TablesInsert<'reports'>)
    .select('id')
    .single();
  if (error) {
    // Do not leave an orphaned image behind a report that was refused.
    await removeEvidence(evidencePaths);
    throw error;
  }
  const { id } = data;
  await locateReport(id);
  return { id, evidencePaths };
}

/**
 * The database's answer to a second report on the same identifier (409, hint code `report_duplicate`
 * with the existing report's id): the report to edit instead.
 */
export interface DuplicateReport {
  message: string;
  reportId: string;
}

export function duplicateReportOf(error: unknown): DuplicateReport | null {
  const found = serverCodeOf(error);
  if (found?.code !== 'report_duplicate' || typeof found.params.report_id !== 'string') return null;
  const message = translateServerError(error);
  return message ? { message, reportId: found.params.report_id } : null;
}

export function useCreateReport({
  onSuccess,
}: { onSuccess?: (report: { id: string; evidencePaths: string[] }) => void } = {}) {
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
