import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

/** Rows per page of the search-history and visitors lists. */
export const LOG_PAGE = 50;

const searchRowSchema = z.object({
  id: z.string(),
  search_string: z.string(),
  identifier_kind: z.string().nullable(),
  result_count: z.coerce.number(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string().nullable(),
  signed_in: z.boolean(),
  created_at: z.string(),
});
export type SearchLogRow = z.infer<typeof searchRowSchema>;

const visitRowSchema = z.object({
  id: z.string(),
  path: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  country: z.string().nullable(),
  signed_in: z.boolean(),
  created_at: z.string(),
});
export type VisitorLogRow = z.infer<typeof visitRowSchema>;

/** A period as the lists take it: local calendar days, both included ('' for open). */
export interface Period {
  from: string;
  to: string;
}

export interface SearchLogFilters extends Period {
  search: string;
  kind: string;
  country: string;
  results: '' | 'none' | 'some';
}

export interface VisitorLogFilters extends Period {
  search: string;
  place: string;
  country: string;
}

/** since/until of a period of local days: the start of `from`, the start of the day after `to`. */
export function periodBounds({ from, to }: Period): { since?: string; until?: string } {
  const start = (day: string, plus = 0) => {
    const [y, m, d] = day.split('-').map(Number);
    const date = new Date(y, m - 1, d + plus);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  };
  return { since: from ? start(from) : undefined, until: to ? start(to, 1) : undefined };
}

type Cursor = { created_at: string; id: string } | null;
const nextCursor = (last: { created_at: string; id: string }[]): Cursor =>
  last.length < LOG_PAGE
    ? null
    : { created_at: last[last.length - 1].created_at, id: last[last.length - 1].id };

/** public.admin_search_log, newest first, LOG_PAGE a page by keyset, with the filters. */
export function useSearchLog(filters: SearchLogFilters) {
  return useInfiniteQuery({
    queryKey: [...adminKeys.all, 'search-log', filters] as const,
    placeholderData: keepPreviousData,
    initialPageParam: null as Cursor,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await supabase.rpc('admin_search_log', {
        search: filters.search.trim() || undefined,
        kind: filters.kind || undefined,
        country_code: filters.country.trim() || undefined,
        no_results: filters.results ? filters.results === 'none' : undefined,
        ...periodBounds(filters),
        before_created_at: pageParam?.created_at,
        before_id: pageParam?.id,
        max_rows: LOG_PAGE,
      });
      if (error) throw error;
      return z.array(searchRowSchema).parse(data);
    },
    getNextPageParam: nextCursor,
  });
}

/** public.admin_visitor_log, newest first, LOG_PAGE a page by keyset, with the filters. */
export function useVisitorLog(filters: VisitorLogFilters) {
  return useInfiniteQuery({
    queryKey: [...adminKeys.all, 'visitor-log', filters] as const,
    placeholderData: keepPreviousData,
    initialPageParam: null as Cursor,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await supabase.rpc('admin_visitor_log', {
        search: filters.search.trim() || undefined,
        place: filters.place.trim() || undefined,
        country_code: filters.country.trim() || undefined,
        ...periodBounds(filters),
        before_created_at: pageParam?.created_at,
        before_id: pageParam?.id,
        max_rows: LOG_PAGE,
      });
      if (error) throw error;
      return z.array(visitRowSchema).parse(data);
    },
    getNextPageParam: nextCursor,
  });
}
