/**
 * The app's one test of "might this visitor start signed in?", made before supabase-js is loaded: by
 * index.html's early search and page shell (inlined there, so these functions stand alone: no imports,
 * nothing from outside their bodies, syntax every supported browser parses unbundled), by the auth
 * provider (src/lib/auth.tsx, which then skips loading supabase-js) and by the wait for another tab's
 * sign-in (src/lib/supabase-loaded.ts).
 */

/** Whether a localStorage key holds a supabase-js session (`sb-<project>-auth-token`, any project). */
export function isSessionKey(key: string | null): boolean {
  return key !== null && /^sb-.*-auth-token$/.test(key);
}

/**
 * False when supabase-js would certainly start signed out: no stored session and no sign-in callback in
 * the address (`#access_token=`, `?code=`, `error_description=`, which supabase-js reads at start-up).
 * Without storage (privacy mode) it answers true: supabase-js decides. `sessionKey` is isSessionKey,
 * passed in where this function is inlined.
 */
export function maySignIn(sessionKey: (key: string | null) => boolean = isSessionKey): boolean {
  try {
    if (/[?#&](access_token|code|error_description)=/.test(window.location.search + window.location.hash)) {
      return true;
    }
    const storage = window.localStorage;
    for (let i = 0; i < storage.length; i++) {
      if (sessionKey(storage.key(i))) return true;
    }
    return false;
  } catch {
    return true;
  }
}
