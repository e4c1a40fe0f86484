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
 */
import pg from 'npm:pg@8.23.1';
import { requireEnv } from './env.ts';

/** Connections per function instance: enough to keep Postgres busy, few enough for a small plan. */
const POOL_SIZE = 4;

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
    });
    // An idle connection the server dropped: the pool replaces it on the next query.
    pool.on('error', (e) => console.error('postgres pool', e.message));
  }
  return pool;
}
