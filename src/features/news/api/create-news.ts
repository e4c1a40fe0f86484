import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadImage } from '@/lib/image-file';
import { supabase } from '@/lib/supabase';
import { newsKeys } from './keys';
import { newsColumns, type NewsFormInput } from './news-form-schema';
import { NEWS_BANNER_BUCKET } from './types';

/**
 * Uploads a banner through the upload-image function (admins only) and returns its path, or null when
 * the form has none. A failed upload throws, so the caller never writes a row pointing at nothing.
 */
export async function uploadBanner(file: File | undefined): Promise<string | null> {
  return file ? uploadImage(NEWS_BANNER_BUCKET, file) : null;
}

/** Uploads the banner (if any) and adds the article; RLS allows both only for admins. */
export async function createNews({
  values,
  userId,
}: {
  values: NewsFormInput;
  userId: string;
}): Promise<{ id: string }> {
  const bannerPath = await uploadBanner(values.newsBanner);
  const { data, error } = await supabase
    .from('news')
    .insert({ ...newsColumns(values), banner_path: bannerPath, author_id: userId })
    .select('id')
    .single();
  if (error) {
    if (bannerPath) await supabase.storage.from(NEWS_BANNER_BUCKET).remove([bannerPath]);
    throw error;
  }
  return data;
}

export function useCreateNews({ onSuccess }: { onSuccess?: (news: { id: string }) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNews,
    onSuccess: async (news) => {
      // The home page and the news list show the new article without waiting for their cache to age.
      await queryClient.invalidateQueries({ queryKey: newsKeys.all });
      onSuccess?.(news);
    },
  });
}
