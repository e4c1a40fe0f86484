/**
 * A direct Postgres connection for the edge functions' hottest call, the range lookup (issue 14,
 * section 4). Supabase documents connecting to the database from an Edge Function with any Postgres
 * client over SUPABASE_DB_URL, which every function gets (locally too); this skips the Data API's
 * round trip (HTTP to the gateway, PostgREST's token check and role switch) that a supabase-js rpc
 * costs on every request.
 *
 * The connection is the database owner's: use it only for service-role entry points (security
 * definer functions granted to service_role) that the caller has no other way to reach, and pass the
 * caller's X-Forwarded-For as an argument where the database limits per address.
 *
 * Queries are unnamed (no server-side prepared statements), so they also run through a transaction
 * pooler (Supavisor, port 6543) should SUPABASE_DB_URL point at one.
 *
 * Statement timeout: the owner's connection has none, so a call queued behind a lock or a starved CPU
 * would wait without limit. Through the Data API these calls ran as service_role, which has no
 * timeout of its own and so kept the authenticator's 8 s (as on hosted Supabase); the pool sets the
 * same 8 s, so overload still ends in 57014 and a 503 with Retry-After (http.ts overloaded()), with
 * nothing written. node-postgres sends `statement_timeout` as a startup parameter of each new
 * connection, which the server applies to the session (as `-c` in `options` would), so it costs no
 * round trip per query or even per connection. That holds on the direct connection. A pooler does not
 * pass a client's startup parameters on: Supavisor, in session (5432) and transaction (6543) mode
 * alike, opens its server connections with only user, database and application_name and ignores the
 * rest (without an error), so behind it these calls run with the server connections' own settings,
 * i.e. without a timeout for the owner. A session-level SET instead would leak, in transaction mode,
 * to whoever gets that server connection next. Keep SUPABASE_DB_URL on the direct connection; behind a
 * pooler the bound would need `set local` in an explicit transaction per call (two more statements).
 */
import pg from 'npm:pg@8.23.1';
import { requireEnv } from './env.ts';

/** Connections per function instance: enough to keep Postgres busy, few enough for a small plan. */
export const POOL_SIZE = 4;

/**
 * The Data API's statement timeout for these calls (the authenticator's 8 s, which service_role
 * keeps). Fixed on purpose: a test that needs it to run out waits the real figure.
 */
export const STATEMENT_TIMEOUT_MS = 8_000;

let pool: pg.Pool | undefined;

/** The function instance's pool over SUPABASE_DB_URL (created on first use). */
export function directPool(): pg.Pool {
  if (!pool) {
    pool = new pg.Pool({
      connectionString: requireEnv('SUPABASE_DB_URL'),
      max: POOL_SIZE,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 5_000,
      application_name: 'edge-function',
      statement_timeout: STATEMENT_TIMEOUT_MS,
    });
    // An idle connection the server dropped: the pool replaces it on the next query.
    pool.on('error', (e) => console.error('postgres pool', e.message));
  }
  return pool;
}

/** What a refusal of the database looks like through the Data API: its JSON error body. */
export interface DataApiError {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}

/**
 * A Postgres error from a direct call as the Data API would have handed it over: an error raised for
 * PostgREST (SQLSTATE PGRST, its message the JSON body {code, message, details, hint}, as
 * private.rate_limit's 429 is) gives that body; any other its SQLSTATE, message, detail and hint.
 */
export function dataApiError(e: unknown): DataApiError {
  const error = e as { code?: string; message?: string; detail?: string; hint?: string };
  if (error.code === 'PGRST') {
    try {
      return JSON.parse(error.message ?? '') as DataApiError;
    } catch {
      // not a body: taken as it is below
    }
  }
  return { code: error.code, message: error.message, details: error.detail, hint: error.hint };
}
