/**
 * Records page views in public.visitor_log through public.record_visits (service role only), with the
 * location resolved here from the caller's address (geo.ts): the API roles cannot write the log, so
 * nobody can claim a city, country, location or address hash. Shared by the `visitor` function the
 * SPA calls on every route change (batched) and the legacy API's GET /visitor.
 */
import { clientAddress, visitFrom, type Visit, type VisitorLocation } from './geo.ts';
import { HttpError, rateLimited } from './http.ts';
import { serviceClient } from './service.ts';

/** The most page views one call may carry (the SPA sends a batch every few seconds). */
export const MAX_VISITS_PER_CALL = 20;

export interface RecordedVisit {
  /** False when the visitor sent DNT/Sec-GPC or has no public address: counted, not located. */
  located: boolean;
  /** The visitor's own approximate location, so the report form can fill loc and country. */
  location: VisitorLocation | null;
  /** How many page views were recorded. */
  recorded: number;
}

/** The location fields and keyed hash a log row keeps (never the address itself). */
export function logFields(visit: Visit): Record<string, string | null> {
  return {
    city: visit.location?.city?.slice(0, 100) ?? null,
    region: visit.location?.region?.slice(0, 100) ?? null,
    country: visit.location?.country ?? null,
    loc: visit.location?.loc ?? null,
    org: visit.location?.org ?? null,
    postal: visit.location?.postal?.slice(0, 20) ?? null,
    ip_hash: visit.ipHash,
  };
}

/** The caller's address for the database's limits only (hashed there, never stored). */
export function limitAddress(req: Request): string | null {
  return clientAddress(req)?.ip ?? null;
}

/** A site path worth keeping, else null (a URL or control characters are dropped, the visit still counts). */
export function cleanPath(path: unknown): string | null {
  if (typeof path !== 'string') return null;
  return /^\/[^\u0000-\u001f\u007f]*$/.test(path) && path.isWellFormed() ? path.slice(0, 300) : null;
}

/**
 * Records one visit per entry of `paths` (none: only locates the caller, for the report form) for
 * `userId` (the verified caller, or null).
 */
export async function recordVisits(
  req: Request,
  userId: string | null,
  paths: unknown[],
): Promise<RecordedVisit> {
  if (paths.length > MAX_VISITS_PER_CALL)
    throw new HttpError(400, `Send at most ${MAX_VISITS_PER_CALL} visits at a time`);
  const visit = await visitFrom(req);
  let recorded = 0;
  if (paths.length > 0) {
    const { data, error } = await serviceClient().rpc('record_visits', {
      paths: paths.map(cleanPath),
      visitor_id: userId,
      visit: logFields(visit),
      client_address: limitAddress(req),
    });
    if (error) {
      const limited = rateLimited(error);
      if (limited) throw limited;
      console.error('visits not recorded', error);
      throw new HttpError(502, 'The visit could not be recorded');
    }
    recorded = Number(data);
  }
  return { located: visit.location !== null, location: visit.location, recorded };
}
