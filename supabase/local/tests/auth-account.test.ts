/**
 * Auth conformance, part 2: what a signed-up user does with the account (password, e-mail and profile
 * changes, password reset, codes by e-mail) and the limits that protect those e-mails and codes.
 */
import { describe, expect, it } from 'vitest';
import { configuredSubject, adminPool, stackEnv } from '../testing/index.ts';
import {
  anonClient,
  codeIn,
  confirmedUser,
  jwtPayload,
  latestMail,
  linkIn,
  mailsTo,
  uniqueEmail,
} from '../testing/index.ts';

/** Makes the last e-mail of a kind look older than `max_frequency`, instead of sleeping in the test. */
async function ageLastMail(
  email: string,
  column: 'confirmation_sent_at' | 'recovery_sent_at' | 'email_change_sent_at',
) {
  await adminPool().query(
    `update auth.users set ${column} = ${column} - interval '2 seconds' where email = $1`,
    [email],
  );
}

describe('updating the account', () => {
  it('changes the password, ends the other sessions and refuses the same password', async () => {
    const { email, password, client } = await confirmedUser();
    const other = anonClient();
    const { data: otherSession } = await other.auth.signInWithPassword({ email, password });

    const same = await client.auth.updateUser({ password });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
    const weak = await client.auth.updateUser({ password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });

    const { error } = await client.auth.updateUser({ password: 'a brand new passphrase' });
    expect(error).toBeNull();
    expect((await client.auth.getUser()).data.user?.email).toBe(email);
    expect((await anonClient().auth.getUser(otherSession.session!.access_token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'a brand new passphrase' })).error,
    ).toBeNull();
  });

  it('holds on: platform — merges user metadata, and keeps app_metadata for admins', async () => {
    const { client } = await confirmedUser({ name: 'Liza', city: 'Cebu' });
    const { data, error } = await client.auth.updateUser({
      data: { name: 'Liza Reyes', city: null, avatar: 'a.png' },
    });
    expect(error).toBeNull();
    expect(data.user!.user_metadata).toEqual({ name: 'Liza Reyes', avatar: 'a.png', email_verified: true });
    const { data: refreshed } = await client.auth.refreshSession();
    expect(jwtPayload(refreshed.session!.access_token).user_metadata).toMatchObject({ name: 'Liza Reyes' });

    // A user cannot grant themselves app_metadata (where roles live): only admins may write it.
    const attributes = { app_metadata: { role: 'admin' } } as Parameters<typeof client.auth.updateUser>[0];
    const res = await client.auth.updateUser(attributes);
    expect(res.error).toMatchObject({
      status: 403,
      code: 'not_admin',
      message: 'Updating app_metadata requires admin privileges',
    });
    expect((await client.auth.getUser()).data.user!.app_metadata).toEqual({
      provider: 'email',
      providers: ['email'],
    });
  });

  it('changes the e-mail only after both addresses confirm (double_confirm_changes)', async () => {
    const { email, password, client, user } = await confirmedUser();
    const newEmail = uniqueEmail('moved');
    const { data, error } = await client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: newEmail, email_change_sent_at: expect.any(String) });

    const toNew = await latestMail(newEmail);
    const toCurrent = await latestMail(email, 2);
    expect(toNew.Subject).toBe(configuredSubject('email_change'));
    expect(toCurrent.HTML).toContain(`to ${newEmail}`);

    const first = await anonClient().auth.verifyOtp({
      email,
      token: codeIn(toCurrent),
      type: 'email_change',
    });
    expect(first.error).toBeNull();
    expect(first.data).toEqual({ user: null, session: null });
    expect((await client.auth.getUser()).data.user?.email).toBe(email);

    const second = await anonClient().auth.verifyOtp({
      email: newEmail,
      token: codeIn(toNew),
      type: 'email_change',
    });
    expect(second.error).toBeNull();
    expect(second.data.user).toMatchObject({ id: user.id, email: newEmail });
    expect(second.data.user!.identities![0].identity_data).toMatchObject({ email: newEmail });

    expect((await anonClient().auth.signInWithPassword({ email: newEmail, password })).error).toBeNull();
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('refuses an e-mail that belongs to another account', async () => {
    const { email: taken } = await confirmedUser();
    const { client } = await confirmedUser();
    const { error } = await client.auth.updateUser({ email: taken });
    expect(error).toMatchObject({
      status: 422,
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });
  });
});

describe('password reset and codes by e-mail', () => {
  it('resets a password with the code from the recovery e-mail', async () => {
    const { email, user } = await confirmedUser();
    const client = anonClient();
    expect(
      (await client.auth.resetPasswordForEmail(email, { redirectTo: `${stackEnv('APP_URL')}/reset` })).error,
    ).toBeNull();
    const mail = await latestMail(email, 2);
    expect(mail.Subject).toBe(configuredSubject('recovery'));
    expect(mail.HTML).toContain(`redirect_to=${stackEnv('APP_URL')}/reset`);
    const { data, error } = await client.auth.verifyOtp({ email, token: codeIn(mail), type: 'recovery' });
    expect(error).toBeNull();
    expect(data.user!.id).toBe(user.id);
    expect((await client.auth.updateUser({ password: 'recovered passphrase' })).error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'recovered passphrase' })).error,
    ).toBeNull();
  });

  it('holds on: platform — answers a reset for an unknown address like any other, and sends nothing', async () => {
    const email = uniqueEmail('unknown');
    expect(await anonClient().auth.resetPasswordForEmail(email)).toEqual({ data: {}, error: null });
    await expect(mailsTo(email, 1, 300)).rejects.toThrow(/found 0/);
  });

  it('holds on: config.toml — resends the confirmation code, which replaces the first one, no sooner than max_frequency', async () => {
    const email = uniqueEmail('resend');
    await anonClient().auth.signUp({ email, password: 'correct horse battery' });
    const firstCode = codeIn(await latestMail(email));
    // As if the first e-mail had just left, however slow this machine is.
    await adminPool().query('update auth.users set confirmation_sent_at = now() where email = $1', [email]);
    const tooSoon = await anonClient().auth.resend({ type: 'signup', email });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(tooSoon.error!.message).toMatch(
      /^For security purposes, you can only request this after \d+ seconds\.$/,
    );

    await ageLastMail(email, 'confirmation_sent_at');
    expect((await anonClient().auth.resend({ type: 'signup', email })).error).toBeNull();
    const secondCode = codeIn(await latestMail(email, 2));
    if (secondCode !== firstCode) {
      expect(
        (await anonClient().auth.verifyOtp({ email, token: firstCode, type: 'signup' })).error,
      ).toMatchObject({ code: 'otp_expired' });
    }
    expect(
      (await anonClient().auth.verifyOtp({ email, token: secondCode, type: 'signup' })).error,
    ).toBeNull();
  });

  it('holds on: platform — signs in an existing user with a code by e-mail, and creates no user when told not to', async () => {
    const { email, user } = await confirmedUser();
    const { data, error } = await anonClient().auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ user: null, session: null });
    const mail = await latestMail(email, 2);
    expect(mail.Subject).toBe(configuredSubject('magic_link'));
    const { data: verified, error: verifyError } = await anonClient().auth.verifyOtp({
      email,
      token: codeIn(mail),
      type: 'email',
    });
    expect(verifyError).toBeNull();
    expect(verified.user!.id).toBe(user.id);
    expect(jwtPayload(verified.session!.access_token).amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);

    // An address without an account gets the same answer (nothing tells who is registered), but no
    // account and no e-mail.
    const stranger = uniqueEmail('stranger');
    const quiet = await anonClient().auth.signInWithOtp({
      email: stranger,
      options: { shouldCreateUser: false },
    });
    expect(quiet).toEqual({ data, error: null });
    const { rowCount } = await adminPool().query('select 1 from auth.users where email = $1', [stranger]);
    expect(rowCount).toBe(0);
    await expect(mailsTo(stranger, 1, 500)).rejects.toThrow(/found 0/);
  });

  it('signs up a new address that asks for a code, confirming it with that code', async () => {
    const email = uniqueEmail('otpnew');
    expect((await anonClient().auth.signInWithOtp({ email })).error).toBeNull();
    const mail = await latestMail(email);
    expect(mail.Subject).toBe(configuredSubject('confirmation'));
    const { data, error } = await anonClient().auth.verifyOtp({ email, token: codeIn(mail), type: 'email' });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
  });
});

describe('rate limits', () => {
  it('limits code verifications per client address to the token_verifications burst', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    // The test stack trusts one proxy in front of it, so X-Forwarded-For names the client here.
    const client = anonClient({ 'x-forwarded-for': ip });
    const codes: (string | undefined)[] = [];
    // The bucket holds 30 and refills 30 per 5 minutes, so a slow machine may earn a request or two back.
    // Each try names another address, so the per-address count of tries (auth-security.test.ts) stays out.
    while (codes.length < 40 && codes.at(-1) !== 'over_request_rate_limit') {
      const { error } = await client.auth.verifyOtp({
        email: uniqueEmail('guess'),
        token: String(100000 + codes.length),
        type: 'email',
      });
      codes.push(error?.code);
    }
    const firstRefusal = codes.indexOf('over_request_rate_limit');
    expect(firstRefusal).toBeGreaterThanOrEqual(30);
    expect(codes.slice(0, firstRefusal).every((c) => c === 'otp_expired')).toBe(true);
    // Another client address is not affected.
    const other = await anonClient({ 'x-forwarded-for': '203.0.113.7' }).auth.verifyOtp({
      email: uniqueEmail('guess'),
      token: '123456',
      type: 'email',
    });
    expect(other.error?.code).toBe('otp_expired');
  });
});

/**
 * otp_expiry in config.toml is 600 seconds (10 minutes): a code or link sent 598 seconds ago still works,
 * one sent 601 seconds ago is refused. The clock is moved by back-dating the
 * column GoTrue compares with, as a slow reader would have found it.
 */
describe('e-mail codes and links expire after otp_expiry (600 s)', () => {
  const OTP_EXPIRY = 600;
  const sentAgo = (email: string, column: 'confirmation_sent_at' | 'recovery_sent_at', seconds: number) =>
    adminPool().query(
      `update auth.users set ${column} = now() - make_interval(secs => $2) where email = $1`,
      [email, seconds],
    );

  it.each([
    ['just inside the 10 minutes', OTP_EXPIRY - 2, null],
    ['one second after', OTP_EXPIRY + 1, 'otp_expired'],
  ])('holds on: config.toml — a sign-up code %s', async (_, age, code) => {
    const email = uniqueEmail('expiry-code');
    await anonClient().auth.signUp({ email, password: 'correct horse battery' });
    const token = codeIn(await latestMail(email));
    await sentAgo(email, 'confirmation_sent_at', age as number);
    const { data, error } = await anonClient().auth.verifyOtp({ email, token, type: 'signup' });
    if (code) {
      expect(error).toMatchObject({ status: 403, code, message: 'Token has expired or is invalid' });
      expect(data.session).toBeNull();
    } else {
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
    }
  });

  it.each([
    ['just inside the 10 minutes', OTP_EXPIRY - 2, null],
    ['one second after', OTP_EXPIRY + 1, 'otp_expired'],
  ])('a sign-up link %s', async (_, age, code) => {
    const email = uniqueEmail('expiry-link');
    await anonClient().auth.signUp({ email, password: 'correct horse battery' });
    const link = linkIn(await latestMail(email), '/auth/v1/verify');
    await sentAgo(email, 'confirmation_sent_at', age as number);
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const fragment = Object.fromEntries(
      new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1)),
    );
    if (code) {
      expect(fragment).toMatchObject({ error: 'access_denied', error_code: code });
      expect(fragment.access_token).toBeUndefined();
    } else {
      expect(fragment).toMatchObject({ type: 'signup', token_type: 'bearer' });
    }
  });

  it.each([
    ['just inside the 10 minutes', OTP_EXPIRY - 2, null],
    ['one second after', OTP_EXPIRY + 1, 'otp_expired'],
  ])('holds on: config.toml — a sign-in code %s', async (_, age, code) => {
    const { email } = await confirmedUser();
    await anonClient().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const token = codeIn(await latestMail(email, 2));
    await sentAgo(email, 'recovery_sent_at', age as number);
    const { data, error } = await anonClient().auth.verifyOtp({ email, token, type: 'email' });
    if (code) {
      expect(error).toMatchObject({ status: 403, code });
      expect(data.session).toBeNull();
    } else {
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
    }
  });
});
