/**
 * One search, logged with the caller's location resolved here (geo.ts) and the verified caller, through
 * public.search_reports_located (service role only). Shared by the app's `search` function and the
 * legacy API's GET /search/{searchString}: a location in the request itself is never read.
 */
import { visitFrom } from './geo.ts';
import { errorCodeOf, HttpError, overloaded, rateLimited } from './http.ts';
import { searchResultSchema, type SearchResult } from './search-result.ts';
import { dataApiError, directPool } from './postgres.ts';
import { identify } from './supabase.ts';
import { limitAddress, logFields } from './visits.ts';

export async function locatedSearch(req: Request, searchString: string): Promise<SearchResult> {
  const [caller, visit] = await Promise.all([identify(req), visitFrom(req)]);
  // Straight to Postgres (_shared/postgres.ts), as the range lookup does: a service-role entry point
  // whose every input is an argument, so the Data API's HTTP hop, token check and role switch would
  // only add cost. Errors keep the Data API's meaning (PT429 with its retry_after detail, busy 503).
  let data: unknown;
  try {
    // The owner's answer (issue 32) rides in the same statement: one round trip still.
    const { rows } = await directPool().query<{ answer: unknown; owners: unknown }>(
      `select public.search_reports_located($1, $2, $3, $4) as answer,
              public.owner_statements_for(array[public.canonical_identifier_auto($1)]) as owners`,
      [searchString, caller.user?.id ?? null, logFields(visit), limitAddress(req)],
    );
    data = { ...(rows[0].answer as object), owner_statements: rows[0].owners };
  } catch (e) {
    const error = dataApiError(e);
    const limited = rateLimited(error) ?? overloaded(error);
    if (limited) throw limited;
    if (error.code === '22023')
      throw new HttpError(400, error.message ?? 'Invalid search', errorCodeOf(error));
    console.error('search failed', e);
    throw new HttpError(502, 'Could not search right now, please try again');
  }
  const result = searchResultSchema.safeParse(data);
  if (!result.success) {
    // The database answered in a shape this code does not know: a deploy out of step with a migration.
    console.error('search answer has an unexpected shape', result.error.issues);
    throw new HttpError(502, 'Could not search right now, please try again');
  }
  return result.data;
}
