/**
 * supabase-js (with its zod-checked settings) is ~53 KB gzipped. The app shell loads it with this
 * dynamic import only when something needs it, so the home page and a shared results page paint and
 * become interactive without it; /statistics loads it with its figures' query, so its text paints
 * first. Other pages, all lazy chunks, import '@/lib/supabase' directly.
 */
export const loadSupabase = () => import('@/lib/supabase').then((m) => m.supabase);
