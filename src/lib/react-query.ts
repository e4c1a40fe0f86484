import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { isClientError } from '@/lib/http-status';

/** Query results count as fresh for 5 minutes (SPEC.md section 7). */
export const STALE_TIME_MS = 5 * 60 * 1000;

export const queryConfig = {
  queries: {
    staleTime: STALE_TIME_MS,
    refetchOnWindowFocus: false,
    // A refused request (4xx) will not change on a retry, and the page that redirects on it should do so
    // at once; a flaky network or a 5xx might, so those are tried twice more.
    retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
  },
} satisfies DefaultOptions;

export function createQueryClient() {
  return new QueryClient({ defaultOptions: queryConfig });
}
