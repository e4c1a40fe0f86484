import { PostgrestClient } from '@supabase/postgrest-js';
import { env } from '@/config/env';
import { apiUrl } from '@/lib/public-url';
import type { Database } from '@/types/database.types';

/**
 * Public data (the home page's news cards) read as anon, without supabase-js: its ~53 KB gzipped chunk
 * (Auth, Realtime, Storage) took a ~300 ms task on a phone right after the home page painted
 * (Lighthouse TBT, docs/performance.md), and an anonymous visitor needs none of it there. PostgREST's own
 * client (the one supabase-js wraps, same version) builds the query; RLS answers as for anon. Import it
 * dynamically: it stays out of the first load.
 */
export const publicRest = new PostgrestClient<Database>(`${apiUrl}/rest/v1`, {
  headers: { apikey: env.VITE_SUPABASE_ANON_KEY, Authorization: `Bearer ${env.VITE_SUPABASE_ANON_KEY}` },
});
