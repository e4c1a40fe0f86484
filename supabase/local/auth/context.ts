/**
 * What every auth endpoint shares: settings, limits, the mailer, request parsing, the checks GoTrue makes
 * on e-mail addresses, passwords and redirect URLs, and the access-token check behind `requireAuthentication`.
 */
import crypto from 'node:crypto';
import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { verifyToken, type JwtError, type JwtFailure } from '../jwt.ts';
import { jsonTooDeep, readBody } from '../http.ts';
import type { ServiceContext } from '../gateway.ts';
import { AuthError, badRequest, forbidden, tooManyRequests } from './errors.ts';
import type { HookCall } from './hook.ts';
import { Mailer, type Mail } from './mailer.ts';
import { KeyedBucket, WindowLimit } from './ratelimit.ts';
import type { AuthSettings, TemplateKind } from './settings.ts';
import type { ClientInfo } from './sessions.ts';
import { findUserById, type Db, type UserRow } from './store.ts';

export interface Auth {
  settings: AuthSettings;
  pool: pg.Pool;
  mailer: Mailer;
  ctx: ServiceContext;
  limits: {
    verify: KeyedBucket;
    token: KeyedBucket;
    otp: KeyedBucket;
    recover: KeyedBucket;
    resend: KeyedBucket;
    signup: KeyedBucket;
    user: KeyedBucket;
    email: WindowLimit;
  };
}

export function createAuth(ctx: ServiceContext, settings: AuthSettings): Auth {
  // tollbooth limiters as GoTrue configures them: N requests per 5 minutes, bursts of 30.
  const per5m = (n: number) => new KeyedBucket(n / 300, 30);
  return {
    settings,
    pool: ctx.pool,
    mailer: new Mailer(settings),
    ctx,
    limits: {
      verify: per5m(settings.rateLimit.tokenVerifications),
      token: per5m(settings.rateLimit.tokenRefresh),
      otp: per5m(settings.rateLimit.signInSignUps),
      recover: per5m(settings.rateLimit.signInSignUps),
      resend: per5m(settings.rateLimit.signInSignUps),
      signup: per5m(settings.rateLimit.signInSignUps),
      user: per5m(settings.rateLimit.signInSignUps),
      email: new WindowLimit(settings.rateLimit.emailSent, 3_600_000),
    },
  };
}

/** One request: its parsed parts, and the e-mails to send once its transaction has committed. */
export interface Rq {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  body: Record<string, unknown>;
  client: ClientInfo;
  /** The client address per-client limits key on (see `limit`); undefined when a trusted proxy sent none. */
  address?: string;
  aud: string;
  mails: Mail[];
  /** Calls of the Send Email hook, made inside the request's transaction before it commits (hook.ts). */
  hooks: HookCall[];
  /** Text messages (phone codes) to send once the transaction has committed. */
  sms: { to: string; body: string }[];
  /** The role of an admin caller (service_role), once the admin check has passed. */
  adminRole?: string;
}

export async function parseRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  trustedProxies: number,
): Promise<Rq> {
  let body: Record<string, unknown> = {};
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const raw = await readBody(req, 1024 * 1024);
    const type = String(req.headers['content-type'] ?? '');
    if (raw.length && type.includes('application/x-www-form-urlencoded')) {
      body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    } else if (raw.length) {
      // Go's decoder refuses past its depth; PostgreSQL would fail on deep metadata with a 500.
      if (jsonTooDeep(raw.toString('utf8')))
        throw badRequest('bad_json', 'Could not parse request body as JSON: json: exceeded max depth');
      try {
        const parsed = JSON.parse(raw.toString('utf8')) as unknown;
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('expected a JSON object');
        body = parsed as Record<string, unknown>;
      } catch (e) {
        throw badRequest('bad_json', `Could not parse request body as JSON: ${(e as Error).message}`);
      }
    }
  }
  const address = clientAddressFrom(
    String(req.headers['x-forwarded-for'] ?? ''),
    req.socket.remoteAddress,
    trustedProxies,
  );
  const aud = String(req.headers['x-jwt-aud'] ?? '') || 'authenticated';
  return {
    req,
    res,
    url,
    body,
    aud,
    mails: [],
    hooks: [],
    sms: [],
    address,
    client: {
      userAgent: String(req.headers['user-agent'] ?? '') || undefined,
      // Only a well-formed address is recorded (sessions.ip is inet); anything else is ignored.
      ip: [address, req.socket.remoteAddress].find((a) => a && net.isIP(a)) || undefined,
    },
  };
}

/**
 * The client address per-client limits key on, as GoTrue keys them on its configured rate-limit header.
 * X-Forwarded-For is written by whoever sends the request: each proxy appends the address it received
 * the request from, and anything to the left of what trusted proxies appended was typed by the client.
 * So the header is read only when the stack is told how many trusted proxies append to it
 * (`trustedProxies`): the client is then the entry the outermost trusted proxy appended, the
 * `trustedProxies`-th from the right. With none, the header is ignored and the client is the connection's
 * peer. When a trusted proxy's entry is missing there is no client address (GoTrue applies no
 * per-client limit when its header is missing).
 */
export function clientAddressFrom(
  forwardedFor: string | null | undefined,
  peer: string | null | undefined,
  trustedProxies: number,
): string | undefined {
  if (!(trustedProxies > 0)) return peer?.trim() || undefined;
  // An empty entry counts as one: it is where a trusted proxy wrote nothing, so there is no address.
  const entries = (forwardedFor ?? '').split(',').map((s) => s.trim());
  return entries[entries.length - Math.floor(trustedProxies)] || undefined;
}

/**
 * The key a per-client limit counts under: an IPv4 address whole, an IPv6 address by its /64 (what one
 * subscriber is given, RFC 6177), so rotating addresses inside one /64 does not buy new buckets.
 * Hosted GoTrue keys its tollbooth buckets on the whole value of its rate-limit header, with no /64
 * grouping (supabase/auth internal/api/middleware.go, performRateLimiting); docs/security.md says what
 * that means for the odds there. Anything that is not an address is its own key.
 */
export function rateLimitKey(address: string): string {
  const bare = address.replace(/^\[|\](?::\d+)?$/g, '').replace(/%.*$/, '');
  if (net.isIPv6(bare)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
    if (mapped) return mapped[1];
    return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
  }
  return bare;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = text.slice(0, v4.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g || '0', 16).toString(16));
}

/**
 * Per-client limits (GoTrue's tollbooth buckets), keyed by the client address: the connection's peer, or
 * the entry a trusted proxy appended to X-Forwarded-For when the stack is configured with trusted proxies
 * (StackConfig.trustedProxies). A value the client typed into that header never picks the bucket; an
 * IPv6 client counts by its /64 (rateLimitKey).
 */
export function limit(bucket: KeyedBucket, rq: Rq) {
  if (rq.address && !bucket.take(rateLimitKey(rq.address)))
    throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

// github.com/badoux/checkmail's format check, which GoTrue uses.
const EMAIL_RE =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's validateEmail: required, at most 255 characters, well formed; answers it lowercased. */
export function validateEmail(email: string): string {
  if (!email) throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_RE.test(email))
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  return email.toLowerCase();
}

/** GoTrue's password strength check; the error carries `weak_password.reasons`. */
export function passwordWeakness(settings: AuthSettings, password: string): AuthError | undefined {
  if (Buffer.byteLength(password) > 72)
    return badRequest('validation_failed', 'Password cannot be longer than 72 characters');
  const reasons: string[] = [];
  const messages: string[] = [];
  if (Buffer.byteLength(password) < settings.minimumPasswordLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${settings.minimumPasswordLength} characters.`);
  }
  if (settings.requiredCharacters.some((set) => set && ![...password].some((c) => set.includes(c)))) {
    reasons.push('characters');
    messages.push(
      `Password should contain at least one character of each: ${settings.requiredCharacters.join(', ')}.`,
    );
  }
  if (!reasons.length) return undefined;
  const message = messages.join(' ');
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons } });
}

export function checkPassword(settings: AuthSettings, password: string) {
  const weakness = passwordWeakness(settings, password);
  if (weakness) throw weakness;
}

/** A random numeric code of `digits` digits, zero-padded (crypto.GenerateOtp). */
/** GoTrue's validatePhone: the + and spaces around it dropped, then E.164 digits. */
export function validatePhone(phone: string): string {
  const digits = phone.trim().replace(/^\+/, '').trim();
  if (!/^[1-9]\d{1,14}$/.test(digits))
    throw badRequest('validation_failed', 'Invalid phone number format (E.164 required)');
  return digits;
}

export function generateOtp(digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += crypto.randomInt(10).toString();
  return out;
}

/** GoTrue's token hash: hex SHA-224 of the address followed by the code. */
export function tokenHash(emailOrPhone: string, otp: string): string {
  return crypto
    .createHash('sha224')
    .update(emailOrPhone + otp)
    .digest('hex');
}

function globToRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^./]*';
    else if (c === '?') re += '[^./]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** GoTrue's IsRedirectURLValid: the site's own origin, loopback addresses, or an allow-listed pattern. */
export function isRedirectAllowed(settings: AuthSettings, redirect: string): boolean {
  if (!redirect) return false;
  let base: URL;
  let ref: URL;
  try {
    base = new URL(settings.siteUrl);
    ref = new URL(redirect);
  } catch {
    return false;
  }
  const loopback = (h: string) => h === 'localhost' || h === '127.0.0.1' || h === '[::1]';
  if (
    base.hostname === ref.hostname &&
    base.protocol === ref.protocol &&
    (base.port === ref.port || loopback(ref.hostname))
  )
    return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ref.hostname)) {
    // WHATWG URLs rewrite an IPv4 address typed another way (decimal "2130706433", "0x7f000001", "127.1",
    // a tab inside, no "//" after "http:", a space before the scheme) to dotted form; Go's url.Parse and
    // net.ParseIP, which GoTrue uses, do not, so it refuses those. The host must be typed as it parses.
    const typed = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]*)/i.exec(redirect)?.[1];
    return typed === ref.hostname && loopback(ref.hostname);
  }
  if (ref.hostname.startsWith('[')) return loopback(ref.hostname);
  const withoutFragment = redirect.split('#')[0];
  return settings.additionalRedirectUrls.some((p) => globToRegExp(p).test(withoutFragment));
}

/** Where links in e-mails lead after verification: `redirect_to` if allowed, else the Referer, else the site. */
export function referrer(auth: Auth, rq: Rq): string {
  const asked = rq.url.searchParams.get('redirect_to') ?? str(rq.body['redirect_to']);
  if (isRedirectAllowed(auth.settings, asked)) return asked;
  const ref = String(rq.req.headers['referer'] ?? '');
  if (isRedirectAllowed(auth.settings, ref)) return ref;
  return auth.settings.siteUrl;
}

function encodeRedirect(url: string): string {
  return /[&=#]/.test(url) ? encodeURIComponent(url) : url;
}

/** The link in an e-mail: GoTrue's /verify with the hashed token, the verification type and the redirect. */
export function verifyLink(auth: Auth, hash: string, type: string, redirectTo: string): string {
  return `${auth.settings.externalUrl}/verify?token=${encodeURIComponent(hash)}&type=${encodeURIComponent(type)}&redirect_to=${encodeRedirect(redirectTo)}`;
}

/** Refuses a new e-mail of this kind sooner than `max_frequency` after the last one. */
export function checkFrequency(auth: Auth, sentAt: string | null) {
  if (!sentAt) return;
  const next = new Date(sentAt).getTime() + auth.settings.email.maxFrequencyMs;
  if (next > Date.now()) {
    const seconds = Math.floor((next - Date.now()) / 1000);
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    );
  }
}

/** The project's e-mails per hour (`email_sent`), which GoTrue applies before it sends or calls the hook. */
function checkEmailRate(auth: Auth) {
  if (
    auth.settings.rateLimit.emailSent <= 0 ||
    (auth.settings.rateLimit.emailSentApplies &&
      !auth.settings.email.autoconfirm &&
      !auth.limits.email.allow())
  ) {
    throw tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded');
  }
}

/** Renders an e-mail and queues it; it leaves when the request's transaction commits. */
export function queueMail(auth: Auth, rq: Rq, kind: TemplateKind, to: string, data: Record<string, unknown>) {
  checkEmailRate(auth);
  rq.mails.push(auth.mailer.render(kind, to, data));
}

/**
 * One e-mail of Auth (an e-mail change's two are one call): with `[auth.hook.send_email]` enabled, a call
 * of the hook, made before the request's transaction commits as GoTrue makes it; otherwise the e-mails
 * `direct` renders and queues.
 */
export function queueAuthEmail(auth: Auth, rq: Rq, call: HookCall, direct: () => void) {
  if (!auth.settings.sendEmailHook) return direct();
  checkEmailRate(auth);
  rq.hooks.push(call);
}

/** The template variables GoTrue passes for a code-carrying e-mail. */
export function mailData(
  auth: Auth,
  user: UserRow,
  extra: { otp: string; hash: string; type: string; redirectTo: string },
) {
  return {
    SiteURL: auth.settings.siteUrl,
    ConfirmationURL: verifyLink(auth, extra.hash, extra.type, extra.redirectTo),
    Email: user.email ?? '',
    Token: extra.otp,
    TokenHash: extra.hash,
    Data: user.raw_user_meta_data ?? {},
    RedirectTo: extra.redirectTo,
  };
}

export interface Caller {
  claims: Record<string, unknown> & {
    sub?: string;
    role?: string;
    session_id?: string;
    aud?: string | string[];
  };
  user?: UserRow;
  sessionId?: string;
}

/** The bearer token GoTrue requires, with its exact errors. */
export function bearer(rq: Rq): string {
  // The CLI's API gateway sends the apikey on as the bearer token when a request has no Authorization.
  const authorization =
    rq.req.headers['authorization'] ??
    (rq.req.headers['apikey'] ? `Bearer ${String(rq.req.headers['apikey'])}` : '');
  const m = /^bearer (\S+)$/i.exec(String(authorization));
  if (!m) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return m[1];
}

const REASONS: Partial<Record<JwtFailure, string>> = {
  expired: 'token has invalid claims: token is expired',
  signature: 'token signature is invalid: signature is invalid',
  algorithm: 'token signature is invalid: signing method is invalid',
};

export async function parseJwt(token: string): Promise<Caller['claims']> {
  try {
    return (await verifyToken(token)) as Caller['claims'];
  } catch (e) {
    const failure = e as JwtError;
    const reason =
      REASONS[failure.reason] ??
      (failure.reason === 'claims' ||
      failure.reason === 'not-yet-valid' ||
      failure.reason === 'issued-in-future'
        ? `token has invalid claims: ${failure.message}`
        : 'token is malformed');
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

/** requireAuthentication: a valid access token whose user (and session, if named) still exist. */
export async function authenticate(db: Db, rq: Rq): Promise<Caller & { user: UserRow }> {
  const claims = await parseJwt(bearer(rq));
  if (!claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(claims.sub)) {
    throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  }
  const user = await findUserById(db, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  let sessionId: string | undefined;
  if (claims.session_id && claims.session_id !== '00000000-0000-0000-0000-000000000000') {
    const { rowCount } = await db.query('select 1 from auth.sessions where id = $1', [claims.session_id]);
    if (!rowCount)
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    sessionId = claims.session_id;
  }
  if (user.banned_until && new Date(user.banned_until).getTime() > Date.now())
    throw forbidden('user_banned', 'User is banned');
  return { claims, user, sessionId };
}

/** requireAdminCredentials: a valid JWT whose role is an admin role (service_role, supabase_admin). */
export async function requireAdmin(rq: Rq): Promise<Caller['claims']> {
  const claims = await parseJwt(bearer(rq));
  if (claims.role !== 'service_role' && claims.role !== 'supabase_admin')
    throw forbidden('not_admin', 'User not allowed');
  return claims;
}
