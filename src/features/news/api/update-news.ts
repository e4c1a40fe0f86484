import { useMutation, useQueryClient } from '@tanstack/react-query';
import { i18n } from '@/i18n';
import { supabase } from '@/lib/supabase';
import { uploadBanner } from './create-news';
import { newsColumns, type NewsFormInput } from './news-form-schema';
import { newsKeys } from './keys';
import { NEWS_BANNER_BUCKET, type NewsRow } from './types';

export interface UpdateNewsInput {
  news: Pick<NewsRow, 'id' | 'banner_path'>;
  values: NewsFormInput;
}

/**
 * Saves an edited article (RLS: admins only). A new banner is uploaded first: if that fails nothing
 * else happens, and if the row then cannot be saved the new upload is removed again, so the article
 * is either fully updated or left as it was. The old banner goes only once the row points elsewhere
 * (to the new banner, or to none when the admin chose to remove it).
 */
export async function updateNews({ news, values }: UpdateNewsInput): Promise<void> {
  const newBanner = await uploadBanner(values.newsBanner);
  const dropBanner = !newBanner && !!values.removeBanner && !!news.banner_path;
  const banner = newBanner ? { banner_path: newBanner } : dropBanner ? { banner_path: null } : {};
  const { data, error } = await supabase
    .from('news')
    .update({ ...newsColumns(values), ...banner })
    .eq('id', news.id)
    .select('id');
  // RLS hides the row from non-admins, which PostgREST answers with an empty list, not an error.
  const failure = error ?? ((data ?? []).length === 0 ? new Error(i18n.t('news.editor.gone')) : null);
  if (failure) {
    if (newBanner) await supabase.storage.from(NEWS_BANNER_BUCKET).remove([newBanner]);
    throw failure;
  }
  if ((newBanner || dropBanner) && news.banner_path) {
    // Best effort: the article no longer shows the old banner; a leftover file harms nobody.
    await supabase.storage.from(NEWS_BANNER_BUCKET).remove([news.banner_path]);
  }
}

export function useUpdateNews({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNews,
    onSuccess: async () => {
      // The article can be on the home page, in the news list, on its own page and in the admin list.
      await queryClient.invalidateQueries({ queryKey: newsKeys.all });
      onSuccess?.();
    },
  });
}
