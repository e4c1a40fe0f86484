import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { newsKeys } from './keys';
import { NEWS_COLUMNS, toNewsArticle, type NewsArticle } from './types';

/** One article, or null when the id matches nothing (the page then says so). */
export async function getNewsArticle(id: string): Promise<NewsArticle | null> {
  // A malformed id cannot match a uuid primary key; asking would only earn a 400 from PostgREST.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const { data, error } = await supabase.from('news').select(NEWS_COLUMNS).eq('id', id).maybeSingle();
  if (error) throw error;
  return data ? toNewsArticle(data) : null;
}

export function getNewsArticleQueryOptions(id: string) {
  return queryOptions({ queryKey: newsKeys.detail(id), queryFn: () => getNewsArticle(id) });
}

export function useNewsArticle(id: string) {
  return useQuery(getNewsArticleQueryOptions(id));
}
