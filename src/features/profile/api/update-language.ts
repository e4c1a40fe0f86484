import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileKeys } from '@/lib/auth';
import type { Language } from '@/i18n';
import { loadSupabase } from '@/lib/load-supabase';

/**
 * Keeps the user's language in their profile (RLS: one's own row), so the e-mails they receive are
 * written in it; the database copies it to the metadata the Auth e-mails read.
 */
export async function updateLanguage({ userId, language }: { userId: string; language: Language }) {
  // Loaded on demand: this module is part of every page's first load (the app provider syncs the language).
  const supabase = await loadSupabase();
  const { error } = await supabase.from('profiles').update({ language }).eq('id', userId);
  if (error) throw error;
}

export function useUpdateLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLanguage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
