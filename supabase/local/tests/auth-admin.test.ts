/**
 * Auth conformance, part 3: the admin API (`supabase.auth.admin`), open to the service role only, and
 * the project-wide e-mail budget (`[auth.rate_limit] email_sent`).
 */
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { configuredSubject, adminPool, stackEnv } from '../testing/index.ts';
import {
  anonClient,
  authInstance,
  codeIn,
  confirmedUser,
  jwtPayload,
  latestMail,
  serviceClient,
  uniqueEmail,
} from '../testing/index.ts';

describe('admin API', () => {
  it('creates a confirmed user who can sign in at once, with app_metadata only the admin can set', async () => {
    const admin = serviceClient();
    const email = uniqueEmail('admin');
    const { data, error } = await admin.auth.admin.createUser({
      email,
      password: 'made by an admin',
      email_confirm: true,
      user_metadata: { name: 'Moderator' },
      app_metadata: { role: 'admin' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      role: 'authenticated',
      email_confirmed_at: expect.any(String),
      app_metadata: { provider: 'email', providers: ['email'], role: 'admin' },
      user_metadata: { name: 'Moderator', email_verified: true },
    });
    expect(data.user!.identities).toHaveLength(1);
    const signIn = await anonClient().auth.signInWithPassword({ email, password: 'made by an admin' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user!.app_metadata.role).toBe('admin');

    const duplicate = await admin.auth.admin.createUser({ email, password: 'another one here' });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('lists users a page at a time, with the total', async () => {
    const admin = serviceClient();
    await confirmedUser();
    await confirmedUser();
    const { data, error } = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    if (!('aud' in data)) throw new Error('expected a page of users');
    expect(data.users).toHaveLength(2);
    expect(data.total).toBeGreaterThanOrEqual(2);
    expect(data.aud).toBe('authenticated');
    // Newest first, as GoTrue sorts them.
    expect(new Date(data.users[0].created_at) >= new Date(data.users[1].created_at)).toBe(true);
    if (data.total > 2) expect(data.nextPage).toBe(2);
  });

  it('holds on: platform — reads, updates, bans and deletes a user', async () => {
    const admin = serviceClient();
    const { user, session, email, password } = await confirmedUser();
    expect((await admin.auth.admin.getUserById(user.id)).data.user).toMatchObject({ id: user.id, email });

    const updated = await admin.auth.admin.updateUserById(user.id, {
      user_metadata: { name: 'Renamed' },
      app_metadata: { role: 'admin' },
    });
    expect(updated.data.user).toMatchObject({
      user_metadata: { name: 'Renamed' },
      app_metadata: { role: 'admin', provider: 'email' },
    });

    const banned = await admin.auth.admin.updateUserById(user.id, { ban_duration: '24h' });
    expect(banned.data.user!.banned_until).toBeTruthy();
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toMatchObject({
      status: 400,
      code: 'user_banned',
    });
    // The sessions stay but cannot be used or refreshed while the ban lasts.
    expect((await anonClient().auth.getUser(session.access_token)).error).toMatchObject({
      status: 403,
      code: 'user_banned',
    });
    expect(
      (await anonClient().auth.refreshSession({ refresh_token: session.refresh_token })).error,
    ).toMatchObject({
      status: 400,
      code: 'user_banned',
      message: 'Invalid Refresh Token: User Banned',
    });
    await admin.auth.admin.updateUserById(user.id, { ban_duration: 'none' });
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull();

    expect((await admin.auth.admin.deleteUser(user.id)).error).toBeNull();
    expect((await admin.auth.admin.getUserById(user.id)).error).toMatchObject({
      status: 404,
      code: 'user_not_found',
      message: 'User not found',
    });
    expect((await anonClient().auth.getUser(session.access_token)).error).toMatchObject({
      status: 403,
      code: 'user_not_found',
    });
    const { rowCount } = await adminPool().query('select 1 from auth.identities where user_id = $1', [
      user.id,
    ]);
    expect(rowCount).toBe(0);
    // supabase-js checks ids itself; a raw call gets GoTrue's answer.
    const raw = await fetch(`${stackEnv('API_URL')}/auth/v1/admin/users/not-a-uuid`, {
      headers: {
        apikey: stackEnv('SERVICE_ROLE_KEY'),
        authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({ code: 'validation_failed', message: 'user_id must be an UUID' });
  });

  it('generates a sign-in link without sending an e-mail', async () => {
    const { email, user } = await confirmedUser();
    const { data, error } = await serviceClient().auth.admin.generateLink({ type: 'magiclink', email });
    expect(error).toBeNull();
    if (!data.user || !data.properties) throw new Error('expected a generated link');
    expect(data.user.id).toBe(user.id);
    expect(data.properties).toMatchObject({
      email_otp: expect.stringMatching(/^\d{10}$/),
      verification_type: 'magiclink',
      redirect_to: stackEnv('APP_URL'),
    });
    expect(data.properties.action_link).toBe(
      `${stackEnv('API_URL')}/auth/v1/verify?token=${data.properties.hashed_token}&type=magiclink&redirect_to=${stackEnv('APP_URL')}`,
    );
    const { data: verified } = await anonClient().auth.verifyOtp({
      token_hash: data.properties.hashed_token,
      type: 'magiclink',
    });
    expect(verified.user!.id).toBe(user.id);
  });

  it('invites a user by e-mail, who accepts with the code and then sets a password', async () => {
    const email = uniqueEmail('invited');
    const { data, error } = await serviceClient().auth.admin.inviteUserByEmail(email, {
      data: { name: 'Invitee' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      invited_at: expect.any(String),
      user_metadata: { name: 'Invitee' },
    });
    const mail = await latestMail(email);
    expect(mail.Subject).toBe(configuredSubject('invite'));
    const client = anonClient();
    const { data: accepted, error: acceptError } = await client.auth.verifyOtp({
      email,
      token: codeIn(mail),
      type: 'invite',
    });
    expect(acceptError).toBeNull();
    expect(accepted.user).toMatchObject({ email, email_confirmed_at: expect.any(String) });
    expect((await client.auth.updateUser({ password: 'my own passphrase' })).error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'my own passphrase' })).error,
    ).toBeNull();
    const again = await serviceClient().auth.admin.inviteUserByEmail(email);
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('holds on: platform — refuses the admin API to the anon key and to users', async () => {
    const { session } = await confirmedUser();
    const asUser = createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: `Bearer ${session.access_token}` } },
      realtime: { transport: WebSocket as never },
    });
    for (const client of [anonClient(), asUser]) {
      const { data, error } = await client.auth.admin.listUsers();
      expect(data.users).toEqual([]);
      expect(error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
      const created = await client.auth.admin.createUser({
        email: uniqueEmail('intruder'),
        password: 'let me in please',
      });
      expect(created.error).toMatchObject({ status: 403, code: 'not_admin' });
    }
  });
});

describe('holds on: config.toml — e-mail budget', () => {
  // The CLI applies `email_sent` only with a custom SMTP server ([auth.email.smtp] enabled); its own mail
  // sink is unlimited, and so is the shared test stack. This instance runs with an SMTP server's budget.
  const instance = authInstance(
    (s) => (s.rateLimit = { ...s.rateLimit, emailSent: 2, emailSentApplies: true }),
  );
  afterAll(() => instance.close());

  it('refuses e-mails beyond email_sent per hour with over_email_send_rate_limit, creating nothing', async () => {
    const client = await instance.client();
    const emails = [uniqueEmail('budget'), uniqueEmail('budget'), uniqueEmail('budget')];
    for (const email of emails.slice(0, 2)) {
      expect((await client.auth.signUp({ email, password: 'correct horse battery' })).error).toBeNull();
      expect(codeIn(await latestMail(email))).toMatch(/^\d{10}$/);
    }
    const { data, error } = await client.auth.signUp({ email: emails[2], password: 'correct horse battery' });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'email rate limit exceeded',
    });
    const { rowCount } = await adminPool().query('select 1 from auth.users where email = $1', [emails[2]]);
    expect(rowCount).toBe(0);
  });
});

describe('secure_password_change', () => {
  // config.toml turns it on; this instance runs without it, to show what the setting changes.
  const without = authInstance((s) => (s.email = { ...s.email, securePasswordChange: false }));
  afterAll(() => without.close());

  it('asks a password session for the current password or the code sent by reauthenticate', async () => {
    const { email, password } = await confirmedUser();
    const client = anonClient();
    await client.auth.signInWithPassword({ email, password });

    const refused = await client.auth.updateUser({ password: 'new session passphrase' });
    expect(refused.error).toMatchObject({
      status: 400,
      code: 'reauthentication_needed',
      message:
        'Password update requires reauthentication: send the current password or the code from GET /reauthenticate',
    });

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await latestMail(email, 2);
    expect(mail.Subject).toBe(configuredSubject('reauthentication'));
    const nonce = codeIn(mail);
    const wrong = await client.auth.updateUser({
      password: 'new session passphrase',
      nonce: nonce === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: 'reauthentication_not_valid',
      message: 'Nonce has expired or is invalid',
    });
    expect((await client.auth.updateUser({ password: 'new session passphrase', nonce })).error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'new session passphrase' })).error,
    ).toBeNull();
  });

  it('lets a session signed in with an e-mail code in the last 10 minutes (a password reset) change it directly', async () => {
    const { email, client, session } = await confirmedUser();
    expect((await client.auth.updateUser({ password: 'reset passphrase 1' })).error).toBeNull();
    await adminPool().query(
      "update auth.mfa_amr_claims set updated_at = now() - interval '11 minutes' where session_id = $1",
      [jwtPayload(session.access_token).session_id],
    );
    const late = await client.auth.updateUser({ password: 'reset passphrase 2' });
    expect(late.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect(
      (
        await client.auth.updateUser({
          password: 'reset passphrase 2',
          current_password: 'reset passphrase 1',
        })
      ).error,
    ).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'reset passphrase 2' })).error,
    ).toBeNull();
  });

  it('without the setting, any session changes the password with the access token alone', async () => {
    const { email, password } = await confirmedUser();
    const client = await without.client();
    await client.auth.signInWithPassword({ email, password });
    expect((await client.auth.updateUser({ password: 'unguarded passphrase' })).error).toBeNull();
  });
});
