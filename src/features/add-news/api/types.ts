import type { NewsFormValues } from './create-news';

/** The public news-banners bucket; only admins may write to it (storage policy). */
export const NEWS_BANNER_BUCKET = 'news-banners' as const;

/** One public.news row as the admin's list and edit form use it. */
export interface NewsRow {
  id: string;
  news_title: string;
  news_description: string;
  tags: string[] | null;
  img_url: string | null;
  source: string | null;
  source_desc: string | null;
  /** Object path in the news-banners bucket, or null. */
  banner_path: string | null;
  created_at: string;
  updated_at: string;
}

export const NEWS_ROW_COLUMNS =
  'id, news_title, news_description, tags, img_url, source, source_desc, banner_path, created_at, updated_at';

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
