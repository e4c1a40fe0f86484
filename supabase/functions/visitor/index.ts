/**
 * Records page views for the SPA: `POST { paths: ['/', '/about', ...] }` (what the app batches on route
 * changes, sent with keepalive), `POST { path }` or `GET ?path=` for one. The location comes from the
 * caller's address via the offline IP database, the raw address is never stored, and DNT / Sec-GPC
 * visitors are counted without location. `paths: []` records nothing and only answers the visitor's
 * own approximate location, which the report form uses for its loc and country fields.
 */
import { preflight } from '../_shared/cors.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { readFields } from '../_shared/body.ts';
import { identify } from '../_shared/supabase.ts';
import { recordVisits } from '../_shared/visits.ts';

/** The paths a request asks to record (validated, path by path, in visits.ts). */
async function requestedPaths(req: Request): Promise<unknown[]> {
  if (req.method === 'GET') return [new URL(req.url).searchParams.get('path')];
  const fields = await readFields(req, 20_000);
  if ('paths' in fields) {
    if (!Array.isArray(fields.paths)) throw new HttpError(400, 'paths must be a list of page paths');
    return fields.paths;
  }
  return [fields.path ?? null];
}

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST' && req.method !== 'GET')
      throw new HttpError(405, 'Use POST (or GET) to record a visit');
    const caller = await identify(req);
    const visit = await recordVisits(req, caller.user?.id ?? null, await requestedPaths(req));
    return json(visit, visit.recorded > 0 ? 201 : 200);
  } catch (e) {
    return toErrorResponse(e);
  }
});
