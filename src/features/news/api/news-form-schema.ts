import { z } from 'zod';
import { optionalImageFile } from '@/lib/image-file';
import type { NewsRow } from './types';

/** An optional http(s) link; messages are catalogue keys (validation.news.*), read in the reader's language. */
const optionalUrl = (tooLong: string, format: string) =>
  z
    .string()
    .trim()
    .max(500, tooLong)
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), format);

/** The Add News form (docs/behaviour.md): newsTitle, newsDescription, tags, imgURL, source, sourceDesc, newsBanner. */
export const newsFormSchema = z.object({
  newsTitle: z
    .string()
    .trim()
    .min(1, 'validation.news.titleRequired')
    .max(300, 'validation.news.titleTooLong'),
  newsDescription: z
    .string()
    .trim()
    .min(1, 'validation.news.textRequired')
    .max(20000, 'validation.news.textTooLong'),
  tags: z.string().trim().max(500, 'validation.news.tagsTooLong'),
  imgURL: optionalUrl('validation.news.imageUrlTooLong', 'validation.news.imageUrlFormat'),
  source: optionalUrl('validation.news.sourceTooLong', 'validation.news.sourceFormat'),
  sourceDesc: z.string().trim().max(500, 'validation.news.sourceNameTooLong'),
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

/** A row as the Add News form's values, for editing it (the banner stays unless a new one is chosen). */
export function toNewsFormValues(row: NewsRow): NewsFormValues {
  return {
    newsTitle: row.news_title,
    newsDescription: row.news_description,
    tags: (row.tags ?? []).join(', '),
    imgURL: row.img_url ?? '',
    source: row.source ?? '',
    sourceDesc: row.source_desc ?? '',
    newsBanner: undefined,
    removeBanner: false,
  };
}
