/** Register, confirm, log in and out (docs/behaviour.md §7, /auth/* and /verify/*). */
import type { Session } from 'npm:@supabase/supabase-js@2.109.0';
import { readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { loginSchema, parseFields, registerSchema } from '../../_shared/schemas.ts';
import { anonClient, clientFor, identify } from '../../_shared/supabase.ts';
import { siteUrl } from '../../_shared/env.ts';
import { escapeHtml, sendMail, type Mail } from '../../_shared/mail.ts';
import { serviceClient } from '../../_shared/service.ts';
import { takeRecipient } from '../../_shared/quoted-text.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';
import { decodeVerifyParam, openEmail, sealEmail } from '../otp-id.ts';
import { clearedCookies, sessionCookies, withCookies } from '../../_shared/cookies.ts';
import { userOut } from './users.ts';
import { fromAnotherSite } from '../csrf.ts';

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
 * confirmed for it: its owner is told by e-mail instead, so the call can neither tell an outsider who is
 * registered nor start a code for someone else's account. Every e-mail register causes spends the
 * recipient's daily allowance (public.mail_recipient_take): the notice here (takeRecipient), the sign-up
 * confirmation in Auth's Send Email hook (send-email), which makes Auth answer 429 past it; both kinds
 * of address then get the same 429. The sign-up goes to Auth with the caller's address, so Auth's
 * sign-up limit counts the caller.
 */
export async function register({ req }: RouteContext): Promise<Response> {
  return await fixedTime(async () => {
    const input = parseFields(registerSchema, await readFields(req));
    const { data: existing, error: checkError } = await serviceClient().rpc('auth_register_lookup', {
      p_email: input.email,
    });
    if (checkError) throw dbError(checkError, 'check the address');
    if (existing) {
      await takeRecipient(input.email);
      await sendMail(existingAccountMail(input.email));
    } else {
      const { error } = await anonClient(forwardedFor(req)).auth.signUp({
        email: input.email,
        password: input.password,
        options: { data: { name: input.name }, emailRedirectTo: `${siteUrl()}/login` },
      });
      if (error?.code === 'over_email_send_rate_limit') throw tooManyMails();
      if (error) throw authError(error);
    }
    return json({ msg: 'Please Confirm your email!', hash: await sealEmail(input.email) }, 201);
  });
}

function tooManyMails(retryAfter = 3600): HttpError {
  return new HttpError(
    429,
    'Too many e-mails were sent to this address today; please try again later',
    {},
    { 'Retry-After': String(retryAfter) },
  );
}

/** The caller's X-Forwarded-For, which every call to Auth and the database on their behalf carries. */
function forwardedFor(req: Request): string | null {
  return req.headers.get('x-forwarded-for');
}

/**
 * The account a password for an address without one is checked against, so Auth spends the same work
 * (find the user, compare a bcrypt hash) whether or not the address has an account, on hosted GoTrue as
 * on the local stand-in. Created once through Auth's admin API with a random password nobody ever
 * sees, so no password signs in to it; its address is on a reserved domain (RFC 2606), so no mail
 * reaches anyone. It shows in the admin user list as "Sign-in timing decoy".
 */
export const DECOY_EMAIL = 'sign-in-timing-decoy@scamcheck.invalid';
let decoy: Promise<string> | undefined;

function decoyEmail(): Promise<string> {
  decoy ??= (async () => {
    const password = `${crypto.randomUUID()}${crypto.randomUUID()}`;
    const { error } = await serviceClient().auth.admin.createUser({
      email: DECOY_EMAIL,
      password,
      email_confirm: true,
      user_metadata: { name: 'Sign-in timing decoy' },
    });
    if (error && error.code !== 'email_exists' && error.status !== 422) {
      decoy = undefined;
      throw authError(error);
    }
    return DECOY_EMAIL;
  })();
  return decoy;
}

/**
 * How long the answers of login and register take at least, whatever happened: Auth answers an unknown
 * address at once but spends a password hash on a known one, so without a floor the time would tell
 * who has an account (docs/security.md "Timing"). Above what Auth's bcrypt check and a sign-up take.
 */
export const ANSWER_FLOOR_MS = 600;

/** Runs `work` and answers (or fails) no sooner than ANSWER_FLOOR_MS after the start. */
export async function fixedTime<T>(work: () => Promise<T>, floorMs = ANSWER_FLOOR_MS): Promise<T> {
  const started = performance.now();
  const wait = () => {
    const left = floorMs - (performance.now() - started);
    return left > 0 ? new Promise((r) => setTimeout(r, left)) : Promise.resolve();
  };
  try {
    const result = await work();
    await wait();
    return result;
  } catch (e) {
    await wait();
    throw e;
  }
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
  const { data, error } = await serviceClient(forwardedFor(req)).rpc('auth_check_signup_code', {
    p_email: email,
    p_code: code,
  });
  if (error) throw dbError(error, 'check the code');
  const check = data as { ok: boolean; reason?: string; retry_after?: number; token_hash?: string };
  if (check.ok && check.token_hash) return check.token_hash;
  if (check.reason === 'wrong') throw new HttpError(400, 'The code is wrong or has expired');
  if (check.reason === 'code_spent')
    throw new HttpError(400, 'This code was tried too many times and no longer works; ask for a new code');
  throw tooManyAttempts(check.retry_after);
}

function tooManyAttempts(retryAfter = 60): HttpError {
  return new HttpError(
    429,
    'Too many attempts, please wait a moment and try again',
    {},
    { 'Retry-After': String(retryAfter) },
  );
}

/**
 * One token-hash try of the e-mail link's form, counted against the caller's address in the database
 * (public.auth_verify_link_try, the `auth_verify.ip` limit the typed codes spend too) before Auth sees
 * it. A token hash names no account, so only the caller can be counted; Auth counts the caller again
 * (token_verifications), since the call carries the caller's address.
 */
async function claimLinkTry(req: Request): Promise<void> {
  const { data, error } = await serviceClient(forwardedFor(req)).rpc('auth_verify_link_try');
  if (error) throw dbError(error, 'check the link');
  const check = data as { ok: boolean; retry_after?: number };
  if (!check.ok) throw tooManyAttempts(check.retry_after);
}

export async function verify({ req, params }: RouteContext): Promise<Response> {
  const parts = decodeVerifyParam(params.code);
  if (!parts || !parts.otp)
    throw new HttpError(400, 'The confirmation link is not valid: it must carry the code');
  const auth = anonClient(forwardedFor(req)).auth;
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
    // The link from the confirmation e-mail carries Supabase's token hash instead of the sealed id:
    // 56 hex digits (SHA-224), anything else is refused before it costs a try.
    if (!/^(pkce_)?[0-9a-f]{56}$/.test(parts.id))
      throw new HttpError(400, 'The code is wrong or has expired');
    await claimLinkTry(req);
    const { data, error } = await auth.verifyOtp({ token_hash: parts.id, type: 'signup' });
    if (error?.status === 429) throw authError(error);
    session = error ? null : data.session;
  }
  if (!session) throw new HttpError(400, 'The code is wrong or has expired');
  return sessionAnswer(session, 'Email Confirmed');
}

/**
 * Log in. Each try first spends one of the account's tries in the database (public.auth_login_claim:
 * 10 per 15 minutes per address, whether or not it has an account; a right password clears them), then
 * goes to Auth with the caller's address, so Auth's own per-client limit counts the caller too. An
 * address without an account is checked against the decoy account (DECOY_EMAIL), so Auth does the
 * same work, and every answer comes no sooner than ANSWER_FLOOR_MS: the time does not tell whether
 * the account exists.
 */
export async function login({ req }: RouteContext): Promise<Response> {
  const input = parseFields(loginSchema, await readFields(req));
  return await fixedTime(async () => {
    const db = serviceClient();
    const { data: claim, error: claimError } = await db.rpc('auth_login_claim', { p_email: input.email });
    if (claimError) throw dbError(claimError, 'check the sign-in');
    const check = claim as { ok: boolean; retry_after?: number; known?: boolean };
    if (!check.ok) throw tooManyAttempts(check.retry_after);
    // An address without an account is checked against the decoy instead: the same work in Auth, and
    // the same per-client limit spent, then the same answer.
    const email = check.known ? input.email : await decoyEmail();
    const { data, error } = await anonClient(forwardedFor(req)).auth.signInWithPassword({
      email,
      password: input.password,
    });
    if (!check.known)
      throw authError(error ?? { message: 'Invalid Credentials', code: 'invalid_credentials' });
    if (error || !data.session)
      throw authError(error ?? { message: 'Invalid Credentials', code: 'invalid_credentials' });
    const { error: resultError } = await db.rpc('auth_login_result', { p_email: input.email, p_ok: true });
    if (resultError) throw dbError(resultError, 'record the sign-in');
    return sessionAnswer(data.session, 'Login Sucessfully');
  });
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
