/**
 * supabase-js (with its zod-checked settings) is ~65 KB gzipped. The app shell and the home page
 * load it with this dynamic import, right after the first paint instead of before it, so the search
 * box shows without waiting. Other pages, all lazy chunks, import '@/lib/supabase' directly.
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

/** Runs `task` when the browser is idle (or after `timeout` ms); returns a cancel function. */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1);
  return () => window.clearTimeout(id);
}
