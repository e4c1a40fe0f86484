/** /api/v1 accounts: register, confirm, login (bearer and cookie), logout, current user, profile. */
import { describe, expect, it } from 'vitest';
import { leakedMarkers } from '../image-corpus.ts';
import { adminPool, stackEnv } from '../helpers.ts';
import { codeIn, latestMail, uniqueEmail } from '../auth-helpers.ts';
import {
  api,
  createUser,
  downloadObject,
  gpsJpeg,
  forgedToken,
  formOf,
  objectsIn,
  tinyJpeg,
} from './helpers.ts';

const verifyParam = (hash: string, otp: string) => Buffer.from(`${hash}.${otp}`).toString('base64');

describe('POST /auth/register and GET /verify/{base64 of hash.otp}', () => {
  it('holds on: config.toml — registers, e-mails a code, and confirms with it', async () => {
    const email = uniqueEmail('reg');
    const reg = await api<{ msg: string; hash: string }>('POST', '/auth/register', {
      json: { name: 'Rina Reyes', email, password: 'long enough pw' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.msg).toBe('Please Confirm your email!');
    expect(reg.body.hash).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(reg.body.hash).not.toContain(email.split('@')[0]);

    // Not confirmed yet: login is refused with the confirmation message.
    const early = await api('POST', '/auth/login', { json: { email, password: 'long enough pw' } });
    expect(early.status).toBe(403);
    expect(early.body.msg).toBe('Please Confirm your email!');

    const code = codeIn(await latestMail(email));
    const wrong = await api(
      'GET',
      `/verify/${verifyParam(reg.body.hash, code === '000000' ? '111111' : '000000')}`,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toMatch(/wrong or has expired/);

    const ok = await api<{ msg: string; token: string; user: { name: string } }>(
      'GET',
      `/verify/${verifyParam(reg.body.hash, code)}`,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.msg).toBe('Email Confirmed');
    expect(ok.body.user.name).toBe('Rina Reyes');
    expect(ok.headers.get('set-cookie')).toMatch(/scamcheck_session=.+HttpOnly/);

    const login = await api('POST', '/auth/login', { json: { email, password: 'long enough pw' } });
    expect(login.status).toBe(200);
  });

  it('refuses missing fields, bad e-mails, short passwords and non-JSON bodies with 400', async () => {
    const cases: unknown[] = [
      {},
      { name: 'A', email: 'not-an-email', password: 'long enough pw' },
      { name: 'A', email: uniqueEmail(), password: 'short' },
      { name: 42, email: uniqueEmail(), password: 'long enough pw' },
    ];
    for (const json of cases) {
      const r = await api('POST', '/auth/register', { json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(typeof r.body.msg).toBe('string');
    }
    const bad = await api('POST', '/auth/register', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Malformed JSON in request body');
  });

  it('refuses verify links that are not base64 of hash.otp, or carry a tampered hash', async () => {
    for (const param of [
      '%%%',
      Buffer.from('no-dot-here').toString('base64'),
      verifyParam('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '123456'),
    ]) {
      const r = await api('GET', `/verify/${param}`);
      expect(r.status, param).toBe(400);
    }
  });
});

/** One Set-Cookie value split into its name, value and attributes (names lower-cased), in order. */
function parseCookie(header: string) {
  const [pair, ...attrs] = header.split(';').map((p) => p.trim());
  const eq = pair.indexOf('=');
  return {
    name: pair.slice(0, eq),
    value: pair.slice(eq + 1),
    attributes: attrs.map((a) => {
      const i = a.indexOf('=');
      return i < 0 ? [a.toLowerCase()] : [a.slice(0, i).toLowerCase(), a.slice(i + 1)];
    }),
  };
}

/** The cookies of an answer by name, each read from its own Set-Cookie header. */
function cookiesOf(res: { headers: Headers }) {
  return Object.fromEntries(res.headers.getSetCookie().map((c) => [parseCookie(c).name, parseCookie(c)]));
}

describe('session cookie attributes, one cookie at a time', () => {
  it('login sets exactly two cookies, each HttpOnly, SameSite=Lax, Path=/, with its own lifetime; no Secure on http', async () => {
    const user = await createUser('cookies');
    const login = await api<{ token: string }>('POST', '/auth/login', {
      json: { email: user.email, password: user.password },
    });
    expect(login.headers.getSetCookie()).toHaveLength(2);
    const { scamcheck_session: session, scamcheck_refresh: refresh } = cookiesOf(login);
    expect(decodeURIComponent(session.value)).toBe(login.body.token);
    expect(refresh.value).toMatch(/^[A-Za-z0-9_%-]{8,}$/);
    const lifetime = Number(new Map(session.attributes as [string, string][]).get('max-age'));
    // jwt_expiry is 3600 s; a second may tick between signing and answering.
    expect(lifetime === 3600 || lifetime === 3599, String(lifetime)).toBe(true);
    expect(session.attributes).toEqual([
      ['path', '/'],
      ['httponly'],
      ['samesite', 'Lax'],
      ['max-age', String(lifetime)],
    ]);
    // 30 days = 2592000 s
    expect(refresh.attributes).toEqual([
      ['path', '/'],
      ['httponly'],
      ['samesite', 'Lax'],
      ['max-age', '2592000'],
    ]);
  });

  it('cookies renewed from the refresh cookie carry the same attributes', async () => {
    const user = await createUser('cookies');
    const login = await api('POST', '/auth/login', { json: { email: user.email, password: user.password } });
    const refresh = `scamcheck_refresh=${cookiesOf(login).scamcheck_refresh.value}`;
    const me = await api('GET', '/users/current-user', { headers: { cookie: refresh } });
    expect(me.status).toBe(200);
    const renewed = cookiesOf(me);
    expect(Object.keys(renewed).sort()).toEqual(['scamcheck_refresh', 'scamcheck_session']);
    expect(renewed.scamcheck_refresh.attributes).toEqual([
      ['path', '/'],
      ['httponly'],
      ['samesite', 'Lax'],
      ['max-age', '2592000'],
    ]);
    expect(renewed.scamcheck_session.attributes.slice(0, 3)).toEqual([
      ['path', '/'],
      ['httponly'],
      ['samesite', 'Lax'],
    ]);
  });

  it('logout clears both cookies with Max-Age=0, each HttpOnly', async () => {
    const out = await api('GET', '/auth/logout');
    const cleared = cookiesOf(out);
    expect(out.headers.getSetCookie()).toHaveLength(2);
    for (const name of ['scamcheck_session', 'scamcheck_refresh']) {
      expect(cleared[name].value, name).toBe('');
      expect(cleared[name].attributes, name).toEqual([
        ['path', '/'],
        ['httponly'],
        ['samesite', 'Lax'],
        ['max-age', '0'],
      ]);
    }
  });
});

describe('POST /auth/login, GET /auth/logout', () => {
  it('returns the token and sets an HttpOnly cookie; both authenticate; logout ends the session', async () => {
    const user = await createUser('login');
    const login = await api<{ token: string; msg: string; user: { email: string; role: string } }>(
      'POST',
      '/auth/login',
      {
        json: { email: user.email, password: user.password },
      },
    );
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: user.email, role: 'user' });
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const sessionCookie = cookie.split(';')[0];

    const byCookie = await api<{ user: { email: string } }>('GET', '/users/current-user', {
      headers: { cookie: sessionCookie },
    });
    expect(byCookie.status).toBe(200);
    expect(byCookie.body.user.email).toBe(user.email);
    const byBearer = await api('GET', '/users/current-user', { token: login.body.token });
    expect(byBearer.status).toBe(200);

    const out = await api('GET', '/auth/logout', { headers: { cookie: sessionCookie } });
    expect(out.status).toBe(200);
    expect(out.body.msg).toBe('Logout Sucessfully');
    expect(out.headers.get('set-cookie')).toMatch(/scamcheck_session=;.*Max-Age=0/);
  });

  it('holds on: edge function — a cookie-only client stays signed in: with the access cookie gone, the refresh cookie renews both', async () => {
    const user = await createUser('refresh');
    const login = await api('POST', '/auth/login', { json: { email: user.email, password: user.password } });
    const cookies = login.headers.getSetCookie();
    expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual(['scamcheck_refresh', 'scamcheck_session']);
    const refresh = cookies.find((c) => c.startsWith('scamcheck_refresh='))!.split(';')[0];

    const me = await api<{ user: { email: string } }>('GET', '/users/current-user', {
      headers: { cookie: refresh },
    });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(user.email);
    const renewed = me.headers.getSetCookie();
    const session = renewed.find((c) => c.startsWith('scamcheck_session='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(
      (await api('GET', '/users/current-user', { headers: { cookie: session.split(';')[0] } })).status,
    ).toBe(200);

    const forged = await api('GET', '/users/current-user', {
      headers: { cookie: 'scamcheck_refresh=not-a-real-token' },
    });
    expect(forged.status).toBe(401);
  });

  it('holds on: edge function — answers wrong passwords and unknown users alike, with 401', async () => {
    const user = await createUser('login');
    const wrong = await api('POST', '/auth/login', {
      json: { email: user.email, password: 'not the password' },
    });
    const unknown = await api('POST', '/auth/login', {
      json: { email: uniqueEmail('nobody'), password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect((await api('POST', '/auth/login', { json: { email: user.email } })).status).toBe(400);
  });

  it('holds on: edge function — a stale or forged session never blocks logging out or in again', async () => {
    expect((await api('GET', '/auth/logout')).status).toBe(200);
    const out = await api('GET', '/auth/logout', {
      headers: { cookie: `scamcheck_session=${forgedToken()}` },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const user = await createUser('relogin');
    const again = await api('POST', '/auth/login', {
      token: forgedToken(user),
      json: { email: user.email, password: user.password },
    });
    expect(again.status).toBe(200);
  });

  it('holds on: edge function — a logged-out token no longer works', async () => {
    const user = await createUser('out');
    expect((await api('GET', '/auth/logout', { token: user.token })).status).toBe(200);
    expect((await api('GET', '/users/current-user', { token: user.token })).status).toBe(401);
  });
});

describe('GET /users/current-user, PATCH /users/update-user', () => {
  it('holds on: edge function — needs a valid session: none, forged, garbage and anon key are refused with 401', async () => {
    expect((await api('GET', '/users/current-user')).status).toBe(401);
    const user = await createUser('cu');
    expect((await api('GET', '/users/current-user', { token: forgedToken(user) })).status).toBe(401);
    expect((await api('GET', '/users/current-user', { token: 'garbage' })).status).toBe(401);
    expect(
      (await api('GET', '/users/current-user', { headers: { authorization: 'Basic abc' } })).status,
    ).toBe(401);
    expect(
      (
        await api('GET', '/users/current-user', {
          headers: { cookie: 'scamcheck_session=forged.token.value' },
        })
      ).status,
    ).toBe(401);
  });

  it('updates the name and stores the avatar without its GPS tags under a server-chosen name', async () => {
    const user = await createUser('avatar', { name: 'Before' });
    const jpeg = gpsJpeg();
    const res = await api<{ msg: string; user: { name: string; avatar: string } }>(
      'PATCH',
      '/users/update-user',
      {
        token: user.token,
        form: formOf(
          { name: 'After' },
          { field: 'avatar', bytes: jpeg, name: '../../etc/passwd.jpg', type: 'image/jpeg' },
        ),
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Profile updated successfully');
    expect(res.body.user.name).toBe('After');
    const [stored] = await objectsIn('avatars', `${user.id}/`);
    expect(stored).toMatch(new RegExp(`^${user.id}/[0-9a-f-]{36}\\.jpg$`));
    expect(res.body.user.avatar).toContain(stored);
    const bytes = await downloadObject('avatars', stored);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // GPS, the APP0 text, the comment and the bytes after EOI are gone; so is every APP segment.
    expect(leakedMarkers(bytes)).toEqual([]);
    expect(bytes.includes(Buffer.from('JFIF'))).toBe(false);
    expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('holds on: edge function — refuses an oversize avatar and a script renamed .png, storing nothing and changing nothing', async () => {
    const user = await createUser('avatar', { name: 'Unchanged' });
    const big = await api('PATCH', '/users/update-user', {
      token: user.token,
      form: formOf(
        { name: 'Changed' },
        {
          field: 'avatar',
          bytes: Buffer.concat([tinyJpeg(), Buffer.alloc(500_001)]),
          name: 'a.jpg',
          type: 'image/jpeg',
        },
      ),
    });
    expect(big.status).toBe(400);
    expect(big.body.msg).toBe('Image size too large');
    const script = await api('PATCH', '/users/update-user', {
      token: user.token,
      form: formOf(
        { name: 'Changed' },
        {
          field: 'avatar',
          bytes: Buffer.from('<?php echo shell_exec($_GET["c"]); ?>'),
          name: 'shell.png',
          type: 'image/png',
        },
      ),
    });
    expect(script.status).toBe(400);
    expect(script.body.msg).toMatch(/must be an image/);
    expect(await objectsIn('avatars', `${user.id}/`)).toEqual([]);
    const { rows } = await adminPool().query('select name from public.profiles where id = $1', [user.id]);
    expect(rows[0].name).toBe('Unchanged');
  });

  it('a new e-mail address waits for confirmation sent to it', async () => {
    const user = await createUser('mail');
    const next = uniqueEmail('moved');
    const res = await api<{ msg: string; emailChangePending: boolean; user: { email: string } }>(
      'PATCH',
      '/users/update-user',
      { token: user.token, json: { email: next } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ msg: 'Profile updated successfully', emailChangePending: true });
    expect(res.body.user.email).toBe(user.email);
    expect((await latestMail(next)).To[0].Address).toBe(next);
    const taken = await api('PATCH', '/users/update-user', {
      token: user.token,
      json: { email: 'not-an-email' },
    });
    expect(taken.status).toBe(400);
  });

  it('holds on: edge function — refuses an empty update and an over-long name with 400', async () => {
    const user = await createUser('upd');
    expect((await api('PATCH', '/users/update-user', { token: user.token, json: {} })).status).toBe(400);
    expect(
      (await api('PATCH', '/users/update-user', { token: user.token, json: { name: 'x'.repeat(101) } }))
        .status,
    ).toBe(400);
    expect((await api('PATCH', '/users/update-user', { json: { name: 'x' } })).status).toBe(401);
  });
});

describe('the app server forwards /api/v1 to the api function', () => {
  it('logs in and reads the current user through {APP_URL}/api/v1 with the cookie alone', async () => {
    const user = await createUser('app');
    const app = stackEnv('APP_URL');
    const login = await fetch(`${app}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const me = await fetch(`${app}/api/v1/users/current-user`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(user.email);
    const news = await fetch(`${app}/api/v1/news/frontpage`);
    expect(((await news.json()) as { news: unknown[] }).news.length).toBeGreaterThan(0);
  });
});
