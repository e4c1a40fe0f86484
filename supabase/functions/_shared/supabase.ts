/**
 * Per-request Supabase clients. Every database, storage and auth call a function makes on behalf of a
 * caller goes through `clientFor(caller)`, which carries the caller's own access token, so row-level
 * security decides exactly as it does for the SPA. The service-role client lives in service.ts.
 */
import {
  createClient,
  type SupabaseClient as UntypedClient,
  type User,
} from 'npm:@supabase/supabase-js@2.109.0';
import type { Database } from './database.ts';
import { HttpError } from './http.ts';
import { requireEnv } from './env.ts';
import { REFRESH_COOKIE, SESSION_COOKIE, cookieValue, sessionCookies } from './cookies.ts';

export type { Database, User };

/** A client typed by the generated schema (`npm run db:types`): tables, views and functions. */
export type SupabaseClient = UntypedClient<Database>;

export interface Caller {
  /** The signed-in user, or null for an anonymous visitor. */
  user: User | null;
  /** The caller's access token (null when anonymous). */
  token: string | null;
  /**
   * The caller's X-Forwarded-For, passed on to the Data API so the database's per-address rate limits
   * (private.client_address) see the caller, not this function.
   */
  forwardedFor?: string | null;
}

const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
} as const;

/** A client acting as the caller: anon when nobody is signed in, else the user's JWT. */
export function clientFor(caller: Pick<Caller, 'token' | 'forwardedFor'>): SupabaseClient {
  const anonKey = requireEnv('SUPABASE_ANON_KEY');
  const headers: Record<string, string> = caller.token ? { Authorization: `Bearer ${caller.token}` } : {};
  if (caller.forwardedFor) headers['X-Forwarded-For'] = caller.forwardedFor;
  return createClient<Database>(requireEnv('SUPABASE_URL'), anonKey, {
    ...clientOptions,
    global: { headers },
  });
}

let verifier: SupabaseClient | undefined;

/**
 * One anon client for checking tokens (`auth.getUser(token)`), shared by every request: given the
 * token, getUser neither reads nor stores a session, so the client holds nothing of any caller, and
 * building a client (auth, storage, realtime) per request cost a measurable share of the API's CPU.
 */
function tokenVerifier(): SupabaseClient {
  return (verifier ??= anonClient());
}

/** Whether an address is loopback, private, link-local, shared (CGNAT) or unspecified: never a client's. */
function nonPublic(ip: string): boolean {
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  const low = ip.toLowerCase();
  return low === '::' || low === '::1' || /^f[cd]/.test(low) || /^fe[89ab]/.test(low);
}

/**
 * The caller's address as this function's own edge appended it to X-Forwarded-For: the rightmost entry
 * that is a public address (entries to its left were written by the client; the runtime's own hops are
 * loopback or private), as private.client_address() reads the header in the database. Null when there
 * is none. This is what a function forwards to Auth, whose per-client limits read one address.
 */
export function callerAddress(forwardedFor: string | null | undefined): string | null {
  const entries = (forwardedFor ?? '').split(',').map((s) => s.trim());
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]
      .replace(/^\[([^\]]+)\](?::\d+)?$/, '$1')
      .replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
    const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(entry) || (/^[0-9a-f:.]+$/i.test(entry) && entry.includes(':'));
    if (isIp && !nonPublic(entry)) return entry;
  }
  return null;
}

/**
 * A client with no caller, for auth calls that start a session (sign-up, sign-in, verify). Given the
 * X-Forwarded-For of the person a function acts for, it forwards it, so Auth's per-client limits
 * (`[auth.rate_limit]`) count that person, not the function.
 */
export function anonClient(forwardedFor?: string | null): SupabaseClient {
  const caller = callerAddress(forwardedFor);
  return createClient<Database>(requireEnv('SUPABASE_URL'), requireEnv('SUPABASE_ANON_KEY'), {
    ...clientOptions,
    ...(caller ? { global: { headers: { 'X-Forwarded-For': caller } } } : {}),
  });
}

/** The `role` claim of a JWT without verifying it (verification is the Auth server's job). */
function unverifiedRole(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(new TextDecoder().decode(base64UrlDecode(parts[1])));
    return typeof payload?.role === 'string' ? payload.role : null;
  } catch {
    return null;
  }
}

export function base64UrlDecode(s: string): Uint8Array {
  const b64 = s
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(s.length / 4) * 4, '=');
  const bin = atob(b64);
  // A plain loop: Uint8Array.from with a mapping callback cost a measurable share of each request.
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * The Authorization header, unless it carries an API key ('Bearer sck_...'): a key names no user, it
 * only selects the caller's rate limit (api/limits.ts), so such a caller is as anonymous as one
 * without the header (or signed in by their session cookie).
 */
function sessionAuthorization(req: Request): string | null {
  const auth = req.headers.get('authorization');
  return auth && /^Bearer\s+sck_/i.test(auth) ? null : auth;
}

/** The bearer token or the session cookie, whichever the caller sent (the header wins). */
export function requestToken(req: Request): string | null {
  const auth = sessionAuthorization(req);
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new HttpError(401, 'Authorization header must be "Bearer <token>"');
    return m[1];
  }
  return cookieValue(req, SESSION_COOKIE);
}

/**
 * Who is calling. The anon key (what supabase.functions.invoke sends before sign-in) means an
 * anonymous visitor; any other token must be a valid, unexpired user session according to the Auth
 * server, else 401: a forged or expired token never falls back to anonymous.
 */
export function identify(req: Request): Promise<Caller> {
  // One Auth round trip per request, however many places ask.
  let caller = callers.get(req);
  if (!caller) {
    const forwardedFor = req.headers.get('x-forwarded-for');
    caller = lookUpCaller(req).then((c) => ({ ...c, forwardedFor }));
    callers.set(req, caller);
  }
  return caller;
}

const callers = new WeakMap<Request, Promise<Caller>>();

async function lookUpCaller(req: Request): Promise<Caller> {
  const token = requestToken(req);
  const fromCookie = !sessionAuthorization(req);
  if (!token) return fromCookie ? refreshFromCookie(req) : { user: null, token: null };
  const role = unverifiedRole(token);
  if (role === 'anon' && token === requireEnv('SUPABASE_ANON_KEY')) return { user: null, token: null };
  const { data, error } =
    role === 'authenticated'
      ? await tokenVerifier().auth.getUser(token)
      : { data: { user: null }, error: null };
  if (!error && data.user) return { user: data.user, token };
  if (error && (error.name === 'AuthRetryableFetchError' || (error.status ?? 0) >= 500)) {
    // The Auth server is down or unreachable: that says nothing about the token.
    throw new HttpError(503, 'The sign-in service is unavailable, please try again');
  }
  // An expired access cookie beside a refresh cookie is a session to renew, not an attack.
  if (fromCookie && cookieValue(req, REFRESH_COOKIE)) return refreshFromCookie(req);
  throw new HttpError(401, 'Invalid or expired token, please log in again');
}

/** Cookies a request renewed (refreshed session), for the answer to set. */
const renewed = new WeakMap<Request, string[]>();

export function renewedCookies(req: Request): string[] {
  return renewed.get(req) ?? [];
}

async function refreshFromCookie(req: Request): Promise<Caller> {
  const refreshToken = cookieValue(req, REFRESH_COOKIE);
  if (!refreshToken) return { user: null, token: null };
  const { data, error } = await anonClient().auth.refreshSession({ refresh_token: refreshToken });
  if (error || !data.session || !data.user)
    throw new HttpError(401, 'Your session has ended, please log in again');
  renewed.set(req, sessionCookies(data.session));
  return { user: data.user, token: data.session.access_token };
}

/** Like identify, but a signed-in user is required. */
export async function requireUser(req: Request): Promise<Caller & { user: User; token: string }> {
  const caller = await identify(req);
  if (!caller.user || !caller.token) throw new HttpError(401, 'Authentication Invalid, please log in');
  return caller as Caller & { user: User; token: string };
}

/** Whether the user holds the admin role, read as the caller (user_roles under RLS shows one's own roles). */
export async function isAdmin(client: SupabaseClient, userId: string): Promise<boolean> {
  const { data, error } = await client
    .from('user_roles')
    .select('role')
    .eq('user_id', userId)
    .eq('role', 'admin');
  if (error) {
    console.error('reading user_roles failed', error);
    throw new HttpError(502, 'Could not read your role right now, please try again');
  }
  return (data ?? []).length > 0;
}
