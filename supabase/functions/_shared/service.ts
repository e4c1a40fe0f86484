/**
 * The service-role client: it bypasses row-level security, so it is the one place that holds the
 * service key. Callers use it only after their own explicit check (a scheduled job that verified
 * the service-role caller, or a lookup the caller is entitled to that RLS cannot express, such as
 * e-mailing the reporter of a report someone asked to remove).
 */
import { createClient } from 'npm:@supabase/supabase-js@2.109.0';
import type { Database } from './database.ts';
import type { SupabaseClient } from './supabase.ts';
import { requireEnv } from './env.ts';
import { HttpError } from './http.ts';

let client: SupabaseClient | undefined;

const options = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
} as const;

/**
 * The service-role client. Given the X-Forwarded-For of a caller it acts for, it forwards it, so the
 * database's rate limiter takes the caller's address (docs/limits.md), not this function's.
 */
export function serviceClient(forwardedFor?: string | null): SupabaseClient {
  const url = requireEnv('SUPABASE_URL');
  const key = requireEnv('SUPABASE_SERVICE_ROLE_KEY');
  if (forwardedFor)
    return createClient<Database>(url, key, {
      ...options,
      global: { headers: { 'x-forwarded-for': forwardedFor } },
    });
  client ??= createClient<Database>(url, key, options);
  return client;
}

/**
 * Scheduled jobs (the migrations' pg_cron jobs, through pg_net) call with the
 * service-role key. Only that exact key is accepted: a user's token or the anon key is refused even
 * when its signature is valid.
 */
export function requireServiceRole(req: Request): void {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!m) throw new HttpError(401, 'Missing authorization header');
  if (m[1] !== requireEnv('SUPABASE_SERVICE_ROLE_KEY'))
    throw new HttpError(403, 'Only the scheduler (service role) may run this job');
}
