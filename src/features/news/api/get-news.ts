import { queryOptions, useQuery } from '@tanstack/react-query';
import { newsKeys } from './keys';
import { NEWS_COLUMNS, toNewsArticle, type NewsArticle } from './types';

/** Latest news first; `limit` keeps the home page to a few cards. */
export async function getNews({ limit }: { limit?: number } = {}): Promise<NewsArticle[]> {
  // The home page shows these cards: read as anon through PostgREST's client alone, loaded on demand, so
  // supabase-js stays out of the home page's load (src/lib/public-data.ts).
  const { publicRest } = await import('@/lib/public-data');
  let query = publicRest.from('news').select(NEWS_COLUMNS).order('created_at', { ascending: false });
  if (limit) query = query.limit(limit);
  const { data, error } = await query;
  if (error) throw error;
  return (data ?? []).map((row) => toNewsArticle(row));
}

export function getNewsQueryOptions(filters: { limit?: number } = {}) {
  return queryOptions({ queryKey: newsKeys.list(filters), queryFn: () => getNews(filters) });
}

export function useNews(filters: { limit?: number } = {}) {
  return useQuery(getNewsQueryOptions(filters));
}
