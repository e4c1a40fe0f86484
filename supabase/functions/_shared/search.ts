/**
 * One search, logged with the caller's location resolved here (geo.ts) and the verified caller, through
 * public.search_reports_located (service role only). Shared by the app's `search` function and the
 * legacy API's GET /search/{searchString}: a location in the request itself is never read.
 */
import { visitFrom } from './geo.ts';
import { HttpError, overloaded, rateLimited } from './http.ts';
import { searchResultSchema, type SearchResult } from './search-result.ts';
import { serviceClient } from './service.ts';
import { identify } from './supabase.ts';
import { limitAddress, logFields } from './visits.ts';

export async function locatedSearch(req: Request, searchString: string): Promise<SearchResult> {
  const [caller, visit] = await Promise.all([identify(req), visitFrom(req)]);
  const { data, error } = await serviceClient().rpc('search_reports_located', {
    search_string: searchString,
    searcher: caller.user?.id ?? null,
    visitor: logFields(visit),
    client_address: limitAddress(req),
  });
  if (error) {
    const limited = rateLimited(error) ?? overloaded(error);
    if (limited) throw limited;
    if (error.code === '22023') throw new HttpError(400, error.message);
    console.error('search failed', error);
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
