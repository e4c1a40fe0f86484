/**
 * Account security (issue 11): each test performs an attack and checks it fails. Code guessing on both
 * paths (the stack's /auth/v1/verify and the legacy GET /api/v1/verify/{...}) with rotating client
 * addresses, forged X-Forwarded-For, accounts revealed by register, /otp and sign-up, sign-in codes
 * e-mailed without limit, refresh-token reuse, JWT roles that PostgREST would not switch to, a password
 * changed with a stolen access token, and logout started by another site.
 *
 * The test stack trusts one proxy in front of it (StackConfig.trustedProxies), so a test names its
 * client address in X-Forwarded-For; rotating it stands for an attacker with many addresses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadAuthSettings, signJwt, testConfig, tokenHash } from '@scamcheck/local-supabase';
import { adminPool, stackEnv } from './helpers.ts';
import {
  anonClient,
  authInstance,
  codeIn,
  confirmedUser,
  latestMail,
  mailsTo,
  uniqueEmail,
} from './auth-helpers.ts';
import { api } from './functions/helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` codes of the same length as `code` that are not `code`. */
function wrongCodes(code: string, count: number): string[] {
  const space = 10 ** code.length;
  return Array.from({ length: count }, (_, i) =>
    String((Number(code) + i + 1) % space).padStart(code.length, '0'),
  );
}

const verifyParam = (hash: string, otp: string) => Buffer.from(`${hash}.${otp}`).toString('base64');

let addressCounter = 0;
/** A public client address no other test uses. */
function freshAddress(): string {
  addressCounter++;
  return `81.2.${Math.floor(Math.random() * 250) + 1}.${(addressCounter % 250) + 1}`;
}

async function signInCode(email: string, mailCount: number): Promise<string> {
  const { error } = await anonClient().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
  if (error) throw error;
  return codeIn(await latestMail(email, mailCount));
}

describe('guessing an e-mail code at /auth/v1/verify', () => {
  it('config.toml keeps the odds per code below 1 in 100,000 for 1,000 addresses, as docs/security.md works out', () => {
    const s = loadAuthSettings(testConfig());
    expect(s.email.otpLength).toBe(10);
    expect(s.email.otpExpiry).toBe(600);
    // GoTrue's tollbooth bucket: a burst of 30, refilled at token_verifications per 5 minutes.
    const triesPerAddress = 30 + (s.email.otpExpiry * s.rateLimit.tokenVerifications) / 300;
    const odds = (1000 * triesPerAddress) / 10 ** s.email.otpLength;
    expect(triesPerAddress).toBe(70);
    expect(odds).toBeLessThan(1 / 100_000);
  });

  it('holds on: local-only — token-hash guesses from 100 addresses of one IPv6 /64 meet 429 after the burst, by POST and by GET', async () => {
    const { email } = await confirmedUser();
    const code = await signInCode(email, 2);
    const hash = tokenHash(email, code);
    const prefix = `2a02:${Math.floor(Math.random() * 0xffff).toString(16)}:77:1`;
    const statuses: number[] = [];
    for (let i = 1; i <= 100 && statuses.at(-1) !== 429; i++) {
      const wrong = tokenHash(email, wrongCodes(code, i).at(-1)!);
      const res =
        i % 2
          ? await fetch(`${stackEnv('API_URL')}/auth/v1/verify`, {
              method: 'POST',
              headers: {
                apikey: stackEnv('ANON_KEY'),
                'content-type': 'application/json',
                'x-forwarded-for': `${prefix}::${i.toString(16)}`,
              },
              body: JSON.stringify({ type: 'email', token_hash: wrong }),
            })
          : await fetch(
              `${stackEnv('API_URL')}/auth/v1/verify?type=magiclink&token=${wrong}&redirect_to=${encodeURIComponent('http://localhost:5173/')}`,
              {
                headers: { apikey: stackEnv('ANON_KEY'), 'x-forwarded-for': `${prefix}:${i}::1` },
                redirect: 'manual',
              },
            );
      statuses.push(res.status);
      await res.body?.cancel();
    }
    // 30 tries (the burst, a few more as it refills), then 429 for the whole /64.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThanOrEqual(31);
    expect(statuses.length).toBeLessThanOrEqual(34);
    expect(statuses.slice(0, 30).every((st) => st === 403 || st === 303)).toBe(true);
    // Another address of the /64 is refused too, even with the right hash; another /64 is not.
    const refused = await anonClient({ 'x-forwarded-for': `${prefix}::ffff` }).auth.verifyOtp({
      type: 'email',
      token_hash: hash,
    });
    expect(refused.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const right = await anonClient({ 'x-forwarded-for': freshAddress() }).auth.verifyOtp({
      type: 'email',
      token_hash: hash,
    });
    expect(right.error).toBeNull();
  });

  it('holds on: config.toml — a typed code and a token hash spend the same per-client bucket (GoTrue keeps no count per code)', async () => {
    const client = freshAddress();
    const statuses: (number | undefined)[] = [];
    for (let i = 0; i < 40 && statuses.at(-1) !== 429; i++) {
      const { error } = await anonClient({ 'x-forwarded-for': client }).auth.verifyOtp(
        i % 2
          ? { email: uniqueEmail('typed'), token: '0123456789', type: 'email' }
          : { token_hash: tokenHash(uniqueEmail('hash'), '0123456789'), type: 'email' },
      );
      statuses.push(error?.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeLessThanOrEqual(34);
  });

  it('holds on: platform — without a trusted proxy, a forged X-Forwarded-For does not pick a new token_verifications bucket', async () => {
    // The stack's default: no trusted proxy, so the client is the connection's address.
    const instance = authInstance(() => undefined, { trustedProxies: 0 });
    try {
      const url = await instance.url();
      const codes: (string | undefined)[] = [];
      while (codes.length < 40 && codes.at(-1) !== 'over_request_rate_limit') {
        // A new forged client address on every request.
        const res = await fetch(`${url}/verify`, {
          method: 'POST',
          headers: {
            apikey: stackEnv('ANON_KEY'),
            'content-type': 'application/json',
            'x-forwarded-for': freshAddress(),
          },
          body: JSON.stringify({ email: uniqueEmail('forged'), token: '123456', type: 'email' }),
        });
        codes.push(((await res.json()) as { error_code?: string }).error_code);
      }
      expect(codes.at(-1)).toBe('over_request_rate_limit');
      expect(codes.length).toBeGreaterThanOrEqual(31);
      expect(codes.length).toBeLessThanOrEqual(34);
    } finally {
      await instance.close();
    }
  });
});

describe('guessing the code through the legacy GET /api/v1/verify/{...}', () => {
  it('a sign-up code dies after five wrong tries from rotating addresses; the right one then confirms nothing', async () => {
    const email = uniqueEmail('legacyguess');
    const reg = await api<{ hash: string }>('POST', '/auth/register', {
      json: { name: 'Target', email, password: 'long enough pw' },
    });
    expect(reg.status).toBe(201);
    const code = codeIn(await latestMail(email));
    for (const guess of wrongCodes(code, 5)) {
      const r = await api('GET', `/verify/${verifyParam(reg.body.hash, guess)}`, {
        headers: { 'x-forwarded-for': freshAddress() },
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe('The code is wrong or has expired');
    }
    const right = await api('GET', `/verify/${verifyParam(reg.body.hash, code)}`, {
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(right.status).toBe(400);
    expect(right.body).toEqual({
      msg: 'This code was tried too many times and no longer works; ask for a new code',
    });
    const { rows } = await adminPool().query(
      'select email_confirmed_at, confirmation_token from auth.users where email = $1',
      [email],
    );
    expect(rows[0]).toEqual({ email_confirmed_at: null, confirmation_token: '' });
  });

  it('holds on: edge function + postgres — limits verify calls per client address and answers 429 with Retry-After', async () => {
    const pool = adminPool();
    await pool.query("update private.rate_limits set max_calls = 3 where name = 'auth_verify.ip'");
    try {
      const client = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const email = uniqueEmail('perclient');
        const reg = await api<{ hash: string }>('POST', '/auth/register', {
          json: { name: 'Someone', email, password: 'long enough pw' },
        });
        const r = await api('GET', `/verify/${verifyParam(reg.body.hash, '000001')}`, {
          headers: { 'x-forwarded-for': client },
        });
        statuses.push(r.status);
        if (r.status === 429) {
          expect(r.body.msg).toBe('Too many attempts, please wait a moment and try again');
          expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await pool.query("update private.rate_limits set max_calls = 30 where name = 'auth_verify.ip'");
    }
  });
});

describe('holds on: edge function + postgres — the legacy register call and existing accounts', () => {
  it('answers as for a new address, changes nothing, mails the owner, and its id cannot verify sign-in codes', async () => {
    const { email, password, user } = await confirmedUser({ name: 'Owner' });
    const newcomer = await api<{ msg: string; hash: string }>('POST', '/auth/register', {
      json: { name: 'Someone', email: uniqueEmail('newcomer'), password: 'long enough pw' },
    });
    const reg = await api<{ msg: string; hash: string }>('POST', '/auth/register', {
      json: { name: 'Attacker', email, password: 'attacker password' },
    });
    expect(reg.status).toBe(newcomer.status);
    expect(Object.keys(reg.body).sort()).toEqual(Object.keys(newcomer.body).sort());
    expect(reg.body.msg).toBe(newcomer.body.msg);
    expect(reg.body.hash).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const notice = await latestMail(email, 2);
    expect(notice.Subject).toBe('You already have a ScamCheck account');
    const { rows } = await adminPool().query(
      "select raw_user_meta_data->>'name' as name from auth.users where id = $1",
      [user.id],
    );
    expect(rows[0].name).toBe('Owner');
    expect((await api('POST', '/auth/login', { json: { email, password } })).status).toBe(200);
    expect(
      (await api('POST', '/auth/login', { json: { email, password: 'attacker password' } })).status,
    ).toBe(401);

    // A sign-in code the owner asked for cannot be typed through the id register gave the attacker.
    const code = await signInCode(email, 3);
    const r = await api('GET', `/verify/${verifyParam(reg.body.hash, code)}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect((await anonClient().auth.verifyOtp({ email, token: code, type: 'email' })).error).toBeNull();
  });
});

describe('accounts revealed by answers', () => {
  it('/auth/v1/otp with create_user false answers the same for an account and for no account', async () => {
    const { email } = await confirmedUser();
    const ask = (address: string) =>
      fetch(`${stackEnv('API_URL')}/auth/v1/otp`, {
        method: 'POST',
        headers: { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' },
        body: JSON.stringify({ email: address, create_user: false }),
      }).then(async (r) => ({ status: r.status, body: await r.text() }));
    const known = await ask(email);
    const unknown = await ask(uniqueEmail('nobody'));
    expect(unknown).toEqual(known);
    expect(known).toEqual({ status: 200, body: '{}' });
  });

  // Holds on: edge function + postgres. The cap is the Send Email hook's (send-email, mail.recipient: 5 a
  // day per address, every kind of e-mail), which hosted GoTrue calls too; the local Auth no longer keeps
  // a count of its own. An address without an account gets no e-mail, so nothing is counted for it.
  it('holds on: edge function + postgres — sign-in codes stop at the per-recipient cap', async () => {
    const { email } = await confirmedUser(); // its confirmation was the first e-mail of the day
    const stranger = uniqueEmail('nobody');
    const errors: Record<string, unknown[]> = { [email]: [], [stranger]: [] };
    for (const address of [email, stranger]) {
      for (let i = 0; i < 5; i++) {
        if (i) await sleep(1050);
        const { error } = await anonClient().auth.signInWithOtp({
          email: address,
          options: { shouldCreateUser: false },
        });
        errors[address].push(error && { status: error.status, code: error.code });
      }
    }
    const refused = { status: 429, code: 'over_email_send_rate_limit' };
    expect(errors[email]).toEqual([null, null, null, null, refused]);
    expect(errors[stranger]).toEqual([null, null, null, null, null]);
    expect((await mailsTo(email, 5)).length).toBe(5);
  });
});

describe('refresh-token reuse', () => {
  it('reusing a spent token after the reuse interval ends the whole family, the newest token included', async () => {
    const { email, password } = await confirmedUser();
    const { data } = await anonClient().auth.signInWithPassword({ email, password });
    const first = data.session!.refresh_token;
    const second = (await anonClient().auth.refreshSession({ refresh_token: first })).data.session!
      .refresh_token;
    const third = (await anonClient().auth.refreshSession({ refresh_token: second })).data.session!
      .refresh_token;
    // The first token was spent more than refresh_token_reuse_interval (10 s) ago.
    await adminPool().query(
      "update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1",
      [first],
    );
    const reuse = await anonClient().auth.refreshSession({ refresh_token: first });
    expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used' });
    const newest = await anonClient().auth.refreshSession({ refresh_token: third });
    expect(newest.error).toMatchObject({ status: 400, code: 'session_expired' });
    expect(newest.data.session).toBeNull();
  });
});

describe('holds on: platform — JWT roles at /rest/v1', () => {
  async function readAs(role: string) {
    const token = await signJwt({ role, exp: Math.floor(Date.now() / 1000) + 600 });
    const res = await fetch(`${stackEnv('API_URL')}/rest/v1/news?select=id&limit=1`, {
      headers: { apikey: stackEnv('ANON_KEY'), authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('refuses roles authenticator cannot switch to, as PostgREST does', async () => {
    for (const role of ['postgres', 'supabase_admin', 'supabase_auth_admin', 'authenticator_is_not_this']) {
      const r = await readAs(role);
      if (role === 'authenticator_is_not_this') {
        expect(r).toEqual({
          status: 401,
          body: { code: '22023', details: null, hint: null, message: `role "${role}" does not exist` },
        });
      } else {
        expect(r).toEqual({
          status: 403,
          body: {
            code: '42501',
            details: null,
            hint: null,
            message: `permission denied to set role "${role}"`,
          },
        });
      }
    }
    for (const role of ['anon', 'authenticated', 'service_role'])
      expect((await readAs(role)).status).toBe(200);
  });
});

describe('changing the password with a stolen access token', () => {
  it('needs the current password or the code from reauthenticate', async () => {
    const { email, password } = await confirmedUser();
    // Whoever holds this client's access token: the password change below goes with it alone.
    const thief = anonClient();
    expect((await thief.auth.signInWithPassword({ email, password })).error).toBeNull();

    const bare = await thief.auth.updateUser({ password: 'thief passphrase 1' });
    expect(bare.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    // Guessing the current password through "same password" answers tells nothing either.
    const same = await thief.auth.updateUser({ password });
    expect(same.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    const wrong = await thief.auth.updateUser({ password: 'thief passphrase 1', current_password: 'guess' });
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'invalid_credentials',
      message: 'The current password is not correct',
    });
    expect((await anonClient().auth.signInWithPassword({ email, password })).error).toBeNull();

    const owner = await thief.auth.updateUser({ password: 'owner passphrase 2', current_password: password });
    expect(owner.error).toBeNull();

    // Or the code e-mailed by reauthenticate; wrong codes are counted like every other code.
    expect((await thief.auth.reauthenticate()).error).toBeNull();
    const nonce = codeIn(await latestMail(email, 2));
    const guessed = await thief.auth.updateUser({
      password: 'thief passphrase 3',
      nonce: wrongCodes(nonce, 1)[0],
    });
    expect(guessed.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const withCode = await thief.auth.updateUser({ password: 'owner passphrase 3', nonce });
    expect(withCode.error).toBeNull();
    expect(
      (await anonClient().auth.signInWithPassword({ email, password: 'owner passphrase 3' })).error,
    ).toBeNull();
  });
});

describe('holds on: edge function — logout started by another site', () => {
  it('refuses a cross-site GET or POST and keeps the session; the app itself logs out by GET or POST', async () => {
    const login = async () => {
      const { email, password } = await confirmedUser();
      const r = await api<{ token: string }>('POST', '/auth/login', { json: { email, password } });
      return r.body.token;
    };
    const token = await login();
    for (const [method, headers] of [
      ['GET', { 'sec-fetch-site': 'cross-site' }],
      ['GET', { origin: 'https://evil.example' }],
      ['POST', { origin: 'https://evil.example' }],
      ['GET', { 'sec-fetch-site': 'same-site' }],
    ] as const) {
      const r = await api(method, '/auth/logout', { token, headers });
      expect(r.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
      expect(r.body.msg).toBe('Log out from ScamCheck itself: another site cannot log you out');
      expect(r.headers.get('set-cookie')).toBeNull();
    }
    expect((await api('GET', '/users/current-user', { token })).status).toBe(200);

    const out = await api('POST', '/auth/logout', {
      token,
      headers: { origin: new URL(stackEnv('APP_URL')).origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).toBe(200);
    expect((await api('GET', '/users/current-user', { token })).status).toBe(401);
    const other = await login();
    expect(
      (await api('GET', '/auth/logout', { token: other, headers: { 'sec-fetch-site': 'same-origin' } }))
        .status,
    ).toBe(200);
  });
});

afterAll(async () => {
  await adminPool().query("update private.rate_limits set max_calls = 30 where name = 'auth_verify.ip'");
});
