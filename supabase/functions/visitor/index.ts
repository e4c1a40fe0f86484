/**
 * Records a page visit for the SPA (`supabase.functions.invoke('visitor', { body: { path } })` on
 * page load): the location comes from the caller's address via the offline IP database, the raw
 * address is never stored, and DNT / Sec-GPC visitors are counted without location. Answers the
 * visitor's own approximate location, which the report form uses for its loc and country fields.
 */
import { preflight } from '../_shared/cors.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { readFields } from '../_shared/body.ts';
import { optionalText, parseFields, z } from '../_shared/schemas.ts';
import { clientFor, identify } from '../_shared/supabase.ts';
import { recordVisit } from '../_shared/visits.ts';

const visitSchema = z.object({ path: optionalText('path', 300) });

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST' && req.method !== 'GET')
      throw new HttpError(405, 'Use POST (or GET) to record a visit');
    const caller = await identify(req);
    const input =
      req.method === 'POST'
        ? parseFields(visitSchema, await readFields(req, 10_000))
        : { path: new URL(req.url).searchParams.get('path') ?? undefined };
    const visit = await recordVisit(req, clientFor(caller), input.path ?? null);
    return json(visit, 201);
  } catch (e) {
    return toErrorResponse(e);
  }
});
