import { useMutation, useQueryClient } from '@tanstack/react-query';
import { i18n } from '@/i18n';
import { supabase } from '@/lib/supabase';
import { newsKeys } from './keys';
import { NEWS_BANNER_BUCKET } from './types';

/**
 * Deletes an article (RLS: admins only), then its banner. The row goes first: a banner left behind by
 * a failed removal is invisible, while a row whose banner vanished would show a broken picture.
 */
export async function deleteNews(id: string): Promise<void> {
  const { data, error } = await supabase.from('news').delete().eq('id', id).select('id, banner_path');
  if (error) throw error;
  const deleted = data ?? [];
  if (deleted.length === 0) throw new Error(i18n.t('news.delete.gone'));
  const banner = deleted[0].banner_path;
  if (banner) await supabase.storage.from(NEWS_BANNER_BUCKET).remove([banner]);
}

export function useDeleteNews({ onSuccess }: { onSuccess?: (id: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNews,
    onSuccess: async (_data, id) => {
      await queryClient.invalidateQueries({ queryKey: newsKeys.all });
      onSuccess?.(id);
    },
  });
}
