import {
  MutationCache,
  QueryCache,
  QueryClient,
  type DefaultOptions,
  type MutationOptions,
} from '@tanstack/react-query';
import { isClientError } from '@/lib/http-status';
import { errorMessage, toastError } from '@/lib/errors';

/** Query results count as fresh for 5 minutes (docs/behaviour.md). */
export const STALE_TIME_MS = 5 * 60 * 1000;

/**
 * How a failed query or mutation is told to the user, through the one error path below.
 * - Mutations show the server's message as a toast unless `errorToast` says otherwise.
 * - Queries show nothing unless `errorToast` is set: most pages show a failed load in place.
 * `errorToast`: true (the error's own message), false (the caller shows it itself), or a function that
 * words the toast for this error (null: no toast, for example when the page shows it inline).
 */
export interface ErrorMeta extends Record<string, unknown> {
  errorToast?: boolean | ((error: unknown) => string | null);
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta;
    mutationMeta: ErrorMeta;
  }
}

/** The toast a failure gets, or null for none. */
export function errorToastFor(
  error: unknown,
  meta: ErrorMeta | undefined,
  byDefault: boolean,
): string | null {
  const choice = meta?.errorToast ?? byDefault;
  if (typeof choice === 'function') return choice(error);
  return choice ? errorMessage(error) : null;
}

function report(error: unknown, meta: ErrorMeta | undefined, byDefault: boolean) {
  const message = errorToastFor(error, meta, byDefault);
  if (message !== null) void toastError(message);
}

export const queryConfig = {
  queries: {
    staleTime: STALE_TIME_MS,
    refetchOnWindowFocus: false,
    // A refused request (4xx) will not change on a retry, and the page that redirects on it should do so
    // at once; a flaky network or a 5xx might, so those are tried twice more.
    retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
  },
} satisfies DefaultOptions;

export function createQueryClient(defaultOptions: DefaultOptions = queryConfig) {
  return new QueryClient({
    defaultOptions,
    queryCache: new QueryCache({ onError: (error, query) => report(error, query.meta, false) }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => report(error, mutation.meta, true),
    }),
  });
}

/**
 * Runs a mutation outside a component (a route action) through the client's MutationCache, so that
 * its failure is told by the one error path above, as a useMutation's is. Resolves to whether it
 * succeeded; the failure itself has been reported by then.
 */
export async function runMutation<TData, TVariables>(
  queryClient: QueryClient,
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<boolean> {
  try {
    await queryClient.getMutationCache().build(queryClient, options).execute(variables);
    return true;
  } catch {
    return false;
  }
}
