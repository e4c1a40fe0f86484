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
 * connection (the server applies it to the session like `-c` in `options`), so it costs no round trip
 * per query. That holds on a direct connection and behind Supavisor in session mode (port 5432, one
 * server connection per client). A transaction pooler (port 6543) runs each transaction on whichever
 * server connection is free, so a client's startup parameter does not follow it there: behind one the
 * statement gets the pooler's server connections' own timeout (its role's setting), and this bound
 * holds only if that role has one. Point SUPABASE_DB_URL at the direct or session-mode address.
 */
import pg from 'npm:pg@8.23.1';
import { requireEnv } from './env.ts';

/** Connections per function instance: enough to keep Postgres busy, few enough for a small plan. */
const POOL_SIZE = 4;

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
