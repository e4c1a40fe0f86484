/**
 * Statements run as the signed-in caller over the function's own Postgres connection (postgres.ts)
 * instead of through the Data API (issue 12, section 3): the same transaction PostgREST would open for
 * the call, without its HTTP hop through the gateway, its token check and its JSON round trip.
 *
 * Row-level security still decides. Inside one transaction this switches to the caller's role and sets
 * what PostgREST sets for a request, all transaction-local (`set_config(..., true)`), so nothing leaks to
 * the pooled connection's next user: `role`, `request.jwt.claims` (the whole token payload, which
 * auth.uid(), auth.jwt() and the policies read), the legacy `request.jwt.claim.sub`/`.role`,
 * `request.headers` (only X-Forwarded-For, the one header the database reads: the per-address limits,
 * private.client_address), `request.cookies`, `request.method` and `request.path`. Then it runs the
 * Data API's pre-request hook (private.rest_pre_request, the authenticator's pgrst.db_pre_request) as
 * PostgREST does before every request, so the per-user and per-address write caps count these calls too.
 *
 * The token must already be verified by the Auth server (supabase.ts requireUser: signature, expiry, a
 * live session of a user who is neither banned nor deleted), which is stricter than PostgREST's own
 * check (signature and expiry); its payload is then trusted as PostgREST would trust it.
 *
 * Statement timeout: the pool's 8 s, which is the authenticated role's own setting (on hosted Supabase
 * and on the local stack), the one PostgREST would apply after switching to it.
 */
import pg from 'npm:pg@8.23.1';
import { HttpError } from './http.ts';
import { directPool } from './postgres.ts';
import { base64UrlDecode } from './supabase.ts';

/** A caller whose token the Auth server verified. */
export interface VerifiedCaller {
  token: string;
  forwardedFor?: string | null;
}

// The settings first (the subquery, fenced by offset 0, runs before the outer select), then the hook.
function settingsSql(v: {
  role: string;
  claims: string;
  sub: string;
  headers: string;
  method: string;
  path: string;
}) {
  const [role, claims, sub, headers, method, path] = [
    v.role,
    v.claims,
    v.sub,
    v.headers,
    v.method,
    v.path,
  ].map(literal);
  return `select private.rest_pre_request() from (
  select set_config('role', ${role}, true), set_config('request.jwt.claims', ${claims}, true),
    set_config('request.jwt.claim.sub', ${sub}, true), set_config('request.jwt.claim.role', ${role}, true),
    set_config('request.headers', ${headers}, true), set_config('request.cookies', '{}', true),
    set_config('request.method', ${method}, true), set_config('request.path', ${path}, true)
  offset 0) settings`;
}

/** A value as an SQL string literal (node-postgres' escaping: quotes doubled, backslashes as E''). */
export function literal(value: string): string {
  return pg.escapeLiteral(value);
}

/** The claims of a verified token, and the role they name (only a signed-in user's is accepted here). */
function claimsOf(token: string): { json: string; role: string; sub: string } {
  const json = new TextDecoder().decode(base64UrlDecode(token.split('.')[1] ?? ''));
  const claims = JSON.parse(json) as { role?: unknown; sub?: unknown };
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string')
    throw new HttpError(401, 'Authentication Invalid, please log in');
  return { json, role: claims.role, sub: claims.sub };
}

/**
 * Runs `statement` as the caller, as the Data API would run a `method` request on `path` (such as
 * 'POST' and '/reports'), and returns its rows. The settings and the statement travel as one simple
 * query, which Postgres runs as one transaction (committed when both succeed, rolled back otherwise),
 * in a single round trip; so every value in `statement` must be written with literal(). A database
 * error is thrown as pg raises it (postgres.ts's dataApiError gives the Data API's body for it).
 */
export async function asCaller<R>(
  caller: VerifiedCaller,
  request: { method: string; path: string },
  statement: string,
): Promise<R[]> {
  const claims = claimsOf(caller.token);
  const settings = settingsSql({
    role: claims.role,
    claims: claims.json,
    sub: claims.sub,
    headers: JSON.stringify(caller.forwardedFor ? { 'x-forwarded-for': caller.forwardedFor } : {}),
    method: request.method,
    path: request.path,
  });
  // Two statements give two results: the hook's, then the statement's.
  const results = (await directPool().query(`${settings};\n${statement}`)) as unknown as pg.QueryResult[];
  return results[1].rows as R[];
}
