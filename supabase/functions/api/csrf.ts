/**
 * Cross-site request forgery. The legacy API accepts the session cookie it sets at login, and a browser
 * sends that cookie with a form or fetch another site starts (SameSite=Lax lets same-site pages and
 * top-level navigations through). So a call that can change something and is authenticated by the
 * cookie must come from the app itself: its Origin is one of ours, or, without Origin, the browser does
 * not mark it as from another site. Calls with a bearer token (or an API key) carry no ambient
 * credential and are not checked; neither are clients that send neither header (curl, servers), which
 * no other site can make a browser imitate.
 */
import { HttpError } from '../_shared/http.ts';
import { siteUrl } from '../_shared/env.ts';
import { REFRESH_COOKIE, SESSION_COOKIE, cookieValue } from '../_shared/cookies.ts';

/** The origins the legacy client runs on: the app (SITE_URL) and the API's own (SUPABASE_URL). */
function ownOrigins(): string[] {
  const out: string[] = [];
  for (const url of [siteUrl(), Deno.env.get('SUPABASE_URL') ?? '']) {
    try {
      out.push(new URL(url).origin);
    } catch {
      // not set: no origin from it
    }
  }
  return out;
}

/**
 * Whether another site made the browser send this request: it names itself in Origin (fetch, forms), or
 * the browser marks a request without Origin (a link, an image) as cross-site in Sec-Fetch-Site.
 * A same-site page on another origin (another subdomain) counts as another site.
 */
export function fromAnotherSite(req: Request): boolean {
  const origin = req.headers.get('origin');
  if (origin) return !ownOrigins().includes(origin);
  const site = req.headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request is authenticated by the session cookie (no Authorization header of its own). */
function cookieAuthenticated(req: Request): boolean {
  const authorization = req.headers.get('authorization');
  if (authorization && !/^Bearer\s+sck_/i.test(authorization)) return false;
  return cookieValue(req, SESSION_COOKIE) !== null || cookieValue(req, REFRESH_COOKIE) !== null;
}

/** 403 for a state-changing call authenticated by the cookie that another site started. */
export function refuseCrossSiteCookieWrite(req: Request): void {
  if (SAFE_METHODS.has(req.method) || !cookieAuthenticated(req)) return;
  if (fromAnotherSite(req))
    throw new HttpError(
      403,
      'This request came from another site; ScamCheck accepts changes only from its own pages',
    );
}
