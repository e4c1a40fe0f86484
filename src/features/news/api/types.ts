import type { SupabaseClient } from '@supabase/supabase-js';

/** One news article as the pages use it (public.news, camelCase as in SPEC.md section 3). */
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

export const NEWS_COLUMNS =
  'id, news_title, news_description, tags, img_url, source, source_desc, banner_path, created_at';

export interface NewsRow {
  id: string;
  news_title: string;
  news_description: string;
  tags: string[] | null;
  img_url: string | null;
  source: string | null;
  source_desc: string | null;
  banner_path: string | null;
  created_at: string;
}

/** The news-banners bucket is public, so a banner is a plain URL (no signed link to expire). */
export const NEWS_BANNER_BUCKET = 'news-banners';

export function toNewsArticle(row: NewsRow, supabase: SupabaseClient): NewsArticle {
  const bannerUrl = row.banner_path
    ? supabase.storage.from(NEWS_BANNER_BUCKET).getPublicUrl(row.banner_path).data.publicUrl
    : null;
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
