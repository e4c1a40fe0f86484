import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { searchResultSchema, type SearchResult } from '@/lib/search-result';
import { publicStatsKeys } from './keys';

/**
 * Searches a listed most-reported identifier by its handle (public.search_top_identifier), so a
 * masked phone number or e-mail is searched without the page ever holding it. The answer has the
 * shape of search_reports'.
 */
export async function searchTopIdentifier(ref: string): Promise<SearchResult> {
  const { data, error } = await supabase.rpc('search_top_identifier', { ref });
  if (error) throw error;
  return searchResultSchema.parse(data);
}

export function searchTopIdentifierQueryOptions(ref: string, userId: string | null) {
  return queryOptions({
    queryKey: [...publicStatsKeys.all, 'top', ref, userId] as const,
    queryFn: () => searchTopIdentifier(ref),
    retry: false,
  });
}

export function useSearchTopIdentifier(ref: string, userId: string | null, enabled: boolean) {
  return useQuery({ ...searchTopIdentifierQueryOptions(ref, userId), enabled });
}
