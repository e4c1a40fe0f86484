/**
 * The endpoints supabase-js calls for end users: sign-up, sign-in, token refresh, e-mail codes and links,
 * password recovery, the user's own record and sign-out. Each follows the GoTrue handler of the same name.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { sendJson } from '../http.ts';
import {
  authenticate,
  checkFrequency,
  checkPassword,
  generateOtp,
  limit,
  mailData,
  obj,
  passwordWeakness,
  queueAuthEmail,
  queueMail,
  referrer,
  str,
  tokenHash,
  validateEmail,
  validatePhone,
  type Auth,
  type Rq,
} from './context.ts';
import { AuthError, badRequest, forbidden, tooManyRequests, unprocessable } from './errors.ts';
import { hookCall } from './hook.ts';
import {
  PKCE_PREFIX,
  createFlowState,
  flowMethod,
  issueAuthCode,
  pkceGrant,
  pkceParams,
  type Pkce,
} from './pkce.ts';
import { issueSession, logout, refreshSession, type TokenResponse } from './sessions.ts';
import {
  adminActor,
  audit,
  confirmUser,
  findOneTimeToken,
  findUserByEmail,
  findUserById,
  identitiesOf,
  insertEmailIdentity,
  insertUser,
  isBanned,
  isConfirmed,
  loadUserJson,
  mergeMetadata,
  newId,
  putOneTimeToken,
  refreshProviders,
  updateUser,
  userJson,
  type Db,
  type OneTimeTokenType,
  type UserRow,
} from './store.ts';

/** bcrypt with GoTrue's cost (bcrypt.DefaultCost). */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, 10);
}

/** A password GoTrue generates for accounts created without one (OTP sign-ups, invites). */
export function randomPassword(): string {
  return crypto.randomBytes(32).toString('base64url');
}

// ---------------------------------------------------------------------------------------------- e-mails

/** The code fields of the Send Email hook's `email_data` (hook.ts). */
function hookCodes(auth: Auth, token: string, tokenHash: string, redirectTo: string) {
  return { token, token_hash: tokenHash, redirect_to: redirectTo, site_url: auth.settings.siteUrl };
}

/** The stored token: with a `pkce_` prefix when the request started a PKCE flow (addFlowPrefixToToken). */
function withFlow(hash: string, pkce: Pkce | undefined): string {
  return pkce ? PKCE_PREFIX + hash : hash;
}

async function sendConfirmation(auth: Auth, rq: Rq, db: Db, user: UserRow, pkce?: Pkce) {
  checkFrequency(auth, user.confirmation_sent_at);
  if (pkce) await createFlowState(db, user.id, 'email/signup', pkce);
  const otp = generateOtp(auth.settings.email.otpLength);
  const hash = withFlow(tokenHash(user.email ?? '', otp), pkce);
  const redirectTo = referrer(auth, rq);
  queueAuthEmail(
    auth,
    rq,
    hookCall(user, { ...hookCodes(auth, otp, hash, redirectTo), email_action_type: 'signup' }),
    () =>
      queueMail(
        auth,
        rq,
        'confirmation',
        user.email ?? '',
        mailData(auth, user, { otp, hash, type: 'signup', redirectTo }),
      ),
  );
  await updateUser(db, user.id, { confirmation_token: hash, confirmation_sent_at: new Date().toISOString() });
  await putOneTimeToken(db, user.id, 'confirmation_token', hash, user.email ?? '');
}

async function sendRecovery(
  auth: Auth,
  rq: Rq,
  db: Db,
  user: UserRow,
  kind: 'recovery' | 'magic_link',
  pkce?: Pkce,
) {
  // A magic link is a recovery token with another template, so both share the recovery timer.
  checkFrequency(auth, user.recovery_sent_at);
  const type = kind === 'recovery' ? 'recovery' : 'magiclink';
  if (pkce) await createFlowState(db, user.id, type, pkce);
  const otp = generateOtp(auth.settings.email.otpLength);
  const hash = withFlow(tokenHash(user.email ?? '', otp), pkce);
  const redirectTo = referrer(auth, rq);
  queueAuthEmail(
    auth,
    rq,
    hookCall(user, { ...hookCodes(auth, otp, hash, redirectTo), email_action_type: type }),
    () => queueMail(auth, rq, kind, user.email ?? '', mailData(auth, user, { otp, hash, type, redirectTo })),
  );
  await updateUser(db, user.id, { recovery_token: hash, recovery_sent_at: new Date().toISOString() });
  await putOneTimeToken(db, user.id, 'recovery_token', hash, user.email ?? '');
}

/**
 * The e-mail change: a code to the new address and, with `double_confirm_changes`, another to the current
 * one; both must be confirmed before the address changes.
 */
async function sendEmailChange(auth: Auth, rq: Rq, db: Db, user: UserRow, newEmail: string, pkce?: Pkce) {
  checkFrequency(auth, user.email_change_sent_at);
  if (pkce) await createFlowState(db, user.id, 'email_change', pkce);
  const redirectTo = referrer(auth, rq);
  const otpNew = generateOtp(auth.settings.email.otpLength);
  const hashNew = withFlow(tokenHash(newEmail, otpNew), pkce);
  const secure = auth.settings.email.doubleConfirmChanges && !!user.email;
  const otpCurrent = secure ? generateOtp(auth.settings.email.otpLength) : '';
  const hashCurrent = secure ? withFlow(tokenHash(user.email ?? '', otpCurrent), pkce) : '';
  const targets = [{ to: newEmail, otp: otpNew, hash: hashNew }];
  if (secure) targets.push({ to: user.email ?? '', otp: otpCurrent, hash: hashCurrent });
  // The hook's quirk, kept for GoTrue's compatibility: with a secure change `token` is the current
  // address's code and `token_new` the new one's, but `token_hash` is the NEW address's hash and
  // `token_hash_new` the current one's; without it only token/token_hash are set, for the new address.
  const codes = secure
    ? { token: otpCurrent, token_hash: hashNew, token_new: otpNew, token_hash_new: hashCurrent }
    : { token: otpNew, token_hash: hashNew };
  queueAuthEmail(
    auth,
    rq,
    hookCall(
      user,
      { ...hookCodes(auth, '', '', redirectTo), ...codes, email_action_type: 'email_change' },
      newEmail,
    ),
    () => {
      for (const t of targets) {
        queueMail(auth, rq, 'email_change', t.to, {
          ...mailData(auth, user, { otp: t.otp, hash: t.hash, type: 'email_change', redirectTo }),
          NewEmail: newEmail,
          SendingTo: t.to,
        });
      }
    },
  );
  await updateUser(db, user.id, {
    email_change: newEmail,
    email_change_token_new: hashNew,
    email_change_token_current: hashCurrent,
    email_change_confirm_status: 0,
    email_change_sent_at: new Date().toISOString(),
  });
  if (secure) await putOneTimeToken(db, user.id, 'email_change_token_current', hashCurrent, user.email ?? '');
  await putOneTimeToken(db, user.id, 'email_change_token_new', hashNew, newEmail);
}

// ---------------------------------------------------------------------------------------------- sign-up

type Tx = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

type SignupResult = { existing: UserRow } | { user: Record<string, unknown> } | { session: TokenResponse };

/** The sign-up GoTrue runs for POST /signup and for codes sent to new addresses. */
async function doSignup(
  auth: Auth,
  rq: Rq,
  tx: Tx,
  address: string,
  password: string,
  data: Record<string, unknown>,
  pkce: Pkce | undefined,
): Promise<SignupResult> {
  const s = auth.settings;
  const existing = await tx((db) => findUserByEmail(db, address, rq.aud));
  // Hash outside the transaction: bcrypt is slow on purpose.
  const passwordHash = existing ? '' : await hashPassword(password);
  return tx(async (db): Promise<SignupResult> => {
    let user = existing;
    if (user && isConfirmed(user)) return { existing: user };
    if (!user) {
      user = await insertUser(db, {
        email: address,
        passwordHash,
        aud: rq.aud,
        role: 'authenticated',
        userMetadata: data,
        appMetadata: { provider: 'email', providers: ['email'] },
      });
    }
    const identities = await identitiesOf(db, user.id);
    if (!identities.some((i) => i.provider === 'email')) await insertEmailIdentity(db, user, data);
    if (s.email.autoconfirm) {
      await confirmUser(db, user);
      await audit(db, user, 'user_signedup', { provider: 'email' });
      return { session: await issueSession(db, s, user.id, 'password', rq.client) };
    }
    // An unconfirmed account is not updated (whoever signs up again may not own it); it gets a new code.
    await audit(db, user, 'user_confirmation_requested', { provider: 'email' });
    await sendConfirmation(auth, rq, db, (await findUserById(db, user.id, true))!, pkce);
    return { user: await loadUserJson(db, user.id) };
  });
}

/** The answer a new, unconfirmed e-mail account gets, for an address that already has an account. */
function newAccountLookalike(aud: string, address: string, data: Record<string, unknown>) {
  const id = newId();
  const now = new Date().toISOString();
  const identityData: Record<string, unknown> = {
    sub: id,
    email: address,
    email_verified: false,
    phone_verified: false,
  };
  for (const [k, v] of Object.entries(data)) if (!(k in identityData)) identityData[k] = v;
  const user = {
    id,
    aud,
    role: 'authenticated',
    email: address,
    phone: null,
    confirmation_sent_at: now,
    raw_app_meta_data: { provider: 'email', providers: ['email'] },
    raw_user_meta_data: data,
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  } as unknown as UserRow;
  const identity = {
    id: newId(),
    provider_id: id,
    user_id: id,
    identity_data: identityData,
    provider: 'email',
    last_sign_in_at: now,
    created_at: now,
    updated_at: now,
    email: address,
  };
  return userJson(user, [identity]);
}

/** POST /signup */
export async function signup(auth: Auth, rq: Rq, tx: Tx) {
  const s = auth.settings;
  const email = str(rq.body['email']);
  const phone = str(rq.body['phone']);
  const password = str(rq.body['password']);
  const data = obj(rq.body['data']) ?? {};
  if (!email && !phone) {
    throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
  }
  limit(auth.limits.signup, rq);
  if (!s.enableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
  checkPassword(s, password);
  const pkce = pkceParams(rq.body);
  if (email && phone)
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    );
  if (phone) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
  if (!s.email.enableSignup) throw badRequest('email_provider_disabled', 'Email signups are disabled');
  const address = validateEmail(email);

  const result = await doSignup(auth, rq, tx, address, password, data, pkce);
  if ('existing' in result) {
    const existing = result.existing;
    await tx((db) => audit(db, existing, 'user_repeated_signup', { provider: 'email' }));
    if (s.email.autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
    // Answer exactly as for a new address (the same fields, an identity included), so that sign-up
    // cannot be used to learn who is registered.
    return sendJson(rq.res, 200, newAccountLookalike(rq.aud, address, data));
  }
  sendJson(rq.res, 200, 'session' in result ? result.session : result.user);
}

// ---------------------------------------------------------------------------------------------- tokens

/** POST /token?grant_type=password|refresh_token */
export async function token(auth: Auth, rq: Rq, tx: Tx) {
  const grant = rq.url.searchParams.get('grant_type') ?? str(rq.body['grant_type']);
  if (grant !== 'password' && grant !== 'refresh_token' && grant !== 'pkce')
    throw badRequest('invalid_credentials', 'unsupported_grant_type');
  limit(auth.limits.token, rq);
  if (grant === 'pkce')
    return sendJson(rq.res, 200, await tx((db) => pkceGrant(db, auth.settings, rq.body, rq.client)));
  if (grant === 'refresh_token') {
    const refresh = str(rq.body['refresh_token']);
    if (
      refresh.length < 12 ||
      (refresh.length === 12 && !/^[a-z0-9]{12}$/.test(refresh)) ||
      refresh.length > 12
    ) {
      throw badRequest('validation_failed', 'Refresh token is not valid');
    }
    return sendJson(rq.res, 200, await tx((db) => refreshSession(db, auth.settings, refresh, rq.client)));
  }
  const email = str(rq.body['email']);
  const phone = str(rq.body['phone']);
  const password = str(rq.body['password']);
  if (email && phone)
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  if (phone) throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (!email) throw badRequest('validation_failed', 'missing email or phone');
  if (!auth.settings.email.enableSignup)
    throw unprocessable('email_provider_disabled', 'Email logins are disabled');
  const invalid = () => badRequest('invalid_credentials', 'Invalid login credentials');
  const user = await tx((db) => findUserByEmail(db, email, rq.aud));
  if (!user || !user.encrypted_password) throw invalid();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  const ok = await bcrypt.compare(password, user.encrypted_password).catch(() => false);
  if (!ok) throw invalid();
  if (!isConfirmed(user)) throw badRequest('email_not_confirmed', 'Email not confirmed');
  const session = await tx(async (db) => {
    await audit(db, user, 'login', { provider: 'email' });
    return issueSession(db, auth.settings, user.id, 'password', rq.client);
  });
  // A correct password that no longer meets the rules still signs in; the client is told it is weak.
  const weakness = passwordWeakness(auth.settings, password);
  if (weakness?.code === 'weak_password') {
    session.weak_password = {
      message: weakness.message,
      reasons: (weakness.extra.weak_password as { reasons: string[] }).reasons,
    };
  }
  sendJson(rq.res, 200, session);
}

// ---------------------------------------------------------------------------------------------- verify

interface VerifyParams {
  type: string;
  token: string;
  tokenHash: string;
  email: string;
  /** A typed phone code (phone_change): the number in E.164 digits, as GoTrue stores it. */
  phone?: string;
  redirectTo: string;
}

const SINGLE_CONFIRMATION =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

function otpExpired(auth: Auth, sentAt: string | null): boolean {
  return !sentAt || Date.now() > new Date(sentAt).getTime() + auth.settings.email.otpExpiry * 1000;
}

/** verifyTokenHash: the link (or `token_hash`) path. */
async function userByTokenHash(auth: Auth, db: Db, p: VerifyParams): Promise<UserRow> {
  const types: Record<string, OneTimeTokenType[]> = {
    email: ['confirmation_token', 'recovery_token'],
    signup: ['confirmation_token'],
    invite: ['confirmation_token'],
    recovery: ['recovery_token'],
    magiclink: ['recovery_token'],
    email_change: ['email_change_token_current', 'email_change_token_new'],
  };
  if (!types[p.type]) throw badRequest('validation_failed', 'Invalid email verification type');
  const ott = await findOneTimeToken(db, p.tokenHash, types[p.type]);
  const user = ott && (await findUserById(db, ott.user_id, true));
  if (!user) throw forbidden('otp_expired', 'Email link is invalid or has expired');
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  let sentAt = user.confirmation_sent_at;
  if (p.type === 'email') {
    p.type = 'signup';
    if (user.recovery_token === p.tokenHash) {
      sentAt = user.recovery_sent_at;
      p.type = 'magiclink';
    }
  } else if (p.type === 'recovery' || p.type === 'magiclink') sentAt = user.recovery_sent_at;
  else if (p.type === 'email_change') sentAt = user.email_change_sent_at;
  if (otpExpired(auth, sentAt)) throw forbidden('otp_expired', 'Email link is invalid or has expired');
  return user;
}

/** verifyUserAndToken: the typed-code path (`email` + `token`). */
async function userByCode(auth: Auth, db: Db, p: VerifyParams, aud: string): Promise<UserRow> {
  const invalid = () => forbidden('otp_expired', 'Token has expired or is invalid');
  let user: UserRow | undefined;
  if (p.type === 'email_change') {
    const types: OneTimeTokenType[] = auth.settings.email.doubleConfirmChanges
      ? ['email_change_token_current', 'email_change_token_new']
      : ['email_change_token_new'];
    const ott =
      (await findOneTimeToken(db, p.tokenHash, types)) ??
      (await findOneTimeToken(db, PKCE_PREFIX + p.tokenHash, types));
    user = ott && (await findUserById(db, ott.user_id, true));
    if (user && user.aud !== aud) user = undefined;
  } else {
    const found = await findUserByEmail(db, p.email, aud);
    user = found && (await findUserById(db, found.id, true));
  }
  if (!user) throw invalid();
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  // A code typed from an e-mail of a PKCE flow matches the stored token without its prefix (isOtpValid).
  const valid = (expected: string | null, sentAt: string | null) => {
    if (!expected || otpExpired(auth, sentAt)) return false;
    if (p.tokenHash !== expected && PKCE_PREFIX + p.tokenHash !== expected) return false;
    p.tokenHash = expected;
    return true;
  };
  let ok = false;
  switch (p.type) {
    case 'email':
      if (valid(user.confirmation_token, user.confirmation_sent_at)) {
        ok = true;
        p.type = 'signup';
      } else if (valid(user.recovery_token, user.recovery_sent_at)) {
        ok = true;
        p.type = 'magiclink';
      }
      break;
    case 'signup':
    case 'invite':
      ok = valid(user.confirmation_token, user.confirmation_sent_at);
      break;
    case 'recovery':
    case 'magiclink':
      ok = valid(user.recovery_token, user.recovery_sent_at);
      break;
    case 'email_change':
      ok =
        valid(user.email_change_token_current, user.email_change_sent_at) ||
        valid(user.email_change_token_new, user.email_change_sent_at);
      break;
  }
  if (!ok) throw invalid();
  return user;
}

/**
 * verifySmsOTP for a phone change (issue 32): the user whose pending phone_change is this number and whose
 * phone_change_token is sha224(number + code), sent within the SMS OTP's life. Phone sign-ins (type sms)
 * do not exist here (`[auth.sms] enable_signup = false`), so such a code is always invalid.
 */
async function userByPhoneCode(auth: Auth, db: Db, p: VerifyParams, aud: string): Promise<UserRow> {
  const invalid = () => forbidden('otp_expired', 'Token has expired or is invalid');
  if (p.type !== 'phone_change') throw invalid();
  const { rows } = await db.query<{
    id: string;
    phone_change_token: string | null;
    phone_change_sent_at: string | null;
  }>(
    `select id, phone_change_token, phone_change_sent_at::text from auth.users
      where phone_change = $1 and aud = $2 and phone_change_token = $3 for update`,
    [p.phone, aud, p.tokenHash],
  );
  const row = rows[0];
  if (
    !row?.phone_change_sent_at ||
    Date.now() > new Date(row.phone_change_sent_at).getTime() + auth.settings.sms.otpExpiry * 1000
  )
    throw invalid();
  const user = (await findUserById(db, row.id, true))!;
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  return user;
}

/** models.User.ConfirmPhoneChange: the pending number becomes the user's, confirmed, with its phone identity. */
async function confirmPhoneChange(db: Db, userId: string, phone: string): Promise<void> {
  const { rows: taken } = await db.query('select 1 from auth.users where phone = $1 and id <> $2', [
    phone,
    userId,
  ]);
  if (taken.length)
    throw unprocessable('phone_exists', 'A user with this phone number has already been registered');
  await db.query(
    `update auth.users set phone = $2, phone_confirmed_at = now(), phone_change = '', phone_change_token = '',
            phone_change_sent_at = null, updated_at = now() where id = $1`,
    [userId, phone],
  );
  await db.query(
    `delete from auth.one_time_tokens where user_id = $1 and token_type = 'phone_change_token'`,
    [userId],
  );
  const identityData = JSON.stringify({ sub: userId, phone, email_verified: false, phone_verified: true });
  const { rowCount } = await db.query(
    `update auth.identities set identity_data = $2, updated_at = now() where user_id = $1 and provider = 'phone'`,
    [userId, identityData],
  );
  if (!rowCount)
    await db.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
       values ($1, $2, $3, $4, 'phone', now(), now(), now())`,
      [newId(), userId, userId, identityData],
    );
}

/**
 * sendPhoneConfirmation for PUT /user { phone } (issue 32): a code by SMS to the new number, which becomes
 * the user's only when verified (type phone_change). With SMS autoconfirm (`enable_confirmations = false`)
 * GoTrue sets the number at once, without a code.
 */
async function sendPhoneChange(auth: Auth, rq: Rq, db: Db, user: UserRow, phone: string) {
  if (auth.settings.sms.autoconfirm) return confirmPhoneChange(db, user.id, phone);
  if (user.phone_change_sent_at) {
    const next = new Date(user.phone_change_sent_at).getTime() + auth.settings.sms.maxFrequencyMs;
    if (next > Date.now())
      throw tooManyRequests(
        'over_sms_send_rate_limit',
        `For security purposes, you can only request this after ${Math.floor((next - Date.now()) / 1000)} seconds.`,
      );
  }
  const otp = generateOtp(auth.settings.sms.otpLength);
  const hash = tokenHash(phone, otp);
  await db.query(
    `update auth.users set phone_change = $2, phone_change_token = $3, phone_change_sent_at = now(), updated_at = now()
      where id = $1`,
    [user.id, phone, hash],
  );
  await putOneTimeToken(db, user.id, 'phone_change_token', hash, phone);
  rq.sms.push({ to: `+${phone}`, body: auth.settings.sms.template.replace(/\{\{\s*\.Code\s*\}\}/g, otp) });
}

/** Applies a verified token; answers undefined when one half of a double-confirmed e-mail change is done. */
async function applyVerification(
  auth: Auth,
  db: Db,
  p: VerifyParams,
  user: UserRow,
): Promise<UserRow | undefined> {
  switch (p.type) {
    case 'signup':
    case 'invite':
      if (!user.encrypted_password && user.invited_at) {
        // As GoTrue: an invited user gets a random password, to be replaced in the app's password form.
        await updateUser(db, user.id, { encrypted_password: await hashPassword(randomPassword()) });
      }
      await audit(db, user, 'user_signedup', { provider: 'email' });
      await confirmUser(db, user);
      break;
    case 'recovery':
    case 'magiclink':
      await updateUser(db, user.id, { recovery_token: '' });
      await db.query('delete from auth.one_time_tokens where user_id = $1', [user.id]);
      if (!isConfirmed(user)) {
        await audit(db, user, 'user_signedup', { provider: 'email' });
        await confirmUser(db, user);
      } else await audit(db, user, 'login');
      break;
    case 'email_change': {
      if (
        auth.settings.email.doubleConfirmChanges &&
        !auth.settings.email.autoconfirm &&
        user.email_change_confirm_status === 0 &&
        user.email
      ) {
        const current = p.tokenHash === user.email_change_token_current;
        await updateUser(db, user.id, {
          email_change_confirm_status: 1,
          ...(current ? { email_change_token_current: '' } : { email_change_token_new: '' }),
        });
        await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [
          user.id,
          current ? 'email_change_token_current' : 'email_change_token_new',
        ]);
        return undefined;
      }
      const newEmail = user.email_change ?? '';
      await audit(db, user, 'user_modified');
      const { rowCount } = await db.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true), updated_at = now()
          where user_id = $1 and provider = 'email'`,
        [user.id, newEmail],
      );
      const updated = { ...user, email: newEmail };
      if (!rowCount) await insertEmailIdentity(db, updated, {}, true);
      await updateUser(db, user.id, {
        email: newEmail,
        email_change: '',
        email_change_token_current: '',
        email_change_token_new: '',
        email_change_confirm_status: 0,
      });
      await db.query('delete from auth.one_time_tokens where user_id = $1', [user.id]);
      if (!isConfirmed(user)) await confirmUser(db, updated);
      break;
    }
    case 'phone_change': {
      const { rows } = await db.query<{ phone_change: string }>(
        'select phone_change from auth.users where id = $1',
        [user.id],
      );
      await confirmPhoneChange(db, user.id, rows[0].phone_change);
      break;
    }
    default:
      throw badRequest('validation_failed', 'Unsupported verification type');
  }
  await refreshProviders(db, user.id);
  return (await findUserById(db, user.id))!;
}

function verifyParams(rq: Rq, method: 'GET' | 'POST'): VerifyParams {
  const src = method === 'GET' ? Object.fromEntries(rq.url.searchParams) : rq.body;
  const p: VerifyParams = {
    type: str(src['type']),
    token: str(src['token']),
    tokenHash: str(src['token_hash']),
    email: str(src['email']),
    redirectTo: str(src['redirect_to']),
  };
  if (!p.type) throw badRequest('validation_failed', 'Verify requires a verification type');
  if (method === 'GET') {
    if (!p.token) throw badRequest('validation_failed', 'Verify requires a token or a token hash');
    p.tokenHash = p.token;
    return p;
  }
  if ((!p.token && !p.tokenHash) || (p.token && p.tokenHash)) {
    throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
  }
  if (p.token) {
    if (str(rq.body['phone']) && !p.email) {
      if (!['sms', 'phone_change'].includes(p.type))
        throw badRequest('validation_failed', 'Invalid sms verification type');
      p.phone = validatePhone(str(rq.body['phone']));
      p.tokenHash = tokenHash(p.phone, p.token);
      return p;
    }
    if (!p.email || str(rq.body['phone']))
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on verify',
      );
    try {
      p.email = validateEmail(p.email);
    } catch {
      throw unprocessable('validation_failed', 'Invalid email format');
    }
    p.tokenHash = tokenHash(p.email, p.token);
  } else if (p.email || str(rq.body['phone']) || p.redirectTo) {
    throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
  }
  return p;
}

/** POST /verify: exchanges a code or token hash for a session. */
export async function verifyPost(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.verify, rq);
  const p = verifyParams(rq, 'POST');
  const usingHash = !p.token;
  if (p.phone !== undefined && !auth.settings.sms.enabled)
    throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  const run = () =>
    tx(async (db) => {
      const user = usingHash
        ? await userByTokenHash(auth, db, p)
        : p.phone !== undefined
          ? await userByPhoneCode(auth, db, p, rq.aud)
          : await userByCode(auth, db, p, rq.aud);
      const verified = await applyVerification(auth, db, p, user);
      if (!verified) return undefined;
      return issueSession(db, auth.settings, verified.id, 'otp', rq.client);
    });
  // As GoTrue: every try, typed code or token hash, spends from the caller's token_verifications bucket
  // (above) and nothing else. A token hash is sha224(email + code), computable for every code, so it is
  // no harder to guess than the code: the code's length and life bound both (docs/security.md).
  const result = await run();
  if (!result) return sendJson(rq.res, 200, { msg: SINGLE_CONFIRMATION, code: '200' });
  sendJson(rq.res, 200, result);
}

/** GET /verify: the link in an e-mail; redirects with the session (or the error) in the URL fragment. */
export async function verifyGet(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.verify, rq);
  const p = verifyParams(rq, 'GET');
  const redirectTo = referrer(auth, rq);
  // A token from a PKCE flow ends with `?code=` for the client to exchange, not with tokens in the URL.
  const pkce = p.token.startsWith(PKCE_PREFIX);
  const redirect = (location: string) => {
    rq.res.writeHead(303, { location, 'content-length': '0' });
    rq.res.end();
  };
  try {
    const method = pkce ? flowMethod(p.type) : undefined;
    const result = await tx(async (db) => {
      const user = await userByTokenHash(auth, db, p);
      const verified = await applyVerification(auth, db, p, user);
      if (!verified) return undefined;
      if (method) return { code: await issueAuthCode(db, verified.id, method), session: undefined };
      return { code: '', session: await issueSession(db, auth.settings, verified.id, 'otp', rq.client) };
    });
    const u = new URL(redirectTo);
    if (!result) {
      if (pkce) u.searchParams.set('message', SINGLE_CONFIRMATION);
      u.hash = new URLSearchParams({ message: SINGLE_CONFIRMATION, sb: '' }).toString();
      return redirect(u.toString());
    }
    if (result.code) {
      u.searchParams.set('code', result.code);
      return redirect(u.toString());
    }
    const session = result.session!;
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      sb: '',
      token_type: 'bearer',
      type: p.type,
    });
    return redirect(`${redirectTo}#${fragment.toString()}`);
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    const u = new URL(redirectTo);
    const oauth: Record<number, string> = {
      400: 'invalid_request',
      401: 'unauthorized_client',
      403: 'access_denied',
      500: 'server_error',
      503: 'temporarily_unavailable',
    };
    const hq = new URLSearchParams();
    if (oauth[e.status]) hq.set('error', oauth[e.status]);
    hq.set('error_code', e.code);
    hq.set('error_description', e.message);
    if (pkce) {
      for (const [k, v] of hq) u.searchParams.set(k, v);
    }
    hq.set('sb', '');
    u.hash = hq.toString();
    return redirect(u.toString());
  }
}

// ---------------------------------------------------------------------------------------------- codes by e-mail

/** POST /otp: a sign-in code and link for an existing user; a sign-up for a new one unless create_user is false. */
export async function otp(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.otp, rq);
  const email = str(rq.body['email']);
  const phone = str(rq.body['phone']);
  const createUser = rq.body['create_user'] !== false;
  const data = obj(rq.body['data']) ?? {};
  if (email && phone)
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided');
  if (!email && !phone) throw badRequest('validation_failed', 'One of email or phone must be set');
  if (phone) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  const pkce = pkceParams(rq.body);
  const address = validateEmail(email);
  if (!auth.settings.email.enableSignup)
    throw unprocessable('email_provider_disabled', 'Email logins are disabled');
  const user = await tx((db) => findUserByEmail(db, address, rq.aud));
  // An address without an account that may not sign up gets the same empty answer as one that has an
  // account (as /recover answers), so the answer does not tell who is registered.
  if (!user && (!createUser || !auth.settings.enableSignup)) return sendJson(rq.res, 200, {});
  if (!user || !isConfirmed(user)) {
    // New or unconfirmed: a sign-up with a random password, whose confirmation e-mail carries the code.
    if (!auth.settings.enableSignup)
      throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    await doSignup(auth, rq, tx, address, randomPassword(), data, pkce);
    if (!auth.settings.email.autoconfirm) return sendJson(rq.res, 200, {});
  }
  await tx(async (db) => {
    const fresh = (await findUserByEmail(db, address, rq.aud))!;
    await audit(db, fresh, 'user_recovery_requested');
    await sendRecovery(auth, rq, db, fresh, 'magic_link', pkce);
  });
  sendJson(rq.res, 200, {});
}

/** POST /recover: a password-reset code and link; unknown addresses get the same empty answer. */
export async function recover(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.recover, rq);
  const email = str(rq.body['email']);
  if (!email) throw badRequest('validation_failed', 'Password recovery requires an email');
  const address = validateEmail(email);
  const pkce = pkceParams(rq.body);
  await tx(async (db) => {
    const found = await findUserByEmail(db, address, rq.aud);
    if (!found) return;
    const user = (await findUserById(db, found.id, true))!;
    await audit(db, user, 'user_recovery_requested');
    await sendRecovery(auth, rq, db, user, 'recovery', pkce);
  });
  sendJson(rq.res, 200, {});
}

/** POST /resend: the sign-up confirmation or e-mail change code again. */
export async function resend(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.resend, rq);
  const type = str(rq.body['type']);
  const email = str(rq.body['email']);
  const phone = str(rq.body['phone']);
  if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
    throw badRequest(
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  if (!email && type === 'signup')
    throw badRequest('validation_failed', 'Type provided requires an email address');
  if (!phone && type === 'sms')
    throw badRequest('validation_failed', 'Type provided requires a phone number');
  if (email && phone)
    throw badRequest('validation_failed', 'Only an email address or phone number should be provided.');
  if (phone) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  if (!email) throw badRequest('validation_failed', 'Missing email address or phone number');
  const address = validateEmail(email);
  const pkce = pkceParams(rq.body);
  await tx(async (db) => {
    const found = await findUserByEmail(db, address, rq.aud);
    if (!found) return;
    const user = (await findUserById(db, found.id, true))!;
    if (type === 'signup' && !isConfirmed(user)) {
      await audit(db, user, 'user_confirmation_requested');
      await sendConfirmation(auth, rq, db, user, pkce);
    }
    if (type === 'email_change' && user.email_change)
      await sendEmailChange(auth, rq, db, user, user.email_change, pkce);
  });
  sendJson(rq.res, 200, {});
}

// ---------------------------------------------------------------------------------------------- the user

/** GET /user */
export async function getUser(_auth: Auth, rq: Rq, tx: Tx) {
  const body = await tx(async (db) => {
    const caller = await authenticate(db, rq);
    const aud = Array.isArray(caller.claims.aud) ? caller.claims.aud[0] : caller.claims.aud;
    if (!aud || aud !== rq.aud)
      throw badRequest('validation_failed', "Token audience doesn't match request audience");
    return userJson(caller.user, await identitiesOf(db, caller.user.id));
  });
  sendJson(rq.res, 200, body);
}

/** PUT /user: password, e-mail (confirmed by e-mail before it changes) and user metadata. */
export async function updateUserSelf(auth: Auth, rq: Rq, tx: Tx) {
  limit(auth.limits.user, rq);
  const caller = await tx((db) => authenticate(db, rq));
  const user = caller.user;
  let email = str(rq.body['email']);
  const password = typeof rq.body['password'] === 'string' ? (rq.body['password'] as string) : undefined;
  const data = obj(rq.body['data']);
  if (email) email = validateEmail(email);
  const pkce = pkceParams(rq.body);
  const phone = str(rq.body['phone']) ? validatePhone(str(rq.body['phone'])) : '';
  if (phone && !auth.settings.sms.enabled)
    throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
  if (phone && phone !== (user.phone ?? '')) {
    const { rows } = await auth.pool.query('select 1 from auth.users where phone = $1 and id <> $2', [
      phone,
      user.id,
    ]);
    if (rows.length)
      throw unprocessable('phone_exists', 'A user with this phone number has already been registered');
  }
  if (password !== undefined) checkPassword(auth.settings, password);
  if (
    rq.body['app_metadata'] !== undefined &&
    caller.claims.role !== 'service_role' &&
    caller.claims.role !== 'supabase_admin'
  ) {
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  }
  if (email && email !== user.email) {
    const other = await tx((db) => findUserByEmail(db, email, rq.aud));
    if (other && other.id !== user.id)
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
  }
  // secure_password_change: a new password needs proof that the caller is the user, not just a holder of
  // an access token: the current password, or the reauthentication code e-mailed by GET /reauthenticate.
  // A session signed in with an e-mail code minutes ago (a password reset) has just given that proof.
  // Checked before anything compares the new password with the old, which would answer for it.
  let needsNonce = false;
  if (password !== undefined && auth.settings.email.securePasswordChange) {
    const currentPassword = str(rq.body['current_password']);
    if (currentPassword) {
      const ok =
        !!user.encrypted_password &&
        (await bcrypt.compare(currentPassword, user.encrypted_password).catch(() => false));
      if (!ok) throw badRequest('invalid_credentials', 'The current password is not correct');
    } else if (str(rq.body['nonce'])) {
      needsNonce = true;
    } else if (!(await signedInByCodeRecently(auth, caller.sessionId))) {
      throw badRequest(
        'reauthentication_needed',
        'Password update requires reauthentication: send the current password or the code from GET /reauthenticate',
      );
    }
  }
  // The code is checked here before the new password is compared with the old, and again in the
  // transaction that spends it; guesses spend the caller's `user` bucket (GoTrue's limit on PUT /user).
  const nonceValid = (current: UserRow) => {
    const nonce = tokenHash(current.email ?? '', str(rq.body['nonce']));
    if (
      !current.reauthentication_token ||
      current.reauthentication_token !== nonce ||
      otpExpired(auth, current.reauthentication_sent_at)
    ) {
      throw unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');
    }
  };
  if (needsNonce) nonceValid((await tx((db) => findUserById(db, user.id, true)))!);
  let passwordHash: string | undefined;
  if (password) {
    if (
      user.encrypted_password &&
      (await bcrypt.compare(password, user.encrypted_password).catch(() => false))
    ) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
    passwordHash = await hashPassword(password);
  }
  const run = () =>
    tx(async (db) => {
      const current = (await findUserById(db, user.id, true))!;
      if (needsNonce) nonceValid(current);
      if (password !== undefined) {
        await updateUser(db, user.id, {
          encrypted_password: passwordHash ?? '',
          confirmation_token: '',
          confirmation_sent_at: null,
          recovery_token: '',
          recovery_sent_at: null,
          email_change_token_current: '',
          email_change_token_new: '',
          email_change_sent_at: null,
          reauthentication_token: '',
          reauthentication_sent_at: null,
        });
        await db.query('delete from auth.one_time_tokens where user_id = $1', [user.id]);
        // A new password ends every other session: whoever knew the old one is signed out.
        await logout(db, user.id, caller.sessionId, caller.sessionId ? 'others' : 'global');
        await audit(db, current, 'user_updated_password');
      }
      if (data)
        await updateUser(db, user.id, {
          raw_user_meta_data: mergeMetadata(current.raw_user_meta_data, data),
        });
      const appData = obj(rq.body['app_metadata']);
      if (appData)
        await updateUser(db, user.id, {
          raw_app_meta_data: mergeMetadata(current.raw_app_meta_data, appData),
        });
      if (email && email !== current.email) {
        await sendEmailChange(auth, rq, db, (await findUserById(db, user.id))!, email, pkce);
      }
      if (phone && phone !== (current.phone ?? '')) await sendPhoneChange(auth, rq, db, current, phone);
      await audit(db, current, 'user_modified');
      return loadUserJson(db, user.id);
    });
  const body = await run();
  sendJson(rq.res, 200, body);
}

/** Whether the session was signed in with an e-mail code or link in the last 10 minutes (amr otp/recovery). */
async function signedInByCodeRecently(auth: Auth, sessionId: string | undefined): Promise<boolean> {
  if (!sessionId) return false;
  const { rowCount } = await auth.pool.query(
    `select 1 from auth.mfa_amr_claims
      where session_id = $1 and authentication_method in ('otp', 'magiclink', 'recovery')
        and updated_at > now() - interval '10 minutes'`,
    [sessionId],
  );
  return !!rowCount;
}

/** GET /reauthenticate: a code by e-mail that proves the user before the password changes. */
export async function reauthenticate(auth: Auth, rq: Rq, tx: Tx) {
  await tx(async (db) => {
    const { user } = await authenticate(db, rq);
    if (!user.email && !user.phone)
      throw badRequest(
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      );
    if (!user.email) throw badRequest('phone_provider_disabled', 'Unsupported phone provider');
    if (!isConfirmed(user)) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
    const current = (await findUserById(db, user.id, true))!;
    checkFrequency(auth, current.reauthentication_sent_at);
    await audit(db, current, 'user_reauthenticate_requested');
    const code = generateOtp(auth.settings.email.otpLength);
    const hash = tokenHash(current.email ?? '', code);
    queueAuthEmail(
      auth,
      rq,
      hookCall(current, { ...hookCodes(auth, code, '', ''), email_action_type: 'reauthentication' }),
      () =>
        queueMail(auth, rq, 'reauthentication', current.email ?? '', {
          SiteURL: auth.settings.siteUrl,
          Email: current.email ?? '',
          Token: code,
          Data: current.raw_user_meta_data ?? {},
        }),
    );
    await updateUser(db, user.id, {
      reauthentication_token: hash,
      reauthentication_sent_at: new Date().toISOString(),
    });
    await putOneTimeToken(db, user.id, 'reauthentication_token', hash, current.email ?? '');
  });
  sendJson(rq.res, 200, {});
}

/** POST /invite (admin): an account without password and an e-mail to accept the invitation. */
export async function invite(auth: Auth, rq: Rq, tx: Tx) {
  const email = validateEmail(str(rq.body['email']));
  const data = obj(rq.body['data']) ?? {};
  const body = await tx(async (db) => {
    let user = await findUserByEmail(db, email, rq.aud);
    if (user && isConfirmed(user))
      throw unprocessable('email_exists', 'A user with this email address has already been registered');
    if (!user) {
      user = await insertUser(db, {
        email,
        passwordHash: '',
        aud: rq.aud,
        role: 'authenticated',
        userMetadata: data,
        appMetadata: { provider: 'email', providers: ['email'] },
      });
      await insertEmailIdentity(db, user, data);
    }
    const code = generateOtp(auth.settings.email.otpLength);
    const hash = tokenHash(email, code);
    const redirectTo = referrer(auth, rq);
    const invited = user;
    queueAuthEmail(
      auth,
      rq,
      hookCall(invited, { ...hookCodes(auth, code, hash, redirectTo), email_action_type: 'invite' }),
      () =>
        queueMail(
          auth,
          rq,
          'invite',
          email,
          mailData(auth, invited, { otp: code, hash, type: 'invite', redirectTo }),
        ),
    );
    const now = new Date().toISOString();
    await audit(db, adminActor(rq.adminRole ?? 'service_role'), 'user_invited', {
      user_id: user.id,
      user_email: user.email,
    });
    await updateUser(db, user.id, { confirmation_token: hash, confirmation_sent_at: now, invited_at: now });
    await putOneTimeToken(db, user.id, 'confirmation_token', hash, email);
    return loadUserJson(db, user.id);
  });
  sendJson(rq.res, 200, body);
}

/** POST /logout?scope=global|local|others */
export async function signOut(_auth: Auth, rq: Rq, tx: Tx) {
  const scope = rq.url.searchParams.get('scope') || 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  }
  await tx(async (db) => {
    const caller = await authenticate(db, rq);
    await audit(db, caller.user, 'logout');
    await logout(db, caller.user.id, caller.sessionId, scope);
  });
  rq.res.writeHead(204);
  rq.res.end();
}

/** GET /settings */
export function settingsEndpoint(auth: Auth, rq: Rq) {
  const providers = [
    'anonymous_users',
    'apple',
    'azure',
    'bitbucket',
    'discord',
    'facebook',
    'snapchat',
    'figma',
    'fly',
    'github',
    'gitlab',
    'google',
    'keycloak',
    'kakao',
    'linkedin',
    'linkedin_oidc',
    'notion',
    'spotify',
    'slack',
    'slack_oidc',
    'workos',
    'twitch',
    'twitter',
    'email',
    'phone',
    'zoom',
  ];
  const external = Object.fromEntries(
    providers.map((p) => [p, p === 'email' ? auth.settings.email.enableSignup : false]),
  );
  sendJson(rq.res, 200, {
    external,
    disable_signup: !auth.settings.enableSignup,
    mailer_autoconfirm: auth.settings.email.autoconfirm,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    saml_private_key_next_configured: false,
    passkeys_enabled: false,
  });
}

export { sendConfirmation, sendRecovery, sendEmailChange };
