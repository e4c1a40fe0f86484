/**
 * The app's search: `POST { searchString }` answers what public.search_reports answers (anonymous
 * callers get the limited columns) and logs the search with the location the server resolves from the
 * caller's address, so Search History shows where searches come from without trusting the browser.
 * One request: the caller's token check and the address lookup run side by side, then one database call.
 */
import { preflight } from '../_shared/cors.ts';
import { readFields } from '../_shared/body.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { parseFields, searchSchema } from '../_shared/schemas.ts';
import { locatedSearch } from '../_shared/search.ts';

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST to search');
    const { searchString } = parseFields(searchSchema, await readFields(req, 10_000));
    return json(await locatedSearch(req, searchString));
  } catch (e) {
    return toErrorResponse(e);
  }
});
