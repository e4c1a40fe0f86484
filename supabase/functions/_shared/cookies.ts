/**
 * The legacy API's session cookies, both HttpOnly so page scripts never read them:
 * - scamcheck_session holds the access token and lives as long as it (an hour by default);
 * - scamcheck_refresh holds the refresh token, so a cookie-only client stays signed in: when the
 *   access cookie has gone, the next call refreshes the session and sets both cookies anew.
 * SameSite=Lax keeps other sites from sending them with their POST, PATCH and DELETE requests.
 */
import { siteUrl } from './env.ts';

export const SESSION_COOKIE = 'scamcheck_session';
export const REFRESH_COOKIE = 'scamcheck_refresh';
const REFRESH_MAX_AGE = 30 * 86_400;

function attributes(maxAge: number): string {
  const secure = siteUrl().startsWith('https://') ? '; Secure' : '';
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAge))}${secure}`;
}

/** Set-Cookie values for a new or refreshed session. */
export function sessionCookies(session: {
  access_token: string;
  refresh_token: string;
  expires_in?: number;
}): string[] {
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(session.access_token)}; ${attributes(session.expires_in ?? 3600)}`,
    `${REFRESH_COOKIE}=${encodeURIComponent(session.refresh_token)}; ${attributes(REFRESH_MAX_AGE)}`,
  ];
}

/** Set-Cookie values that delete both cookies. */
export function clearedCookies(): string[] {
  return [`${SESSION_COOKIE}=; ${attributes(0)}`, `${REFRESH_COOKIE}=; ${attributes(0)}`];
}

export function cookieValue(req: Request, name: string): string | null {
  const header = req.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim()) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Adds Set-Cookie headers to an answer. */
export function withCookies(res: Response, cookies: string[]): Response {
  for (const c of cookies) res.headers.append('Set-Cookie', c);
  return res;
}
