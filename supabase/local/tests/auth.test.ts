/**
 * Auth conformance, part 1: sign-up with e-mail confirmation, password sign-in, access tokens, refresh
 * rotation and sign-out, driven through supabase-js as the app does, with the answers GoTrue gives.
 */
import { createClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { configuredSubject, adminPool, stackEnv } from '../testing/index.ts';
import {
  anonClient,
  codeIn,
  confirmedUser,
  jwtPayload,
  latestMail,
  linkIn,
  mailsTo,
  shapeOf,
  uniqueEmail,
} from '../testing/index.ts';

const PASSWORD = 'correct horse battery';

describe('sign-up with e-mail confirmation', () => {
  it("holds on: config.toml — sends the project's e-mail with the code and links, and gives no session until confirmed", async () => {
    const email = uniqueEmail('signup');
    const client = anonClient();
    const { data, error } = await client.auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Maria Santos' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      role: 'authenticated',
      aud: 'authenticated',
      user_metadata: { name: 'Maria Santos' },
    });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.identities![0]).toMatchObject({
      provider: 'email',
      identity_data: { email, email_verified: false, sub: data.user!.id },
    });

    const mail = await latestMail(email);
    expect(mail.Subject).toBe(configuredSubject('confirmation'));
    // The name someone typed at sign-up is not in the e-mail: whoever signs up may not own the address.
    expect(mail.HTML).not.toContain('Maria Santos');
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{10}$/);
    // The SPA's confirmation page is addressed by the token hash GoTrue computes: sha224(email + code).
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha224')
      .update(email + code)
      .digest('hex');
    // The project's template may also link a page of its own by {{ .TokenHash }}: the same hash.
    expect(mail.HTML).toContain(`/${hash}`);
    expect(linkIn(mail, '/auth/v1/verify')).toBe(
      `${stackEnv('API_URL')}/auth/v1/verify?token=${hash}&type=signup&redirect_to=${stackEnv('APP_URL')}`,
    );

    const { error: unconfirmed } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(unconfirmed).toMatchObject({
      status: 400,
      code: 'email_not_confirmed',
      message: 'Email not confirmed',
    });

    const { data: verified, error: verifyError } = await client.auth.verifyOtp({
      email,
      token: code,
      type: 'signup',
    });
    expect(verifyError).toBeNull();
    expect(verified.session).toMatchObject({ token_type: 'bearer' });
    // jwt_expiry is 3600 s; a second may tick between signing and answering.
    expect(verified.session!.expires_in).toBeGreaterThanOrEqual(3599);
    expect(verified.session!.expires_in).toBeLessThanOrEqual(3600);
    expect(verified.user!.email_confirmed_at).toBeTruthy();
    expect(verified.user!.user_metadata).toMatchObject({ name: 'Maria Santos', email_verified: true });

    const { data: again, error: reuse } = await anonClient().auth.verifyOtp({
      email,
      token: code,
      type: 'signup',
    });
    expect(again.session).toBeNull();
    expect(reuse).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });

    const { data: signedIn, error: signInError } = await client.auth.signInWithPassword({
      email,
      password: PASSWORD,
    });
    expect(signInError).toBeNull();
    expect(signedIn.user!.id).toBe(data.user!.id);
  });

  it('holds on: platform — confirms with the token hash the e-mail carries, once', async () => {
    const email = uniqueEmail('hash');
    await anonClient().auth.signUp({ email, password: PASSWORD });
    const link = new URL(linkIn(await latestMail(email), '/auth/v1/verify'));
    const hash = link.searchParams.get('token')!;
    const { data, error } = await anonClient().auth.verifyOtp({ token_hash: hash, type: 'signup' });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    const { error: second } = await anonClient().auth.verifyOtp({ token_hash: hash, type: 'signup' });
    expect(second).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
  });

  it('confirms through the e-mail link, redirecting with the session in the fragment', async () => {
    const email = uniqueEmail('link');
    await anonClient().auth.signUp({ email, password: PASSWORD });
    const link = linkIn(await latestMail(email), '/auth/v1/verify');
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(`${stackEnv('APP_URL')}/`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    const { data } = await anonClient().auth.getUser(fragment.get('access_token')!);
    expect(data.user?.email).toBe(email);

    // The same link again: back to the site with GoTrue's error in the fragment.
    const again = await fetch(link, { redirect: 'manual' });
    const errorFragment = new URLSearchParams(new URL(again.headers.get('location')!).hash.slice(1));
    expect(Object.fromEntries(errorFragment)).toMatchObject({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
  });

  it('holds on: config.toml — rejects a wrong code and a weak password', async () => {
    const email = uniqueEmail('weak');
    const { data, error } = await anonClient().auth.signUp({ email, password: 'short' });
    expect(data.user).toBeNull();
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    });

    await anonClient().auth.signUp({ email, password: PASSWORD });
    const code = codeIn(await latestMail(email));
    const wrong = code === '000000' ? '111111' : '000000';
    const { error: wrongCode } = await anonClient().auth.verifyOtp({ email, token: wrong, type: 'signup' });
    expect(wrongCode).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('does not reveal whether an address is registered', async () => {
    const { email, user } = await confirmedUser();
    const { data, error } = await anonClient().auth.signUp({ email, password: 'another password 1' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    // A user that looks new: a fresh id, and the same fields, identity included, as a new address gets;
    // no e-mail to the real owner.
    expect(data.user!.id).not.toBe(user.id);
    const fresh = await anonClient().auth.signUp({
      email: uniqueEmail('fresh'),
      password: 'another password 1',
    });
    expect(shapeOf(data)).toEqual(shapeOf(fresh.data));
    expect(data.user!.identities).toHaveLength(1);
    expect((await mailsTo(email)).length).toBe(1);
    const { error: signIn } = await anonClient().auth.signInWithPassword({
      email,
      password: 'another password 1',
    });
    expect(signIn).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'Invalid login credentials',
    });
  });

  it('answers errors in the shape of the API version the client asks for', async () => {
    const url = `${stackEnv('API_URL')}/auth/v1/token?grant_type=password`;
    const body = JSON.stringify({ email: uniqueEmail('nobody'), password: 'whatever it is' });
    const headers = { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' };
    const v2024 = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...headers, 'x-supabase-api-version': '2024-01-01' },
    });
    expect(v2024.status).toBe(400);
    expect(v2024.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await v2024.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
    const legacy = await fetch(url, { method: 'POST', body, headers });
    expect(legacy.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });
  });
});

describe('password sign-in and access tokens', () => {
  it('issues an HS256 access token with the claims Supabase issues', async () => {
    const { email, password, user } = await confirmedUser({ name: 'Juan' });
    const client = anonClient();
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    const { session } = data;
    expect(session!.refresh_token).toMatch(/^[a-z0-9]{12}$/);
    expect(session!.expires_at! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
    const header = JSON.parse(
      Buffer.from(session!.access_token.split('.')[0], 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const claims = jwtPayload(session!.access_token);
    expect(claims).toMatchObject({
      iss: `${stackEnv('API_URL')}/auth/v1`,
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { name: 'Juan', email_verified: true },
      aal: 'aal1',
      is_anonymous: false,
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    const { rows } = await adminPool().query('select user_id from auth.sessions where id = $1', [
      claims.session_id,
    ]);
    expect(rows).toEqual([{ user_id: user.id }]);

    const { data: me } = await client.auth.getUser();
    expect(me.user).toMatchObject({ id: user.id, email, last_sign_in_at: expect.any(String) });
  });

  it('rejects a wrong password and an unknown address alike', async () => {
    const { email } = await confirmedUser();
    const wrong = await anonClient().auth.signInWithPassword({ email, password: 'not the password' });
    const unknown = await anonClient().auth.signInWithPassword({
      email: uniqueEmail('ghost'),
      password: 'not the password',
    });
    for (const r of [wrong, unknown]) {
      expect(r.data.session).toBeNull();
      expect(r.error).toMatchObject({
        status: 400,
        code: 'invalid_credentials',
        message: 'Invalid login credentials',
      });
    }
  });

  it('holds on: platform — refuses forged, expired and anonymous tokens on /user', async () => {
    const { session } = await confirmedUser();
    const [h, p] = session.access_token.split('.');
    const forged = `${h}.${p}.${Buffer.from('forged signature').toString('base64url')}`;
    const { data, error } = await anonClient().auth.getUser(forged);
    expect(data.user).toBeNull();
    expect(error).toMatchObject({ status: 403, code: 'bad_jwt' });

    const claims = jwtPayload(session.access_token);
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(stackEnv('JWT_SECRET')));
    const { error: expiredError } = await anonClient().auth.getUser(expired);
    expect(expiredError).toMatchObject({ status: 403, code: 'bad_jwt' });
    expect(expiredError!.message).toContain('token is expired');

    const { error: anonError } = await anonClient().auth.getUser(stackEnv('ANON_KEY'));
    expect(anonError).toMatchObject({
      status: 403,
      code: 'bad_jwt',
      message: 'invalid claim: missing sub claim',
    });

    const res = await fetch(`${stackEnv('API_URL')}/auth/v1/user`, {
      headers: { 'x-supabase-api-version': '2024-01-01' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      code: 'no_authorization',
      message: 'This endpoint requires a valid Bearer token',
    });
    // As behind the CLI's gateway, an apikey without Authorization is taken as the bearer token.
    const keyOnly = await fetch(`${stackEnv('API_URL')}/auth/v1/user`, {
      headers: { apikey: stackEnv('ANON_KEY'), 'x-supabase-api-version': '2024-01-01' },
    });
    expect(keyOnly.status).toBe(403);
    expect(await keyOnly.json()).toEqual({ code: 'bad_jwt', message: 'invalid claim: missing sub claim' });
  });
});

describe('refresh tokens and sign-out', () => {
  it('rotates refresh tokens and revokes the session when an old one is replayed', async () => {
    const { session } = await confirmedUser();
    const client = anonClient();
    const first = session.refresh_token;
    const { data: r1, error: e1 } = await client.auth.refreshSession({ refresh_token: first });
    expect(e1).toBeNull();
    const second = r1.session!.refresh_token;
    expect(second).not.toBe(first);
    expect(jwtPayload(r1.session!.access_token).session_id).toBe(jwtPayload(session.access_token).session_id);

    // A client that lost the answer may retry with the parent of the active token and gets the active one.
    const { data: retry } = await anonClient().auth.refreshSession({ refresh_token: first });
    expect(retry.session!.refresh_token).toBe(second);

    const { data: r2 } = await anonClient().auth.refreshSession({ refresh_token: second });
    const third = r2.session!.refresh_token;

    // Replaying the first token once the reuse interval (10 s) has passed is treated as theft.
    await adminPool().query(
      "update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1",
      [first],
    );
    const { data: replay, error: replayError } = await anonClient().auth.refreshSession({
      refresh_token: first,
    });
    expect(replay.session).toBeNull();
    expect(replayError).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });
    const { rows } = await adminPool().query('select revoked from auth.refresh_tokens where token = $1', [
      third,
    ]);
    expect(rows).toEqual([{ revoked: true }]);

    const { error: unknown } = await anonClient().auth.refreshSession({ refresh_token: 'abcdefghijkl' });
    expect(unknown).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('holds on: platform — signs out this session, the other sessions, or all of them', async () => {
    const { email, password } = await confirmedUser();
    const signIn = async () => {
      const c = anonClient();
      const { data } = await c.auth.signInWithPassword({ email, password });
      return { c, s: data.session! };
    };
    const a = await signIn();
    const b = await signIn();
    const c = await signIn();

    expect((await a.c.auth.signOut({ scope: 'local' })).error).toBeNull();
    // GoTrue answers 403 session_not_found, which supabase-js turns into AuthSessionMissingError.
    expect((await anonClient().auth.getUser(a.s.access_token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect(
      (await anonClient().auth.refreshSession({ refresh_token: a.s.refresh_token })).error,
    ).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await anonClient().auth.getUser(b.s.access_token)).data.user?.email).toBe(email);

    expect((await b.c.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await anonClient().auth.getUser(c.s.access_token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    expect((await anonClient().auth.getUser(b.s.access_token)).data.user?.email).toBe(email);

    const d = await signIn();
    expect((await b.c.auth.signOut()).error).toBeNull();
    expect((await anonClient().auth.getUser(d.s.access_token)).error).toMatchObject({
      name: 'AuthSessionMissingError',
    });
    const raw = await fetch(`${stackEnv('API_URL')}/auth/v1/user`, {
      headers: {
        apikey: stackEnv('ANON_KEY'),
        authorization: `Bearer ${d.s.access_token}`,
        'x-supabase-api-version': '2024-01-01',
      },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toEqual({
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    expect(
      (await anonClient().auth.refreshSession({ refresh_token: d.s.refresh_token })).error,
    ).toMatchObject({ status: 400 });
  });
});

describe('audit trail', () => {
  it('records what happened to an account in auth.audit_log_entries, as GoTrue does', async () => {
    const email = uniqueEmail('audit');
    const client = anonClient();
    const { data } = await client.auth.signUp({ email, password: PASSWORD });
    await client.auth.verifyOtp({ email, token: codeIn(await latestMail(email)), type: 'signup' });
    const { data: signedIn } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    await client.auth.refreshSession({ refresh_token: signedIn.session!.refresh_token });
    await client.auth.signOut();
    const { rows } = await adminPool().query<{ payload: Record<string, unknown> }>(
      `select payload from auth.audit_log_entries where payload->>'actor_id' = $1 order by created_at, payload->>'action'`,
      [data.user!.id],
    );
    expect(rows.map((r) => r.payload.action)).toEqual([
      'user_confirmation_requested',
      'user_signedup',
      'login',
      'token_refreshed',
      'token_revoked',
      'logout',
    ]);
    expect(rows[2].payload).toMatchObject({
      actor_username: email,
      actor_via_sso: false,
      log_type: 'account',
      traits: { provider: 'email' },
    });
  });
});

describe('auth.users triggers', () => {
  const fn = `auth_test_on_signup_${process.pid}`;
  afterAll(async () => {
    await adminPool().query(
      `drop trigger if exists ${fn} on auth.users; drop function if exists public.${fn}(); drop table if exists public.${fn}_log`,
    );
  });

  it('fires a trigger on auth.users as sign-up inserts the user, as on Supabase', async () => {
    await adminPool().query(`
      create table public.${fn}_log (user_id uuid primary key, email text, name text);
      create function public.${fn}() returns trigger language plpgsql security definer set search_path = '' as $$
      begin
        insert into public.${fn}_log (user_id, email, name) values (new.id, new.email, new.raw_user_meta_data->>'name');
        return new;
      end $$;
      create trigger ${fn} after insert on auth.users for each row execute function public.${fn}();
    `);
    const email = uniqueEmail('trigger');
    const { data } = await anonClient().auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: 'Ana' } },
    });
    const { rows } = await adminPool().query(`select * from public.${fn}_log where user_id = $1`, [
      data.user!.id,
    ]);
    expect(rows).toEqual([{ user_id: data.user!.id, email, name: 'Ana' }]);
  });
});

describe('PKCE flow', () => {
  const pkceClient = () =>
    createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
      auth: { flowType: 'pkce', persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    });

  it('confirms through the e-mail link with ?code=, which only the client holding the verifier can exchange', async () => {
    const client = pkceClient();
    const email = uniqueEmail('pkce');
    expect((await client.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
    const mail = await latestMail(email);
    expect(new URL(linkIn(mail, '/auth/v1/verify')).searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56}$/);
    const res = await fetch(linkIn(mail, '/auth/v1/verify'), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const tokenUrl = `${stackEnv('API_URL')}/auth/v1/token?grant_type=pkce`;
    const headers = {
      apikey: stackEnv('ANON_KEY'),
      'content-type': 'application/json',
      'x-supabase-api-version': '2024-01-01',
    };
    const stolen = await fetch(tokenUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(56) }),
    });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toEqual({
      code: 'bad_code_verifier',
      message: 'code challenge does not match previously saved code verifier',
    });

    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    expect(jwtPayload(data.session!.access_token).amr).toEqual([
      { method: 'email/signup', timestamp: expect.any(Number) },
    ]);

    const again = await fetch(tokenUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(56) }),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 'flow_state_not_found' });
  });

  it('still accepts the typed code of a PKCE sign-up', async () => {
    const email = uniqueEmail('pkcecode');
    await pkceClient().auth.signUp({ email, password: PASSWORD });
    const { data, error } = await anonClient().auth.verifyOtp({
      email,
      token: codeIn(await latestMail(email)),
      type: 'signup',
    });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });
});
