import { publicObjectUrl } from '@/lib/public-url';
import type { Tables } from '@/types/database.types';

/** The public news-banners bucket; only admins may write to it (storage policy), so a banner is a plain URL. */
export const NEWS_BANNER_BUCKET = 'news-banners' as const;

/** One public.news row as the admin's list and edit form use it (banner_path: in news-banners, or null). */
export type NewsRow = Pick<
  Tables<'news'>,
  | 'id'
  | 'news_title'
  | 'news_description'
  | 'tags'
  | 'img_url'
  | 'source'
  | 'source_desc'
  | 'banner_path'
  | 'created_at'
  | 'updated_at'
>;

/** The columns the public pages read (everything but updated_at). */
export const NEWS_COLUMNS =
  'id, news_title, news_description, tags, img_url, source, source_desc, banner_path, created_at';
export const NEWS_ROW_COLUMNS = `${NEWS_COLUMNS}, updated_at` as const;

/** One news article as the public pages use it (camelCase, as the legacy API names its fields). */
export interface NewsArticle {
  id: string;
  newsTitle: string;
  newsDescription: string;
  tags: string[];
  imgUrl: string | null;
  source: string | null;
  sourceDesc: string | null;
  /** The uploaded banner's public URL, else imgURL, else null. */
  imageUrl: string | null;
  createdAt: string;
}

export function toNewsArticle(row: Omit<NewsRow, 'updated_at'>): NewsArticle {
  const bannerUrl = row.banner_path ? publicObjectUrl(NEWS_BANNER_BUCKET, row.banner_path) : null;
  return {
    id: row.id,
    newsTitle: row.news_title,
    newsDescription: row.news_description,
    tags: row.tags ?? [],
    imgUrl: row.img_url,
    source: row.source,
    sourceDesc: row.source_desc,
    imageUrl: bannerUrl ?? row.img_url ?? null,
    createdAt: row.created_at,
  };
}
