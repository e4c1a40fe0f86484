import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { newsKeys } from './keys';
import { NEWS_ROW_COLUMNS, type NewsRow } from './types';

/** Articles per 'Load more'. */
export const NEWS_PAGE_SIZE = 10;

export interface NewsPage {
  rows: NewsRow[];
  /** Every article there is, so the list knows whether there is more to load. */
  total: number;
}

/** One page of every article, newest first (id breaks ties so pages never overlap or skip). */
export async function getNewsPage(page: number, pageSize = NEWS_PAGE_SIZE): Promise<NewsPage> {
  const from = page * pageSize;
  const { data, error, count } = await supabase
    .from('news')
    .select(NEWS_ROW_COLUMNS, { count: 'exact' })
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, from + pageSize - 1);
  if (error) throw error;
  return { rows: data ?? [], total: count ?? 0 };
}

export function getNewsPagesQueryOptions(pageSize = NEWS_PAGE_SIZE) {
  return infiniteQueryOptions({
    queryKey: newsKeys.adminList(pageSize),
    queryFn: ({ pageParam }) => getNewsPage(pageParam, pageSize),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (pages.length * pageSize < last.total ? pages.length : undefined),
  });
}

export function useNewsPages(pageSize = NEWS_PAGE_SIZE) {
  return useInfiniteQuery(getNewsPagesQueryOptions(pageSize));
}
