import { useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { reportKeys } from './keys';
import { EVIDENCE_BUCKET } from './types';

/** Signed links to private evidence last 10 minutes; the query is fresh for a little less. */
const LINK_SECONDS = 600;

/** A short-lived link to an evidence image the caller may read (storage policies decide). */
export function useEvidenceUrl(path: string | null | undefined) {
  return useQuery({
    queryKey: reportKeys.evidence(path ?? ''),
    queryFn: async () => {
      const { data, error } = await supabase.storage
        .from(EVIDENCE_BUCKET)
        .createSignedUrl(path!, LINK_SECONDS);
      if (error) throw error;
      return data.signedUrl;
    },
    enabled: !!path,
    staleTime: (LINK_SECONDS - 60) * 1000,
  });
}

/** Short-lived links to a report's evidence images, in order (storage policies decide who may read). */
export function useEvidenceUrls(paths: string[] | undefined) {
  const list = paths ?? [];
  return useQuery({
    queryKey: reportKeys.evidenceList(list),
    queryFn: async () => {
      const { data, error } = await supabase.storage
        .from(EVIDENCE_BUCKET)
        .createSignedUrls(list, LINK_SECONDS);
      if (error) throw error;
      return list.map((path) => ({ path, url: data.find((d) => d.path === path)?.signedUrl ?? null }));
    },
    enabled: list.length > 0,
    staleTime: (LINK_SECONDS - 60) * 1000,
  });
}

/**
 * The stored evidence files themselves (for the complaint pack, which hashes them on the device):
 * name and bytes, in order. Storage policies let only the reporter and admins read them.
 */
export async function downloadEvidence(paths: string[]): Promise<{ name: string; blob: Blob }[]> {
  return Promise.all(
    paths.map(async (path) => {
      const { data, error } = await supabase.storage.from(EVIDENCE_BUCKET).download(path);
      if (error) throw error;
      return { name: path.split('/').pop() ?? path, blob: data };
    }),
  );
}
