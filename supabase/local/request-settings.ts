/**
 * The per-request Postgres settings PostgREST and Storage set before running a request's SQL: the
 * JWT's role, `request.jwt.claims` (and the legacy `request.jwt.claim.sub`/`.role`), `request.headers`,
 * `request.cookies`, `request.method`, `request.path`, the role's `statement_timeout` and read-only
 * mode, all transaction-local. Written once here; db.ts's `withRole` and the REST executor both send it.
 * The statement answers one small number rather than echoing the settings back.
 */

export interface RequestSettings {
  role: string;
  /** The claims as JSON. */
  claimsJson: string;
  sub: string;
  headersJson: string;
  cookiesJson: string;
  method: string;
  path: string;
  /** The role's own `statement_timeout` when it has one (PostgREST applies it on switching role). */
  statementTimeout?: string | null;
  readOnly: boolean;
}

export const SET_REQUEST_SQL = `select (set_config('role', $1, true) is null)::int + (set_config('request.jwt.claims', $2, true) is null)::int
  + (set_config('request.jwt.claim.sub', $3, true) is null)::int + (set_config('request.jwt.claim.role', $1, true) is null)::int
  + (set_config('request.headers', $4, true) is null)::int + (set_config('request.cookies', $5, true) is null)::int
  + (set_config('request.method', $6, true) is null)::int + (set_config('request.path', $7, true) is null)::int
  + (set_config('statement_timeout', coalesce($8, current_setting('statement_timeout')), true) is null)::int
  + (set_config('transaction_read_only', $9, true) is null)::int`;

/** The parameters of SET_REQUEST_SQL, in order. */
export function requestSettingValues(s: RequestSettings): (string | null)[] {
  return [
    s.role,
    s.claimsJson,
    s.sub,
    s.headersJson,
    s.cookiesJson,
    s.method,
    s.path,
    s.statementTimeout ?? null,
    s.readOnly ? 'on' : 'off',
  ];
}
