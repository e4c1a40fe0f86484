import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';

/** Owners' statements for admins (RLS: admins read every statement), newest first (issue 32). */
export interface AdminStatement {
  id: string;
  identifier_canonical: string;
  body: string;
  updated_at: string;
  hidden_at: string | null;
  hidden_reason: string | null;
}

const key = ['admin', 'owner-statements'] as const;

export function useAdminStatements(filter: 'all' | 'shown' | 'hidden') {
  return useQuery({
    queryKey: [...key, filter],
    queryFn: async (): Promise<AdminStatement[]> => {
      let q = supabase
        .from('owner_statements')
        .select('id, identifier_canonical, body, updated_at, hidden_at, hidden_reason')
        .order('updated_at', { ascending: false })
        .limit(100);
      if (filter === 'shown') q = q.is('hidden_at', null);
      if (filter === 'hidden') q = q.not('hidden_at', 'is', null);
      const { data, error } = await q;
      if (error) throw error;
      return data;
    },
  });
}

export function useHideStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { id: string; reason: string }) => {
      const { error } = await supabase.rpc('hide_owner_statement', {
        statement_id: v.id,
        reason: v.reason.trim(),
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useUnhideStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await supabase.rpc('unhide_owner_statement', { statement_id: id });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
