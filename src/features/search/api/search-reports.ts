import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { takeEarlySearch } from '@/boot/early-search';
import { invokeFunction, readFunctionAnswer } from '@/lib/functions';
import { searchKeys } from './keys';
import { searchResultSchema, type SearchResult } from '@/lib/search-result';

export type {
  OwnerStatement,
  ReportStatusLabel,
  SearchReport,
  SearchResult,
  SearchSummary,
} from '@/lib/search-result';

/**
 * Runs (and logs) one search; the database canonicalises the identifier however it was typed. It goes
 * through the `search` edge function, one request, so that the search is logged with the location
 * the server resolves from the caller's address (never one the browser could claim).
 */
export async function searchReports(searchString: string): Promise<SearchResult> {
  const ask = () => invokeFunction<unknown>('search', { searchString });
  const early = takeEarlySearch(searchString);
  // A failed early request never reached the function (nothing logged): ask again the usual way.
  const result = early ? await early.then(readFunctionAnswer<unknown>, ask) : await ask();
  return searchResultSchema.parse(result);
}

export function searchReportsQueryOptions(searchString: string, userId: string | null) {
  return queryOptions({
    queryKey: searchKeys.result(searchString, userId),
    queryFn: () => searchReports(searchString),
    // The results page leaves when the search fails, so the reason is a toast.
    meta: { errorToast: true },
  });
}

export function useSearchReports(
  searchString: string,
  userId: string | null,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    ...searchReportsQueryOptions(searchString, userId),
    enabled: enabled && searchString.trim().length > 0,
  });
}

/**
 * Puts index.html's early answer for `searchString` into the cache as a signed-out visitor's search
 * (main.tsx, when the results shell painted it), so the page's first render has it. A failed answer
 * leaves the cache alone: the page's query then asks again and reports the failure as usual.
 */
export async function seedSearchAnswer(queryClient: QueryClient, searchString: string): Promise<void> {
  try {
    const result = await searchReports(searchString);
    queryClient.setQueryData(searchReportsQueryOptions(searchString, null).queryKey, result);
  } catch {
    // The page's own query handles it.
  }
}
