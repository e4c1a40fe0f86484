/**
 * Maps the errors of supabase-js calls (PostgREST and Storage) to the legacy API's answers: the
 * database's refusals (RLS, checks, triggers) become 4xx with a readable `msg`, never a 500.
 */
import { HttpError, overloaded, rateLimited } from '../_shared/http.ts';

interface DbError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

export function dbError(error: DbError, action: string): HttpError {
  const code = error.code ?? '';
  const limited = rateLimited(error) ?? overloaded(error);
  if (limited) return limited;
  // The database's own refusals with an HTTP status (PostgREST's PTnnn), such as a second report on
  // the same identifier or a second open removal request; 'existing_<thing>_id=<id>' in details names
  // what to use instead (existingReportId, existingRequestId).
  const status = /^PT([45]\d\d)$/.exec(code)?.[1];
  if (status) {
    const existing = /existing_(report|request)_id=([0-9a-f-]{36})/.exec(error.details ?? '');
    const extra: Record<string, unknown> = existing
      ? { [`existing${existing[1][0].toUpperCase()}${existing[1].slice(1)}Id`]: existing[2] }
      : {};
    return new HttpError(Number(status), error.message ?? `Cannot ${action}`, extra);
  }
  const detail = error.message ? `: ${error.message}` : '';
  if (code === '42501') return new HttpError(403, `You are not allowed to ${action}${detail}`);
  if (code === 'PGRST116' || code === 'P0002') return new HttpError(404, `Not found: cannot ${action}`);
  if (code === '23505') return new HttpError(409, `Cannot ${action}: it already exists`);
  if (code === '23503')
    return new HttpError(400, `Cannot ${action}: it refers to something that does not exist`);
  if (/^(22|23)/.test(code)) return new HttpError(400, `Cannot ${action}${detail}`);
  if (code === 'PGRST301' || code === 'PGRST302')
    return new HttpError(401, 'Invalid or expired token, please log in again');
  console.error(`database error while trying to ${action}`, error);
  return new HttpError(502, `Could not ${action} right now, please try again`);
}

/** Storage errors carry an HTTP status (as text) rather than a Postgres code. */
export function storageError(
  error: { message?: string; statusCode?: string; status?: number },
  action: string,
): HttpError {
  const status = Number(error.statusCode ?? error.status ?? 0);
  if (status === 413) return new HttpError(400, 'Image size too large');
  if (status === 403 || status === 401) return new HttpError(403, `You are not allowed to ${action}`);
  if (status === 400 || status === 415 || status === 422)
    return new HttpError(400, `Cannot ${action}: ${error.message ?? 'refused by storage'}`);
  console.error(`storage error while trying to ${action}`, error);
  return new HttpError(502, `Could not ${action} right now, please try again`);
}
