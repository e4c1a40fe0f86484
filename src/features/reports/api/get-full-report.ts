import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { i18n } from '@/i18n';
import { reportKeys } from './keys';
import { EVIDENCE_BUCKET } from './types';

/** public.report_details: a visible report in full, without its reporter (signed-in users only). */
export interface FullReport {
  id: string;
  reported_date: string;
  incident_date: string;
  incident_type: string;
  reported_account_type: string;
  reported_account: string;
  location: string | null;
  country: string | null;
  incident_description: string | null;
  amount_lost: number | string | null;
  source: string | null;
  status: 'verified' | 'not-verified';
  reported_case_count: number;
  /** Short-lived links to the evidence images, only for the reporter and admins. */
  evidenceUrls: string[];
}

/** Signed links to private evidence last this long; the dialog asks again when reopened. */
const EVIDENCE_LINK_SECONDS = 600;

export async function getFullReport(id: string): Promise<FullReport> {
  const { data, error } = await supabase.rpc('report_details', { report_id: id });
  if (error) throw error;
  if (!data) throw new Error(i18n.t('reports.full.notAvailable'));
  // Evidence stays private: RLS shows evidence_path only to the reporter and admins, and storage
  // policies sign only their links. Everyone else gets no row here, hence no image.
  const own = await supabase.from('reports').select('evidence_paths').eq('id', id).maybeSingle();
  const paths = own.data?.evidence_paths ?? [];
  let evidenceUrls: string[] = [];
  if (paths.length) {
    const signed = await supabase.storage
      .from(EVIDENCE_BUCKET)
      .createSignedUrls(paths, EVIDENCE_LINK_SECONDS);
    evidenceUrls = (signed.data ?? []).flatMap((s) => (s.signedUrl ? [s.signedUrl] : []));
  }
  return { ...(data as Omit<FullReport, 'evidenceUrls'>), evidenceUrls };
}

export function getFullReportQueryOptions(id: string) {
  return queryOptions({
    queryKey: reportKeys.fullReport(id),
    queryFn: () => getFullReport(id),
    staleTime: 60_000,
  });
}

export function useFullReport(id: string | null) {
  return useQuery({ ...getFullReportQueryOptions(id ?? ''), enabled: !!id });
}
