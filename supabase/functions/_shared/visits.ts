/**
 * Records one visit in public.visitor_log as the caller (RLS: anyone may add a visit, only admins
 * read them), with the location resolved on the server (geo.ts). Shared by the api's GET /visitor
 * and the `visitor` function the SPA calls on page load.
 */
import { visitFrom, type VisitorLocation } from './geo.ts';
import { HttpError, rateLimited } from './http.ts';
import type { SupabaseClient } from './supabase.ts';

export interface RecordedVisit {
  /** False when the visitor sent DNT/Sec-GPC or has no public address: counted, not located. */
  located: boolean;
  /** The visitor's own approximate location, so the report form can fill loc and country. */
  location: VisitorLocation | null;
}

export async function recordVisit(
  req: Request,
  client: SupabaseClient,
  path: string | null,
): Promise<RecordedVisit> {
  const visit = await visitFrom(req);
  // Only a site path is worth keeping; anything else (a URL, control characters) is dropped, not refused.
  const cleanPath =
    path && /^\/[^\u0000-\u001f]*$/.test(path) && path.isWellFormed() ? path.slice(0, 300) : null;
  const { error } = await client.from('visitor_log').insert({
    path: cleanPath,
    city: visit.location?.city?.slice(0, 100) ?? null,
    region: visit.location?.region?.slice(0, 100) ?? null,
    country: visit.location?.country ?? null,
    loc: visit.location?.loc ?? null,
    org: visit.location?.org ?? null,
    postal: visit.location?.postal?.slice(0, 20) ?? null,
    ip_hash: visit.ipHash,
  });
  if (error) {
    const limited = rateLimited(error);
    if (limited) throw limited;
    console.error('visit not recorded', error);
    throw new HttpError(error.code === '42501' ? 403 : 502, 'The visit could not be recorded');
  }
  return { located: visit.location !== null, location: visit.location };
}
