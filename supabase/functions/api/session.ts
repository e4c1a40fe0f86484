/** The session cookie the legacy API sets at login: HttpOnly, so page scripts never read the token. */
import { SESSION_COOKIE } from '../_shared/supabase.ts';
import { siteUrl } from '../_shared/env.ts';

function secure(): string {
  return siteUrl().startsWith('https://') ? '; Secure' : '';
}

export function sessionCookie(accessToken: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(accessToken)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure()}`;
}

export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure()}`;
}
