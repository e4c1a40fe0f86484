import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/** Query results count as fresh for 5 minutes (SPEC.md section 7). */
export const STALE_TIME_MS = 5 * 60 * 1000;

export const queryConfig = {
  queries: {
    staleTime: STALE_TIME_MS,
    refetchOnWindowFocus: false,
    // A 4xx from PostgREST will not fix itself on a retry; a flaky network might.
    retry: (failureCount, error) => {
      const status = (error as { status?: number; code?: string } | null)?.status;
      if (status && status >= 400 && status < 500) return false;
      return failureCount < 2;
    },
  },
} satisfies DefaultOptions;

export function createQueryClient() {
  return new QueryClient({ defaultOptions: queryConfig });
}
