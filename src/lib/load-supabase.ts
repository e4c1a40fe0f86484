/**
 * supabase-js (with its zod-checked settings) is ~53 KB gzipped. The app shell loads it with this
 * dynamic import only when something needs it, so the home page and a shared results page paint and
 * become interactive without it. Other pages, all lazy chunks, import '@/lib/supabase' directly.
 */
export const loadSupabase = () => import('@/lib/supabase').then((m) => m.supabase);

/**
 * False when supabase-js would certainly start signed out: no stored session (supabase-js keeps it in
 * localStorage under `sb-<project>-auth-token`, the same test index.html's early search makes) and no
 * sign-in callback in the address (`#access_token=`, `?code=`, `error_description=`, which supabase-js
 * reads at start-up). Then nothing needs to wait for supabase-js to know who is signed in.
 */
export function maySignIn(): boolean {
  try {
    if (/[?#&](access_token|code|error_description)=/.test(window.location.search + window.location.hash)) {
      return true;
    }
    return Object.keys(window.localStorage).some((k) => /^sb-.*-auth-token$/.test(k));
  } catch {
    // No storage (privacy mode): supabase-js decides.
    return true;
  }
}
