/** Register, confirm, log in and out (docs/behaviour.md §7, /auth/* and /verify/*). */
import type { Session } from 'npm:@supabase/supabase-js@2.109.0';
import { readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { loginSchema, parseFields, registerSchema } from '../../_shared/schemas.ts';
import { anonClient, clientFor, identify } from '../../_shared/supabase.ts';
import { siteUrl } from '../../_shared/env.ts';
import { escapeHtml, sendMail, type Mail } from '../../_shared/mail.ts';
import { serviceClient } from '../../_shared/service.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';
import { decodeVerifyParam, openEmail, sealEmail } from '../otp-id.ts';
import { clearedCookies, sessionCookies, withCookies } from '../../_shared/cookies.ts';
import { userOut } from './users.ts';

/** GoTrue's refusals as the legacy API answers them (status and message), without leaking accounts. */
function authError(error: { status?: number; code?: string; message: string }): HttpError {
  const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 400;
  if (error.code === 'email_not_confirmed') return new HttpError(403, 'Please Confirm your email!');
  if (error.code === 'invalid_credentials') return new HttpError(401, 'Invalid Credentials');
  if (status === 429) return new HttpError(429, 'Too many attempts, please wait a moment and try again');
  if (error.code === 'weak_password') return new HttpError(400, error.message);
  if (error.status && error.status >= 500) {
    console.error('auth error', error);
    return new HttpError(502, 'The sign-in service is unavailable, please try again');
  }
  return new HttpError(status, error.message);
}

async function sessionAnswer(session: Session, msg: string, status = 200): Promise<Response> {
  const profile = await userOut(clientFor({ token: session.access_token }), session.user);
  const body = {
    msg,
    user: profile,
    token: session.access_token,
    refreshToken: session.refresh_token,
    expiresIn: session.expires_in,
  };
  return withCookies(json(body, status), sessionCookies(session));
}

/**
 * Register. An address that already has an account gets the same answer, but nothing is created or
 * confirmed for it: its owner is told by e-mail instead (at most `code_issues` notices an hour), so the
 * call can neither tell an outsider who is registered nor start a code for someone else's account.
 */
export async function register({ req }: RouteContext): Promise<Response> {
  const input = parseFields(registerSchema, await readFields(req));
  const { data: check, error: checkError } = await serviceClient().rpc('auth_register_check', {
    p_email: input.email,
  });
  if (checkError) throw dbError(checkError, 'check the address');
  const { existing, notify } = check as { existing: boolean; notify: boolean };
  if (existing) {
    if (notify) await sendMail(existingAccountMail(input.email));
  } else {
    const { error } = await anonClient().auth.signUp({
      email: input.email,
      password: input.password,
      options: { data: { name: input.name }, emailRedirectTo: `${siteUrl()}/login` },
    });
    if (error) throw authError(error);
  }
  return json({ msg: 'Please Confirm your email!', hash: await sealEmail(input.email) }, 201);
}

function existingAccountMail(to: string): Mail {
  const login = `${siteUrl()}/login`;
  const reset = `${siteUrl()}/forgot-password`;
  const text =
    'Someone tried to register a new ScamCheck account with this e-mail address, which already has an ' +
    `account. If it was you, log in at ${login} or reset your password at ${reset}. ` +
    'If it was not you, you can ignore this message: nothing was changed.';
  return {
    to,
    subject: 'You already have a ScamCheck account',
    text,
    html: `<p>${escapeHtml(text)}</p>`,
  };
}

/**
 * Checks a typed sign-up code in the database (public.auth_check_signup_code): the try is counted there
 * whoever calls, a code that has had its tries is deleted, and only a right code's stored token hash is
 * answered, for Auth to exchange. Typed codes never go to Auth from here.
 */
async function checkSignupCode(req: Request, email: string, code: string): Promise<string> {
  const { data, error } = await serviceClient(req.headers.get('x-forwarded-for')).rpc(
    'auth_check_signup_code',
    {
      p_email: email,
      p_code: code,
    },
  );
  if (error) throw dbError(error, 'check the code');
  const check = data as { ok: boolean; reason?: string; retry_after?: number; token_hash?: string };
  if (check.ok && check.token_hash) return check.token_hash;
  if (check.reason === 'wrong') throw new HttpError(400, 'The code is wrong or has expired');
  if (check.reason === 'code_spent')
    throw new HttpError(400, 'This code was tried too many times and no longer works; ask for a new code');
  throw new HttpError(
    429,
    'Too many attempts, please wait a moment and try again',
    {},
    { 'Retry-After': String(check.retry_after ?? 60) },
  );
}

export async function verify({ req, params }: RouteContext): Promise<Response> {
  const parts = decodeVerifyParam(params.code);
  if (!parts || !parts.otp)
    throw new HttpError(400, 'The confirmation link is not valid: it must carry the code');
  const auth = anonClient().auth;
  const email = await openEmail(parts.id);
  let session: Session | null = null;
  if (email) {
    if (!/^\d{6,10}$/.test(parts.otp))
      throw new HttpError(400, 'The one-time password must be the digits from the e-mail');
    // The id comes from register, so the code is a sign-up confirmation: an account that is confirmed
    // already has none, and its sign-in codes are not accepted here.
    const tokenHash = await checkSignupCode(req, email, parts.otp);
    const { data, error } = await auth.verifyOtp({ token_hash: tokenHash, type: 'signup' });
    session = error ? null : data.session;
    const { error: resultError } = await serviceClient().rpc('auth_code_try_result', {
      p_email: email,
      p_ok: !!session,
    });
    if (resultError) throw dbError(resultError, 'record the try');
    if (error?.status === 429) throw authError(error);
  } else {
    // The link from the confirmation e-mail carries Supabase's token hash instead of the sealed id.
    const { data, error } = await auth.verifyOtp({ token_hash: parts.id, type: 'signup' });
    if (error?.status === 429) throw authError(error);
    session = error ? null : data.session;
  }
  if (!session) throw new HttpError(400, 'The code is wrong or has expired');
  return sessionAnswer(session, 'Email Confirmed');
}

export async function login({ req }: RouteContext): Promise<Response> {
  const input = parseFields(loginSchema, await readFields(req));
  const { data, error } = await anonClient().auth.signInWithPassword({
    email: input.email,
    password: input.password,
  });
  if (error || !data.session)
    throw authError(error ?? { message: 'Invalid Credentials', code: 'invalid_credentials' });
  return sessionAnswer(data.session, 'Login Sucessfully');
}

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
 */
function fromAnotherSite(req: Request): boolean {
  const origin = req.headers.get('origin');
  if (origin) return !ownOrigins().includes(origin);
  const site = req.headers.get('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

/**
 * Ends the session and clears the cookie (POST, and GET as docs/behaviour.md §7 lists it). Another site
 * cannot log a user out: a request it started is refused and changes nothing. An expired or invalid
 * token has no session left to end, so logging out with one still succeeds: a stale cookie must never
 * trap a user.
 */
export async function logout({ req }: RouteContext): Promise<Response> {
  if (fromAnotherSite(req))
    throw new HttpError(403, 'Log out from ScamCheck itself: another site cannot log you out');
  const caller = await identify(req).catch(() => null);
  if (caller?.token) {
    // Ends the session on the Auth server too, so the token's refresh token is dead.
    const { error } = await anonClient().auth.admin.signOut(caller.token, 'local');
    if (error && error.status !== 401 && error.status !== 404) console.error('logout', error);
  }
  return withCookies(json({ msg: 'Logout Sucessfully' }), clearedCookies());
}
