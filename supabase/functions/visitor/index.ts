/**
 * Records page views for the SPA: `POST { paths: ['/', '/about', ...] }` (what the app batches on route
 * changes, sent with keepalive), `POST { path }` or `GET ?path=` for one. The location comes from the
 * caller's address via the offline IP database, the raw address is never stored, and DNT / Sec-GPC
 * visitors are counted without location. `paths: []` records nothing and only answers the visitor's
 * own approximate location. `{ paths: [], report: <id> }` from a signed-in reporter sets the location
 * of the report they just filed from their address (issue 27: never from the browser).
 */
import { preflight } from '../_shared/cors.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { readFields } from '../_shared/body.ts';
import { identify } from '../_shared/supabase.ts';
import { recordVisits } from '../_shared/visits.ts';
import { locateReport } from '../_shared/report-location.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The paths a request asks to record (validated, path by path, in visits.ts) and, from the report form,
 * the id of the report it just filed (`report`), to be located.
 */
async function requested(req: Request): Promise<{ paths: unknown[]; report?: unknown }> {
  if (req.method === 'GET') return { paths: [new URL(req.url).searchParams.get('path')] };
  const fields = await readFields(req, 20_000);
  const report = 'report' in fields ? fields.report : undefined;
  if ('paths' in fields) {
    if (!Array.isArray(fields.paths)) throw new HttpError(400, 'paths must be a list of page paths');
    return { paths: fields.paths, report };
  }
  return { paths: [fields.path ?? null], report };
}

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST' && req.method !== 'GET')
      throw new HttpError(405, 'Use POST (or GET) to record a visit');
    const caller = await identify(req);
    const { paths, report } = await requested(req);
    const visit = await recordVisits(req, caller.user?.id ?? null, paths);
    // The report form's report just filed: its location is set here, from the caller's address, never
    // from anything the browser sends (issue 27).
    if (report !== undefined) {
      if (!caller.user) throw new HttpError(401, 'Sign in to locate your report');
      if (typeof report !== 'string' || !UUID.test(report))
        throw new HttpError(400, 'report must be a report id');
      const located = await locateReport(req, caller.user.id, report);
      return json({ ...visit, reportLocated: located !== null }, visit.recorded > 0 ? 201 : 200);
    }
    return json(visit, visit.recorded > 0 ? 201 : 200);
  } catch (e) {
    return toErrorResponse(e);
  }
});
