import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { toastError } from '@/lib/errors';
import { optionalImageFile, uploadImage } from '@/lib/image-file';
import { supabase } from '@/lib/supabase';
import { addNewsKeys } from './keys';
import { NEWS_BANNER_BUCKET } from './types';

const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `Keep the ${label} under 500 characters`)
    .refine(
      (v) => v === '' || /^https?:\/\/\S+$/i.test(v),
      `Enter the ${label} as a full address starting with https://`,
    );

/** The Add News form (SPEC.md section 2): newsTitle, newsDescription, tags, imgURL, source, sourceDesc, newsBanner. */
export const newsFormSchema = z.object({
  newsTitle: z.string().trim().min(1, 'Enter a title').max(300, 'Keep the title under 300 characters'),
  newsDescription: z
    .string()
    .trim()
    .min(1, 'Enter the article text')
    .max(20000, 'Keep the article under 20000 characters'),
  tags: z.string().trim().max(500, 'Too many tags'),
  imgURL: optionalUrl('image address'),
  source: optionalUrl('source link'),
  sourceDesc: z.string().trim().max(500, 'Keep the source name under 500 characters'),
  newsBanner: optionalImageFile,
  /** Editing only: drop the article's banner (a new banner replaces it anyway). */
  removeBanner: z.boolean().optional(),
});
export type NewsFormValues = z.input<typeof newsFormSchema>;
export type NewsFormInput = z.output<typeof newsFormSchema>;

export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ].slice(0, 20);
}

/** The form's text fields as public.news columns (the banner is handled by the caller). */
export function newsColumns(values: NewsFormInput) {
  return {
    news_title: values.newsTitle,
    news_description: values.newsDescription,
    tags: parseTags(values.tags),
    img_url: values.imgURL || null,
    source: values.source || null,
    source_desc: values.sourceDesc || null,
  };
}

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
  return data as { id: string };
}

export function useCreateNews({ onSuccess }: { onSuccess?: (news: { id: string }) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNews,
    onSuccess: async (news) => {
      // The home page and the news list show the new article without waiting for their cache to age.
      await queryClient.invalidateQueries({ queryKey: addNewsKeys.all });
      onSuccess?.(news);
    },
    onError: toastError,
  });
}
