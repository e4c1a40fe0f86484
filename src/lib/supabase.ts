import { createClient } from '@supabase/supabase-js';
import { env } from '@/config/env';

/**
 * The app's one Supabase client. Every query runs as the signed-in user (or anon), so row-level
 * security in the database decides what comes back; the app never holds a privileged key.
 */
export const supabase = createClient(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});
