/**
 * The legacy REST API (SPEC.md section 7) under /api/v1, on Supabase: every call is made with
 * supabase-js as the caller (their bearer token or the session cookie set at login), so the
 * database's row-level security decides what each caller may read and change.
 *
 * Reached at {SUPABASE_URL}/functions/v1/api/v1/... (the function sees /api/v1/...) and, through the
 * app server, at {APP_URL}/api/v1/.... verify_jwt is off for this function (supabase/config.toml)
 * because the old client authenticates with a cookie; every route checks the caller itself.
 */
import { preflight } from '../_shared/cors.ts';
import { toErrorResponse } from '../_shared/http.ts';
import { identify, renewedCookies } from '../_shared/supabase.ts';
import { withCookies } from '../_shared/cookies.ts';
import { router } from './app.ts';

/** Calls that start or end a session, where a stale token or cookie must not get in the way. */
const SESSION_CALLS = /^\/api\/v1\/(auth\/|verify\/)/;

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    // A forged or expired token is refused before anything else is read (identify caches the answer
    // for the handler).
    if (!SESSION_CALLS.test(new URL(req.url).pathname)) await identify(req);
    return withCookies(await router.handle(req), renewedCookies(req));
  } catch (e) {
    return withCookies(toErrorResponse(e), renewedCookies(req));
  }
});
