/**
 * The HTTP status behind an error from supabase-js, for deciding what a retry could fix. supabase-js
 * does not put the status on PostgREST errors, so it is worked out from the error code the way
 * PostgREST chooses the status (docs.postgrest.org, "Errors": PostgreSQL codes and PGRST codes).
 * Undefined means no answer came back (a network failure), which a retry may well fix.
 */
export function httpStatusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; context?: unknown; code?: unknown; name?: unknown };
  if (typeof e.status === 'number' && e.status >= 100) return e.status;
  // FunctionsHttpError carries the function's Response.
  if (e.context instanceof Response) return e.context.status;
  if (typeof e.code === 'string' && e.code) return statusOfCode(e.code);
  return undefined;
}

function statusOfCode(code: string): number | undefined {
  if (code.startsWith('PGRST')) {
    const group = code.charAt(5);
    if (group === '0') return 503; // no connection to the database
    if (group === '3') return code === 'PGRST300' ? 500 : 401; // JWT
    if (group === '1' || group === '2') return 400; // the request or the schema cache (400, 404, 406, ...)
    return 500;
  }
  if (!/^[0-9A-Z]{5}$/.test(code)) return undefined;
  const exact: Record<string, number> = {
    P0001: 400,
    '42501': 403,
    '42P01': 404,
    '42883': 404,
    '23503': 409,
    '23505': 409,
    '25006': 405,
  };
  if (exact[code]) return exact[code];
  const serverClasses = [
    '08',
    '09',
    '25',
    '2D',
    '38',
    '39',
    '3B',
    '40',
    '53',
    '54',
    '55',
    '57',
    '58',
    'F0',
    'HV',
    'P0',
    'XX',
  ];
  return serverClasses.includes(code.slice(0, 2)) ? 500 : 400;
}

/** True for answers a retry cannot change: the request itself was refused (4xx). */
export function isClientError(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}
