/**
 * supabase-js (with its zod-checked settings) is ~65 KB gzipped. The app shell and the home page
 * load it with this dynamic import, right after the first paint instead of before it, so the search
 * box shows without waiting. Other pages, all lazy chunks, import '@/lib/supabase' directly.
 */
export const loadSupabase = () => import('@/lib/supabase').then((m) => m.supabase);
