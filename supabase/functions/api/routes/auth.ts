/** Register, confirm, log in and out (SPEC.md section 7, /auth/* and /verify/*). */
import type { Session } from 'npm:@supabase/supabase-js@2.109.0';
import { readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { loginSchema, parseFields, registerSchema } from '../../_shared/schemas.ts';
import { anonClient, clientFor, identify } from '../../_shared/supabase.ts';
import { siteUrl } from '../../_shared/env.ts';
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

export async function register({ req }: RouteContext): Promise<Response> {
  const input = parseFields(registerSchema, await readFields(req));
  const { error } = await anonClient().auth.signUp({
    email: input.email,
    password: input.password,
    options: { data: { name: input.name }, emailRedirectTo: `${siteUrl()}/login` },
  });
  if (error) throw authError(error);
  // The same answer whether or not the address was registered before (GoTrue does not tell either).
  return json({ msg: 'Please Confirm your email!', hash: await sealEmail(input.email) }, 201);
}

export async function verify({ params }: RouteContext): Promise<Response> {
  const parts = decodeVerifyParam(params.code);
  if (!parts || !parts.otp)
    throw new HttpError(400, 'The confirmation link is not valid: it must carry the code');
  const auth = anonClient().auth;
  const email = await openEmail(parts.id);
  let session: Session | null = null;
  if (email) {
    if (!/^\d{6,10}$/.test(parts.otp))
      throw new HttpError(400, 'The one-time password must be the digits from the e-mail');
    // Sign-up confirmations are 'signup' codes; a code asked for later (resend, sign-in) is 'email'.
    for (const type of ['signup', 'email'] as const) {
      const { data, error } = await auth.verifyOtp({ email, token: parts.otp, type });
      if (!error && data.session) {
        session = data.session;
        break;
      }
      if (error?.status === 429) throw authError(error);
    }
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

/**
 * Ends the session and clears the cookie. An expired or invalid token has no session left to end, so
 * logging out with one still succeeds: a stale cookie must never trap a user.
 */
export async function logout({ req }: RouteContext): Promise<Response> {
  const caller = await identify(req).catch(() => null);
  if (caller?.token) {
    // Ends the session on the Auth server too, so the token's refresh token is dead.
    const { error } = await anonClient().auth.admin.signOut(caller.token, 'local');
    if (error && error.status !== 401 && error.status !== 404) console.error('logout', error);
  }
  return withCookies(json({ msg: 'Logout Sucessfully' }), clearedCookies());
}
