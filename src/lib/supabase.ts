import { createClient } from '@supabase/supabase-js';
import { env } from '@/config/env';
import { announceSupabaseLoaded } from '@/lib/supabase-loaded';
import type { Database } from '@/types/database.types';

/**
 * The app's one Supabase client. Every query runs as the signed-in user (or anon), so row-level
 * security in the database decides what comes back; the app never holds a privileged key. Typed by
 * src/types/database.types.ts (npm run db:types), so a schema change breaks the build where it matters.
 */
export const supabase = createClient<Database>(env.VITE_SUPABASE_URL, env.VITE_SUPABASE_ANON_KEY, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});

// A visitor who started signed out subscribes to auth events only now (src/lib/auth.tsx).
announceSupabaseLoaded();
