/**
 * Issue 28 ("Security, third round"): each finding replayed as an attacker would, against the local
 * stack behind its one trusted proxy (a test names its client address in X-Forwarded-For; a new address
 * stands for another machine of the attacker). The token-hash guesses at /auth/v1/verify are in
 * ../auth-security.test.ts; the message check's bounded time belongs to issue 30.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { adminPool, stackEnv, unique } from '../helpers.ts';
import { mailsTo, uniqueEmail } from '../auth-helpers.ts';
import { animatedWebpBomb, BASE_JPEG } from '../image-corpus.ts';
import {
  address,
  api,
  createUser,
  formOf,
  jpegOfSize,
  objectsIn,
  reportFields,
  runJob,
  type TestUser,
} from './helpers.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verifyParam = (id: string, otp: string) => Buffer.from(`${id}.${otp}`).toString('base64');
const sha224 = (text: string) => createHash('sha224').update(text).digest('hex');

/** Sets a limit's max_calls for the duration of `run`, then puts the old value back. */
async function withLimit<T>(name: string, maxCalls: number, run: () => Promise<T>): Promise<T> {
  const pool = adminPool();
  const { rows } = await pool.query<{ max_calls: number }>(
    'select max_calls from private.rate_limits where name = $1',
    [name],
  );
  await pool.query('update private.rate_limits set max_calls = $2 where name = $1', [name, maxCalls]);
  try {
    return await run();
  } finally {
    await pool.query('update private.rate_limits set max_calls = $2 where name = $1', [
      name,
      rows[0].max_calls,
    ]);
  }
}

describe('the legacy verify route: guessing by token hash', () => {
  it('holds on: edge function + postgres — wrong token hashes meet 429 per client address, whatever the hash', async () => {
    await withLimit('auth_verify.ip', 5, async () => {
      const client = address();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const r = await api(
          'GET',
          `/verify/${verifyParam(sha224(`${unique('v')}0123456789`), '0123456789')}`,
          {
            headers: { 'x-forwarded-for': client },
          },
        );
        statuses.push(r.status);
        if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(r.headers.get('set-cookie')).toBeNull();
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    });
  });

  it('holds on: edge function + config.toml — forwards the caller to Auth: with the route limit out of the way, Auth counts that caller (token_verifications)', async () => {
    await withLimit('auth_verify.ip', 10_000, async () => {
      const client = address();
      const statuses: number[] = [];
      while (statuses.length < 45 && statuses.at(-1) !== 429) {
        const r = await api('GET', `/verify/${verifyParam(sha224(unique('h')), '0123456789')}`, {
          headers: { 'x-forwarded-for': client },
        });
        statuses.push(r.status);
      }
      // Auth's burst of 30 for this caller (a few more as it refills), then 429, which the route passes on.
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.length).toBeGreaterThanOrEqual(31);
      expect(statuses.length).toBeLessThanOrEqual(36);
      // Another caller is not affected: the function's own address is not what Auth counts.
      const other = await api('GET', `/verify/${verifyParam(sha224(unique('h')), '0123456789')}`, {
        headers: { 'x-forwarded-for': address() },
      });
      expect(other.status).toBe(400);
    });
  });
});

describe('the legacy login: guessing a password', () => {
  let victim: TestUser;
  beforeAll(async () => {
    victim = await createUser('pwguess');
  });

  it('holds on: edge function + postgres — ten tries per account in 15 minutes from any number of addresses; then even the right password waits', async () => {
    // A right password clears the count.
    for (let i = 0; i < 3; i++)
      expect(
        (
          await api('POST', '/auth/login', {
            json: { email: victim.email, password: `wrong ${i}` },
            headers: { 'x-forwarded-for': address() },
          })
        ).status,
      ).toBe(401);
    expect(
      (
        await api('POST', '/auth/login', {
          json: { email: victim.email, password: victim.password },
          headers: { 'x-forwarded-for': address() },
        })
      ).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await api('POST', '/auth/login', {
        json: { email: victim.email, password: `guess ${i}` },
        headers: { 'x-forwarded-for': address() },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const right = await api('POST', '/auth/login', {
      json: { email: victim.email, password: victim.password },
      headers: { 'x-forwarded-for': address() },
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.headers.get('set-cookie')).toBeNull();
    // An address without an account is counted the same way, so the 429 tells nothing.
    const nobody = uniqueEmail('nobody');
    const answers: number[] = [];
    for (let i = 0; i < 11; i++)
      answers.push(
        (await api('POST', '/auth/login', { json: { email: nobody, password: `guess ${i}` } })).status,
      );
    expect(answers).toEqual(statuses);
  }, 240_000);

  it('holds on: edge function — answers in the same time for an account and for no account (medians of 7)', async () => {
    const user = await createUser('timing');
    const time = async (email: string) => {
      const started = performance.now();
      const r = await api('POST', '/auth/login', {
        json: { email, password: 'not the password' },
        headers: { 'x-forwarded-for': address() },
      });
      expect(r.status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time(user.email));
      unknown.push(await time(uniqueEmail('ghost')));
    }
    expect(median(unknown)).toBeGreaterThanOrEqual(600);
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(100);
  }, 120_000);
});

describe("holds on: edge function + postgres — the stranger's mailbox", () => {
  it("register of a stranger's address delivers at most 5 e-mails a day, none with the attacker's words", async () => {
    const stranger = uniqueEmail('stranger');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      if (i) await sleep(1100); // Auth's max_frequency between two confirmations
      const r = await api('POST', '/auth/register', {
        json: { name: 'Claim your prize at evil.example now', email: stranger, password: 'long enough pw' },
        headers: { 'x-forwarded-for': address() },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const mails = await mailsTo(stranger, 5);
    await sleep(500);
    expect((await mailsTo(stranger, 5)).length).toBe(5);
    for (const m of mails) {
      expect(m.HTML).not.toMatch(/evil\.example|prize/i);
      expect(m.Text).not.toMatch(/evil\.example|prize/i);
    }
  }, 60_000);

  it("an owner's notices from register spend the same allowance", async () => {
    const owner = await createUser('owner');
    await adminPool().query('select public.mail_recipient_take($1) from generate_series(1, 5)', [
      owner.email,
    ]);
    const r = await api('POST', '/auth/register', {
      json: { name: 'Someone', email: owner.email, password: 'long enough pw' },
    });
    expect(r.status).toBe(429);
    await sleep(500);
    const { rows } = await adminPool().query<{ n: number }>(
      "select count(*)::int as n from private.rate_limit_buckets where name = 'mail.recipient' and subject = 'email:' || md5($1)",
      [owner.email],
    );
    expect(rows[0].n).toBe(1);
  });

  it('an e-mail change through the legacy API to an address that had its e-mails today is refused and sends nothing', async () => {
    const stranger = uniqueEmail('changeto');
    await adminPool().query('select public.mail_recipient_take($1) from generate_series(1, 5)', [stranger]);
    const attacker = await createUser('changer');
    const r = await api('PATCH', '/users/update-user', { token: attacker.token, json: { email: stranger } });
    expect(r.status).toBe(429);
    await sleep(500);
    await expect(mailsTo(stranger, 1, 500)).rejects.toThrow(/found 0/);
    const { rows } = await adminPool().query('select email_change from auth.users where id = $1', [
      attacker.id,
    ]);
    expect(rows[0].email_change ?? '').toBe('');
  });
});

describe('cross-site writes with the session cookie', () => {
  let user: TestUser;
  let cookie: string;
  const own = () => new URL(stackEnv('APP_URL')).origin;

  beforeAll(async () => {
    user = await createUser('csrf', { name: 'Original Name' });
    const login = await fetch(`${stackEnv('API_URL')}/functions/v1/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).toMatch(/scamcheck_session=/);
  });

  const nameNow = async () =>
    (await adminPool().query<{ name: string }>('select name from public.profiles where id = $1', [user.id]))
      .rows[0].name;

  it('holds on: edge function — is refused from another origin, a same-site subdomain, or marked cross-site, as form, text or JSON, and changes nothing', async () => {
    const attempts: [Record<string, string>, string, string][] = [
      [{ origin: 'https://evil.example' }, 'application/x-www-form-urlencoded', 'name=Hacked'],
      [{ origin: 'https://evil.example' }, 'text/plain', '{"name":"Hacked"}'],
      [{ origin: 'http://evil.localhost:5173' }, 'application/json', '{"name":"Hacked"}'],
      [{ 'sec-fetch-site': 'same-site' }, 'application/x-www-form-urlencoded', 'name=Hacked'],
      [{ 'sec-fetch-site': 'cross-site' }, 'text/plain', 'name=Hacked'],
    ];
    for (const [headers, type, body] of attempts) {
      const r = await api('PATCH', '/users/update-user', {
        headers: { cookie, 'content-type': type, ...headers },
        body,
      });
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
    const notify = await api('POST', '/notify', {
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ type: 'mobile no.', value: '09171234567' }),
    });
    expect(notify.status).toBe(403);
    const report = await api('POST', '/reports', {
      headers: { cookie, origin: 'https://evil.example' },
      form: formOf(reportFields()),
    });
    expect(report.status).toBe(403);
    expect(await nameNow()).toBe('Original Name');
  });

  it('is accepted from the app itself, and a bearer token (no ambient credential) is not checked', async () => {
    const fromApp = await api('PATCH', '/users/update-user', {
      headers: { cookie, origin: own(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From The App' }),
    });
    expect(fromApp.status).toBe(200);
    expect(await nameNow()).toBe('From The App');
    const bearer = await api('PATCH', '/users/update-user', {
      token: user.token,
      headers: { origin: 'https://evil.example' },
      json: { name: 'By Token' },
    });
    expect(bearer.status).toBe(200);
    expect(await nameNow()).toBe('By Token');
  });
});

describe('uploads', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createUser('flood');
  });

  /** The app's upload: upload-image with the user's token, from `from`. */
  async function upload(u: TestUser, bytes: Uint8Array, type: string, from = address(), bucket = 'avatars') {
    const body = new FormData();
    body.append('bucket', bucket);
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), 'upload');
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/upload-image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}`, 'x-forwarded-for': from },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as { path?: string; msg?: string },
      headers: res.headers,
    };
  }

  it('holds on: edge function + postgres — a flood from one account meets 429 on the count, whatever the addresses, and stores nothing more', async () => {
    await withLimit('upload.user', 3, async () => {
      const before = (await objectsIn('avatars', `${user.id}/`)).length;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await upload(user, BASE_JPEG, 'image/jpeg')).status);
      expect(statuses).toEqual([201, 201, 201, 429, 429]);
      expect((await objectsIn('avatars', `${user.id}/`)).length).toBe(before + 3);
    });
  });

  it('holds on: edge function + postgres — bytes count too: per account and per address, and the answer says when to come back', async () => {
    const other = await createUser('bytes');
    await withLimit('upload_kib.user', 100, async () => {
      expect((await upload(other, jpegOfSize(60_000), 'image/jpeg')).status).toBe(201);
      const second = await upload(other, jpegOfSize(60_000), 'image/jpeg');
      expect(second.status).toBe(429);
      expect(second.body.msg).toMatch(/megabytes of images uploaded from your account/);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    });
    const from = address();
    const [second, third] = await Promise.all([createUser('peraddr'), createUser('peraddr')]);
    await withLimit('upload.ip', 2, async () => {
      expect((await upload(second, BASE_JPEG, 'image/jpeg', from, 'evidence')).status).toBe(201);
      expect((await upload(third, BASE_JPEG, 'image/jpeg', from, 'evidence')).status).toBe(201);
      const over = await upload(third, BASE_JPEG, 'image/jpeg', from, 'evidence');
      expect([over.status, over.body.msg]).toEqual([429, expect.stringMatching(/from your address/)]);
    });
  });

  it('holds on: edge function — the WebP bomb (300 frames of 4000 x 4000 in a few KB) is refused from avatars at once', async () => {
    const bomb = animatedWebpBomb(300, 4000, 4000);
    expect(bomb.length).toBeLessThan(20_000);
    const bomber = await createUser('bomb');
    const started = Date.now();
    const r = await upload(bomber, bomb, 'image/webp');
    expect(r.status).toBe(400);
    expect(r.body.msg).toMatch(/^Avatar is too large in pixels: its frames hold \d+ megapixels together/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('upload-cleanup removes images no row refers to after a day, and keeps referenced and fresh ones', async () => {
    const owner = await createUser('orphans');
    const kept = (await upload(owner, BASE_JPEG, 'image/jpeg')).body.path!;
    const orphan = (await upload(owner, BASE_JPEG, 'image/jpeg')).body.path!;
    const fresh = (await upload(owner, BASE_JPEG, 'image/jpeg')).body.path!;
    const pool = adminPool();
    await pool.query('update public.profiles set avatar_path = $2 where id = $1', [owner.id, kept]);
    await pool.query(
      "update storage.objects set created_at = now() - interval '2 days' where bucket_id = 'avatars' and name = any($1)",
      [[kept, orphan]],
    );
    const run = await runJob('upload-cleanup');
    expect(run.status).toBe(200);
    expect(run.body.removed).toBeGreaterThanOrEqual(1);
    expect(await objectsIn('avatars', `${owner.id}/`)).toEqual([kept, fresh].sort());
    const gone = await fetch(`${stackEnv('API_URL')}/storage/v1/object/avatars/${orphan}`, {
      headers: { authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}` },
    });
    expect(gone.status).toBeGreaterThanOrEqual(400);
  });
});

describe('Auth data and statistics that answered 5xx', () => {
  const signUp = (body: Record<string, unknown>) =>
    fetch(`${stackEnv('API_URL')}/auth/v1/signup`, {
      method: 'POST',
      headers: {
        apikey: stackEnv('ANON_KEY'),
        'content-type': 'application/json',
        'x-forwarded-for': address(),
      },
      body: JSON.stringify(body),
    });

  it('1 MB of user metadata is cut to the name and language; a name longer than the profile allows signs up', async () => {
    const email = uniqueEmail('bigmeta');
    const res = await signUp({
      email,
      password: 'long enough pw',
      data: { name: 'N'.repeat(300), locale: 'fil', blob: 'x'.repeat(1_000_000) },
    });
    expect(res.status).toBe(200);
    const { rows } = await adminPool().query<{ meta: Record<string, string>; size: number; name: string }>(
      `select u.raw_user_meta_data as meta, octet_length(u.raw_user_meta_data::text) as size, p.name
         from auth.users u join public.profiles p on p.id = u.id where u.email = $1`,
      [email],
    );
    expect(rows[0].size).toBeLessThan(4096);
    expect(rows[0].meta).toEqual({ name: 'N'.repeat(100), locale: 'fil' });
    expect(rows[0].name).toBe('N'.repeat(100));
    const long = await signUp({
      email: uniqueEmail('longname'),
      password: 'long enough pw',
      data: { name: 'L'.repeat(150) },
    });
    expect(long.status).toBe(200);
  });

  it('search_top_identifier answers 404 for a ref that is not on the list', async () => {
    const res = await fetch(`${stackEnv('API_URL')}/rest/v1/rpc/search_top_identifier`, {
      method: 'POST',
      headers: {
        apikey: stackEnv('ANON_KEY'),
        'content-type': 'application/json',
        'x-forwarded-for': address(),
      },
      body: JSON.stringify({ ref: randomUUID() }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('PT404');
  });
});

describe('malformed writes to the local REST', () => {
  const post = (path: string, body: string | undefined, type = 'application/json') =>
    fetch(`${stackEnv('API_URL')}/rest/v1/${path}`, {
      method: 'POST',
      headers: { apikey: stackEnv('ANON_KEY'), 'content-type': type, 'x-forwarded-for': address() },
      body,
    });

  it('{}, [], [{}] and an empty body answer 4xx (or insert nothing), never 5xx, on every table', async () => {
    const { rows } = await adminPool().query<{ name: string }>(
      "select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1",
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const { name } of rows) {
      for (const body of ['{}', '[]', '[{}]', '[{},{}]', undefined]) {
        const res = await post(name, body);
        await res.body?.cancel();
        expect(res.status, `${name} ${body}`).toBeLessThan(500);
      }
    }
  }, 120_000);

  it('a POST to a view that cannot take one answers 405', async () => {
    const res = await post('report_cards', '{"id": 1}');
    expect(res.status).toBe(405);
    expect(((await res.json()) as { code: string }).code).toBe('55000');
  });
});
