/**
 * The legacy REST API (docs/behaviour.md §7) under /api/v1, on Supabase: every call is made with
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
import { takeApiLimit } from './limits.ts';
import { RANGE_REQUEST } from './routes/range.ts';
import { taxiiPageLimitedHere } from './routes/feeds.ts';
import { refuseCrossSiteCookieWrite } from './csrf.ts';

/** Calls that start or end a session, where a stale token or cookie must not get in the way. */
const SESSION_CALLS = /^\/api\/v1\/(auth\/|verify\/)/;

/** The answer with the RateLimit-* headers added (headers the handler set win). */
function withHeaders(res: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) if (!res.headers.has(k)) res.headers.set(k, v);
  return res;
}

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  let limits: Record<string, string> = {};
  try {
    // Every call spends from the caller's API limit first (per key, else per hashed address); a bad
    // key or an exhausted limit is answered before anything else runs.
    const { pathname } = new URL(req.url);
    // A change authenticated by the session cookie must come from ScamCheck's own pages (csrf.ts).
    refuseCrossSiteCookieWrite(req);
    // The range lookup and the TAXII pages take it in their own single database call (routes/range.ts,
    // routes/feeds.ts).
    if (!((req.method === 'GET' && RANGE_REQUEST.test(pathname)) || taxiiPageLimitedHere(req, pathname)))
      limits = await takeApiLimit(req);
    // A forged or expired token is refused before anything else is read (identify caches the answer
    // for the handler).
    if (!SESSION_CALLS.test(pathname)) await identify(req);
    return withHeaders(withCookies(await router.handle(req), renewedCookies(req)), limits);
  } catch (e) {
    return withHeaders(withCookies(toErrorResponse(e), renewedCookies(req)), limits);
  }
});
