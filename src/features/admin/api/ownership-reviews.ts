import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/types/database.types';

/**
 * Owners' evidence for social account proofs, for admins (RLS: admins read all evidence and every
 * proof), oldest waiting first or newest decided first (issue 32, docs/right-of-reply.md).
 */
export type ReviewEvidence = Pick<
  Tables<'ownership_evidence'>,
  | 'id'
  | 'user_id'
  | 'profile_url'
  | 'image_path'
  | 'note'
  | 'created_at'
  | 'decision'
  | 'decided_at'
  | 'reason'
> & {
  proof: Pick<Tables<'ownership_proofs'>, 'identifier_canonical' | 'challenge'> | null;
};

const key = ['admin', 'ownership-reviews'] as const;

export function useReviewEvidence(filter: 'waiting' | 'decided') {
  return useQuery({
    queryKey: [...key, filter],
    queryFn: async (): Promise<ReviewEvidence[]> => {
      let q = supabase
        .from('ownership_evidence')
        .select(
          'id, user_id, profile_url, image_path, note, created_at, decision, decided_at, reason, proof:ownership_proofs(identifier_canonical, challenge)',
        )
        .limit(100);
      q =
        filter === 'waiting'
          ? q.is('decision', null).order('created_at', { ascending: true })
          : q.not('decision', 'is', null).order('decided_at', { ascending: false });
      const { data, error } = await q;
      if (error) throw error;
      return data as ReviewEvidence[];
    },
  });
}

/** A short-lived link to a screenshot in the private evidence bucket (admins may read it). */
export function useScreenshotUrl(path: string | null) {
  return useQuery({
    queryKey: [...key, 'screenshot', path],
    enabled: !!path,
    staleTime: 50_000,
    queryFn: async () => {
      const { data, error } = await supabase.storage.from('evidence').createSignedUrl(path!, 60);
      if (error) throw error;
      return data.signedUrl;
    },
  });
}

export function useDecideEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { id: string; approve: boolean; reason?: string }) => {
      const { error } = await supabase.rpc('decide_ownership_evidence', {
        evidence_id: v.id,
        approve: v.approve,
        reason: v.reason?.trim() || undefined,
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
