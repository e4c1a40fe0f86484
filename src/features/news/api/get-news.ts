import { queryOptions, useQuery } from '@tanstack/react-query';
// The home page shows these cards: fetch supabase-js on demand so it stays out of the first load.
import { loadSupabase } from '@/lib/load-supabase';
import { newsKeys } from './keys';
import { NEWS_COLUMNS, toNewsArticle, type NewsArticle, type NewsRow } from './types';

/** Latest news first; `limit` keeps the home page to a few cards. */
export async function getNews({ limit }: { limit?: number } = {}): Promise<NewsArticle[]> {
  const supabase = await loadSupabase();
  let query = supabase.from('news').select(NEWS_COLUMNS).order('created_at', { ascending: false });
  if (limit) query = query.limit(limit);
  const { data, error } = await query;
  if (error) throw error;
  return ((data ?? []) as NewsRow[]).map((row) => toNewsArticle(row, supabase));
}

export function getNewsQueryOptions(filters: { limit?: number } = {}) {
  return queryOptions({ queryKey: newsKeys.list(filters), queryFn: () => getNews(filters) });
}

export function useNews(filters: { limit?: number } = {}) {
  return useQuery(getNewsQueryOptions(filters));
}
