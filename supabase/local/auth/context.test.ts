/**
 * The local Auth's token and request rules (context.ts), without HTTP or a database: code hashes,
 * codes, e-mail and password checks, redirects, the e-mail rate, bearer tokens and JWT verification,
 * each with GoTrue's exact errors. Settings come from a config text of the test's own.
 */
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { ServiceContext } from '../gateway.ts';
import { JWT_SECRET, testConfig } from '../config.ts';
import {
  authenticate,
  bearer,
  checkFrequency,
  checkPassword,
  clientAddressFrom,
  createAuth,
  generateOtp,
  isRedirectAllowed,
  limit,
  rateLimitKey,
  mailData,
  obj,
  parseJwt,
  parseRequest,
  passwordWeakness,
  queueMail,
  referrer,
  requireAdmin,
  str,
  tokenHash,
  validateEmail,
  verifyLink,
  type Auth,
  type Rq,
} from './context.ts';
import { loadAuthSettings, type AuthSettings } from './settings.ts';
import type { Db, UserRow } from './store.ts';

const settings = loadAuthSettings(
  testConfig(),
  `[auth]
site_url = "http://localhost:5173"
additional_redirect_urls = ["https://*.project.example/**", "https://exact.example/cb?"]
minimum_password_length = 8
external_url = "http://127.0.0.1:9999/auth/v1"
[auth.email]
max_frequency = "60s"
`,
);
const auth = { settings } as unknown as Auth;
const rq = (
  headers: Record<string, string | undefined>,
  url = 'http://x/verify',
  body: Record<string, unknown> = {},
) => ({ req: { headers }, url: new URL(url), body }) as unknown as Rq;
const error = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const { status, code, message } = e as { status: number; code: string; message: string };
    return { status, code, message };
  }
  throw new Error('expected an error');
};

describe('codes', () => {
  it('hashes a code as GoTrue does: hex SHA-224 of the address followed by the code', () => {
    // printf %s maria@example.com123456 | sha224sum
    expect(tokenHash('maria@example.com', '123456')).toBe(
      'f82ddb3f5753ff2dfb6184a0c68870ba3d40a92b8cc15978be3f95ed',
    );
  });

  it('generates codes of exactly the asked number of digits, all digits used', () => {
    expect(generateOtp(0)).toBe('');
    const codes = Array.from({ length: 200 }, () => generateOtp(6));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(new Set(codes.join('')).size).toBe(10);
    expect(generateOtp(8)).toMatch(/^\d{8}$/);
  });
});

describe('e-mail addresses and passwords', () => {
  it('validates e-mail addresses with GoTrue errors and answers them lower-cased', () => {
    expect(validateEmail('Maria@Example.COM')).toBe('maria@example.com');
    expect(error(() => validateEmail(''))).toEqual({
      status: 400,
      code: 'validation_failed',
      message: 'An email address is required',
    });
    const long = `${'a'.repeat(243)}@example.com`;
    expect(long).toHaveLength(255);
    expect(validateEmail(long)).toBe(long);
    expect(error(() => validateEmail(`a${long}`))).toEqual({
      status: 400,
      code: 'validation_failed',
      message: 'An email address is too long',
    });
    expect(error(() => validateEmail('no-at.example'))).toEqual({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
    for (const bad of ['no-at.example', 'a@', '@b.ph', 'a b@c.ph', 'a@-b.ph', 'a@b-.ph'])
      expect(error(() => validateEmail(bad)).message, bad).toBe(
        'Unable to validate email address: invalid format',
      );
  });

  it('judges passwords by bytes: 8 bytes pass, 7 fail, over 72 is a validation error', () => {
    expect(passwordWeakness(settings, '12345678')).toBeUndefined();
    expect(passwordWeakness(settings, 'é'.repeat(4))).toBeUndefined(); // 8 bytes in 4 characters
    expect(passwordWeakness(settings, 'p'.repeat(72))).toBeUndefined();
    const short = passwordWeakness(settings, '1234567')!;
    expect({ status: short.status, code: short.code, message: short.message }).toEqual({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 8 characters.',
    });
    const long = passwordWeakness(settings, 'é'.repeat(37))!; // 74 bytes
    expect({ status: long.status, code: long.code, message: long.message }).toEqual({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    });
  });

  it('checkPassword throws the weakness and lets a strong password through', () => {
    expect(() => checkPassword(settings, '12345678')).not.toThrow();
    expect(error(() => checkPassword(settings, '1234567'))).toEqual({
      status: 422,
      code: 'weak_password',
      message: 'Password should be at least 8 characters.',
    });
  });

  it('names every missing character class and the length together', () => {
    const strict = { ...settings, requiredCharacters: ['abc', '0123456789', ''] };
    expect(passwordWeakness(strict, 'a1a1a1a1')).toBeUndefined();
    const both = passwordWeakness(strict, 'zz')! as unknown as { message: string; extra: unknown };
    expect(both.message).toBe(
      'Password should be at least 8 characters. Password should contain at least one character of each: abc, 0123456789, .',
    );
    expect(both.extra).toEqual({ weak_password: { reasons: ['length', 'characters'] } });
  });
});

describe('redirects', () => {
  it('holds on: config.toml — allows the site itself (any path), loopback on any port, and allow-listed patterns', () => {
    expect(isRedirectAllowed(settings, 'http://localhost:5173/reset?x=1')).toBe(true);
    expect(isRedirectAllowed(settings, 'http://localhost:3000/')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://app.project.example/auth/callback')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://exact.example/cb1')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://exact.example/cb12')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://a.b.project.example/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://app.project.example.evil.com/')).toBe(false);
  });

  it('holds on: config.toml — refuses other hosts, schemes and ports of a non-loopback site, raw IPs and nonsense', () => {
    const site = { ...settings, siteUrl: 'https://project.example', additionalRedirectUrls: [] };
    expect(isRedirectAllowed(site, 'https://project.example/x')).toBe(true);
    expect(isRedirectAllowed(site, 'http://project.example/x')).toBe(false);
    expect(isRedirectAllowed(site, 'https://project.example:8443/x')).toBe(false);
    expect(isRedirectAllowed(site, 'https://evil.example/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://127.0.0.1:1/')).toBe(true);
    expect(isRedirectAllowed(site, 'http://[::1]:1/')).toBe(true);
    expect(isRedirectAllowed(site, 'http://10.0.0.1/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://[2001:db8::1]/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://2130706433/')).toBe(false);
    // 127.0.0.1 typed in forms WHATWG rewrites but Go's url.Parse and net.ParseIP (GoTrue) refuse.
    for (const other of [
      'http://0x7f000001/',
      'http://127.1/',
      'http://2130706433 /',
      'http://21307\t06433/',
      'http:127.0.0.1/',
      'http:/127.0.0.1/',
      ' http://127.0.0.1/',
      'http://127.0.0.1./',
      'http://user@2130706433/',
    ])
      expect(isRedirectAllowed(site, other), JSON.stringify(other)).toBe(false);
    expect(isRedirectAllowed(site, 'http://user:pw@127.0.0.1:1/')).toBe(true);
    expect(isRedirectAllowed(site, '')).toBe(false);
    expect(isRedirectAllowed(site, 'not a url')).toBe(false);
    expect(isRedirectAllowed({ ...site, siteUrl: 'nonsense' }, 'https://project.example/')).toBe(false);
  });

  it('globs: * stays within one label or segment, ** crosses them, ? is one character', () => {
    const globs = {
      ...settings,
      siteUrl: 'https://project.example',
      additionalRedirectUrls: ['https://x.ph/a?/*/end', 'https://y.ph/**', 'https://z.ph/**/end'],
    };
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/one/end')).toBe(true);
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/one/two/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://x.ph/a/one/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/o.e/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://y.ph/deep/er/path#frag')).toBe(true);
    expect(isRedirectAllowed(globs, 'https://y.phx/')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://z.ph/a/b/end')).toBe(true);
    expect(isRedirectAllowed(globs, 'https://z.ph/aend')).toBe(false);
    // What follows ** is matched too.
    expect(isRedirectAllowed(globs, 'https://z.ph/legend')).toBe(false);
  });

  it('an IP address is never allow-listed, a name that starts like one may be', () => {
    const any = { ...settings, siteUrl: 'https://project.example', additionalRedirectUrls: ['https://**'] };
    expect(isRedirectAllowed(any, 'https://10.20.30.40/')).toBe(false);
    expect(isRedirectAllowed(any, 'https://[2001:db8::1]/')).toBe(false);
    expect(isRedirectAllowed(any, 'https://1.2.3.4.example.ph/')).toBe(true);
    expect(isRedirectAllowed(any, 'https://example.ph/')).toBe(true);
  });

  it('links in e-mails lead to redirect_to if allowed, else the Referer, else the site', () => {
    expect(referrer(auth, rq({}, 'http://x/verify?redirect_to=http://localhost:5173/a'))).toBe(
      'http://localhost:5173/a',
    );
    expect(referrer(auth, rq({}, 'http://x/verify', { redirect_to: 'http://localhost:5173/b' }))).toBe(
      'http://localhost:5173/b',
    );
    expect(
      referrer(
        auth,
        rq({ referer: 'http://localhost:5173/c' }, 'http://x/verify?redirect_to=https://evil.example/'),
      ),
    ).toBe('http://localhost:5173/c');
    expect(referrer(auth, rq({ referer: 'https://evil.example/' }))).toBe('http://localhost:5173');
    expect(verifyLink(auth, 'h a', 'signup', 'http://localhost:5173/x')).toBe(
      'http://127.0.0.1:9999/auth/v1/verify?token=h%20a&type=signup&redirect_to=http://localhost:5173/x',
    );
    expect(verifyLink(auth, 'h', 'recovery', 'http://localhost:5173/?a=1&b=2')).toBe(
      'http://127.0.0.1:9999/auth/v1/verify?token=h&type=recovery&redirect_to=http%3A%2F%2Flocalhost%3A5173%2F%3Fa%3D1%26b%3D2',
    );
  });
});

describe('holds on: config.toml — the e-mail rate (max_frequency 60 s)', () => {
  it('refuses a new e-mail sooner than 60 s after the last, naming the seconds left', () => {
    expect(() => checkFrequency(auth, null)).not.toThrow();
    expect(() => checkFrequency(auth, new Date(Date.now() - 61_000).toISOString())).not.toThrow();
    expect(error(() => checkFrequency(auth, new Date(Date.now() - 30_500).toISOString()))).toEqual({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'For security purposes, you can only request this after 29 seconds.',
    });
  });
});

describe('holds on: config.toml — the clock edges', () => {
  // Date only: jose and the code read the time through Date.
  const at = (iso: string) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(iso));
  };

  it('the next e-mail may go exactly 60 s after the last, not a millisecond sooner', () => {
    try {
      at('2026-11-24T05:00:00.000Z');
      expect(() => checkFrequency(auth, '2026-11-24T04:59:00.000Z')).not.toThrow();
      expect(error(() => checkFrequency(auth, '2026-11-24T04:59:00.001Z'))).toMatchObject({
        status: 429,
        code: 'over_email_send_rate_limit',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('bearer tokens and JWTs', () => {
  it('holds on: platform — reads the bearer token, or the apikey the gateway passes on, with GoTrue error otherwise', () => {
    expect(bearer(rq({ authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearer(rq({ authorization: 'bearer xyz' }))).toBe('xyz');
    expect(bearer(rq({ apikey: 'anon-key' }))).toBe('anon-key');
    expect(bearer(rq({ authorization: 'Bearer tok', apikey: 'anon-key' }))).toBe('tok');
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer a b' },
      { authorization: 'Bearer ' },
      { authorization: 'Basic bearer abc' },
    ])
      expect(
        error(() => bearer(rq(headers))),
        JSON.stringify(headers),
      ).toEqual({
        status: 401,
        code: 'no_authorization',
        message: 'This endpoint requires a valid Bearer token',
      });
  });

  const sign = (claims: Record<string, unknown>, alg = 'HS256', secret = JWT_SECRET) =>
    new SignJWT(claims).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
  const now = () => Math.floor(Date.now() / 1000);
  const refusal = async (token: string) => {
    try {
      await parseJwt(token);
    } catch (e) {
      const { status, code, message } = e as { status: number; code: string; message: string };
      return { status, code, message };
    }
    throw new Error('expected a refusal');
  };
  const PREFIX = 'invalid JWT: unable to parse or verify signature, ';

  it('answers the claims of a valid token', async () => {
    const token = await sign({ sub: 'u1', role: 'authenticated', exp: now() + 60 });
    expect(await parseJwt(token)).toMatchObject({ sub: 'u1', role: 'authenticated' });
  });

  it('holds on: platform — refuses expired, forged, wrongly signed, not yet valid and malformed tokens with their reason', async () => {
    expect(await refusal(await sign({ sub: 'u', exp: now() - 1 }))).toEqual({
      status: 403,
      code: 'bad_jwt',
      message: `${PREFIX}token has invalid claims: token is expired`,
    });
    expect(
      (
        await refusal(
          await sign({ sub: 'u', exp: now() + 60 }, 'HS256', 'another secret at least 32 characters'),
        )
      ).message,
    ).toBe(`${PREFIX}token signature is invalid: signature is invalid`);
    expect((await refusal(await sign({ sub: 'u', exp: now() + 60 }, 'HS512'))).message).toBe(
      `${PREFIX}token signature is invalid: signing method is invalid`,
    );
    expect((await refusal(await sign({ sub: 'u', nbf: now() + 600 }))).message).toBe(
      `${PREFIX}token has invalid claims: "nbf" claim timestamp check failed`,
    );
    // Other claim checks jose fails (a claim of the wrong type) are invalid claims too, in jose's words.
    expect((await refusal(await sign({ sub: 'u', exp: 'soon' }))).message).toBe(
      `${PREFIX}token has invalid claims: "exp" claim must be a number`,
    );
    expect((await refusal(await sign({ sub: 'u', exp: now() + 60, iat: 'now' }))).message).toBe(
      `${PREFIX}token has invalid claims: "iat" claim must be a number`,
    );
    expect((await refusal('not.a.jwt')).message).toBe(`${PREFIX}token is malformed`);
  });
});

describe('body helpers', () => {
  it('str and obj read only what they say', () => {
    expect(str('a')).toBe('a');
    expect(str(1)).toBe('');
    expect(obj({ a: 1 })).toEqual({ a: 1 });
    expect(obj([1])).toBeUndefined();
    expect(obj(null)).toBeUndefined();
    expect(obj('x')).toBeUndefined();
  });
});

/** The error an async call throws, as {status, code, message}. */
const rejection = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    const { status, code, message } = e as { status: number; code: string; message: string };
    return { status, code, message };
  }
  throw new Error('expected a refusal');
};

describe('client addresses (X-Forwarded-For is read only behind trusted proxies)', () => {
  it('with no trusted proxy, the connection peer, whatever the header says', () => {
    expect(clientAddressFrom('6.6.6.6', '10.1.1.1', 0)).toBe('10.1.1.1');
    expect(clientAddressFrom(undefined, ' 10.1.1.1 ', 0)).toBe('10.1.1.1');
    expect(clientAddressFrom('6.6.6.6', undefined, 0)).toBeUndefined();
    expect(clientAddressFrom('6.6.6.6', '', 0)).toBeUndefined();
  });

  it('with N trusted proxies, the N-th entry from the right; what the client typed to its left never counts', () => {
    expect(clientAddressFrom('6.6.6.6, 203.0.113.7', '10.0.0.2', 1)).toBe('203.0.113.7');
    expect(clientAddressFrom('6.6.6.6,203.0.113.7, 10.0.0.9', '10.0.0.2', 2)).toBe('203.0.113.7');
    // The proxy's entry is missing: no address, hence no per-client limit (as GoTrue without its header).
    expect(clientAddressFrom('', '10.0.0.2', 1)).toBeUndefined();
    // An empty entry is a trusted proxy's missing one, never a reason to count the client's entry instead.
    expect(clientAddressFrom('203.0.113.7, ', '10.0.0.2', 1)).toBeUndefined();
    expect(clientAddressFrom('203.0.113.7, , 10.0.0.9', '10.0.0.2', 2)).toBeUndefined();
    expect(clientAddressFrom(null, '10.0.0.2', 1)).toBeUndefined();
    expect(clientAddressFrom(undefined, '10.0.0.2', 1)).toBeUndefined();
    expect(clientAddressFrom(' , ', '10.0.0.2', 1)).toBeUndefined();
    expect(clientAddressFrom('203.0.113.7', '10.0.0.2', 2)).toBeUndefined();
  });
});

describe('parsing a request', () => {
  const incoming = (
    method: string,
    headers: Record<string, string>,
    body = '',
    remoteAddress = '127.0.0.1',
  ) =>
    Object.assign(Readable.from(body ? [Buffer.from(body)] : []), {
      method,
      headers,
      socket: { remoteAddress },
    });
  const parse = (req: ReturnType<typeof incoming>, proxies = 0) =>
    parseRequest(req as unknown as IncomingMessage, {} as ServerResponse, new URL('http://x/token'), proxies);

  it('reads JSON and form bodies, the audience, the user agent and a well-formed client address', async () => {
    const json = await parse(
      incoming(
        'POST',
        { 'content-type': 'application/json', 'x-jwt-aud': 'mobile', 'user-agent': 'UA/1' },
        '{"email":"a@b.ph"}',
      ),
    );
    expect(json).toMatchObject({
      body: { email: 'a@b.ph' },
      aud: 'mobile',
      address: '127.0.0.1',
      mails: [],
      client: { userAgent: 'UA/1', ip: '127.0.0.1' },
    });
    const form = await parse(
      incoming('POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=password&x=1'),
    );
    expect(form.body).toEqual({ grant_type: 'password', x: '1' });
    expect(form.aud).toBe('authenticated');
    expect(form.client).toEqual({ userAgent: undefined, ip: '127.0.0.1' });
  });

  it('reads no body on GET or HEAD and an empty body as {}', async () => {
    expect((await parse(incoming('GET', {}, '{"ignored":true}'))).body).toEqual({});
    expect((await parse(incoming('HEAD', {}, '{not json'))).body).toEqual({});
    expect((await parse(incoming('POST', { 'content-type': 'application/json' }))).body).toEqual({});
  });

  it('refuses a body that is not a JSON object with 400 bad_json', async () => {
    expect(await rejection(parse(incoming('POST', {}, '[1]')))).toMatchObject({
      message: 'Could not parse request body as JSON: expected a JSON object',
    });
    for (const body of ['[1]', 'null', '"text"', '{bad'])
      expect(await rejection(parse(incoming('POST', {}, body))), body).toMatchObject({
        status: 400,
        code: 'bad_json',
        message: expect.stringMatching(/^Could not parse request body as JSON: /),
      });
  });

  // Issue 28: deep JSON in sign-up or user metadata reached PostgreSQL, whose stack-depth error was a 500.
  it('holds on: local-only — refuses JSON nested 10,000 levels deep with 400 bad_json, as GoTrue does past its depth', async () => {
    const deep = `{"email":"a@b.ph","data":{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expect(await rejection(parse(incoming('POST', { 'content-type': 'application/json' }, deep)))).toEqual({
      status: 400,
      code: 'bad_json',
      message: 'Could not parse request body as JSON: json: exceeded max depth',
    });
    // Brackets inside strings do not count; 512 levels still parse.
    const quoted = `{"data":{"x":"${'['.repeat(10_000)}"}}`;
    expect((await parse(incoming('POST', {}, quoted))).body).toMatchObject({
      data: { x: '['.repeat(10_000) },
    });
    const ok = `{"data":${'['.repeat(511)}${']'.repeat(511)}}`;
    expect((await parse(incoming('POST', {}, ok))).body).toHaveProperty('data');
  });

  it('keys limits on the trusted proxy entry, and records only a well-formed IP', async () => {
    const behind = await parse(
      incoming('GET', { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' }, '', '10.0.0.2'),
      1,
    );
    expect(behind.address).toBe('203.0.113.7');
    expect(behind.client.ip).toBe('203.0.113.7');
    const odd = await parse(incoming('GET', { 'x-forwarded-for': 'not-an-ip' }, '', '10.0.0.2'), 1);
    expect(odd.address).toBe('not-an-ip');
    expect(odd.client.ip).toBe('10.0.0.2');
    // Behind a trusted proxy that appended nothing there is no client address (not the peer, not a default).
    expect((await parse(incoming('GET', {}, '', '10.0.0.2'), 1)).address).toBeUndefined();
    const none = await parse(incoming('GET', {}, '', ''));
    expect(none.client.ip).toBeUndefined();
  });
});

describe('limits', () => {
  const limited = (over: Partial<AuthSettings['rateLimit']>, email: Partial<AuthSettings['email']> = {}) =>
    createAuth({ pool: {} } as unknown as ServiceContext, {
      ...settings,
      rateLimit: { ...settings.rateLimit, ...over },
      email: { ...settings.email, ...email },
    });

  it('holds on: config.toml — per-client buckets hold 30 requests at once (GoTrue: N per 5 minutes, bursts of 30), per address', () => {
    const a = limited({ tokenVerifications: 30 });
    const from = (address?: string) => ({ address }) as Rq;
    for (let i = 0; i < 30; i++) limit(a.limits.verify, from('203.0.113.7'));
    expect(error(() => limit(a.limits.verify, from('203.0.113.7')))).toEqual({
      status: 429,
      code: 'over_request_rate_limit',
      message: 'Request rate limit reached',
    });
    expect(() => limit(a.limits.verify, from('203.0.113.8'))).not.toThrow();
    // No client address (a trusted proxy's entry is missing): no per-client limit.
    expect(() => limit(a.limits.verify, from(undefined))).not.toThrow();
  });

  it('refill at N per 300 s: 30 verifications per 5 minutes is one token every 10 s', () => {
    const a = limited({ tokenVerifications: 30, tokenRefresh: 150, signInSignUps: 3 });
    const t0 = 1_000_000;
    for (let i = 0; i < 30; i++) a.limits.verify.take('k', t0);
    expect(a.limits.verify.take('k', t0 + 9_900)).toBe(false);
    expect(a.limits.verify.take('k', t0 + 10_000)).toBe(true);
    for (let i = 0; i < 30; i++) a.limits.token.take('k', t0);
    expect(a.limits.token.take('k', t0 + 2_000)).toBe(true); // 150 / 300 s: one every 2 s
    for (const bucket of [a.limits.otp, a.limits.recover, a.limits.resend, a.limits.signup, a.limits.user]) {
      for (let i = 0; i < 30; i++) bucket.take('k', t0);
      expect(bucket.take('k', t0 + 99_000)).toBe(false); // 3 / 300 s: one every 100 s
      expect(bucket.take('k', t0 + 100_000)).toBe(true);
    }
  });

  it('holds on: config.toml — e-mails: email_sent per hour applies with a real SMTP server and confirmations on; 0 sends none', () => {
    const mail = (a: Auth) => {
      const r = { mails: [] } as unknown as Rq;
      queueMail(a, r, 'recovery', 'maria@example.com', { Token: '123456' });
      return r.mails;
    };
    const smtp = limited({ emailSent: 2, emailSentApplies: true }, { autoconfirm: false });
    expect(mail(smtp)).toEqual([expect.objectContaining({ to: 'maria@example.com' })]);
    expect(mail(smtp)).toHaveLength(1);
    expect(error(() => mail(smtp))).toEqual({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: 'email rate limit exceeded',
    });
    const sink = limited({ emailSent: 2, emailSentApplies: false }, { autoconfirm: false });
    for (let i = 0; i < 3; i++) expect(mail(sink)).toHaveLength(1);
    const autoconfirm = limited({ emailSent: 2, emailSentApplies: true }, { autoconfirm: true });
    for (let i = 0; i < 3; i++) expect(mail(autoconfirm)).toHaveLength(1);
    expect(error(() => mail(limited({ emailSent: 0 })))).toMatchObject({ status: 429 });
  });
});

describe('e-mail template data', () => {
  it('passes GoTrue variables: the verify link, address, code, hash, metadata and redirect', () => {
    const user = { email: 'maria@example.com', raw_user_meta_data: { name: 'Maria' } } as unknown as UserRow;
    expect(
      mailData(auth, user, {
        otp: '123456',
        hash: 'abc',
        type: 'magiclink',
        redirectTo: 'http://localhost:5173/',
      }),
    ).toEqual({
      SiteURL: 'http://localhost:5173',
      ConfirmationURL:
        'http://127.0.0.1:9999/auth/v1/verify?token=abc&type=magiclink&redirect_to=http://localhost:5173/',
      Email: 'maria@example.com',
      Token: '123456',
      TokenHash: 'abc',
      Data: { name: 'Maria' },
      RedirectTo: 'http://localhost:5173/',
    });
    expect(
      mailData(auth, { email: null, raw_user_meta_data: null } as unknown as UserRow, {
        otp: '1',
        hash: 'h',
        type: 'signup',
        redirectTo: 'r',
      }),
    ).toMatchObject({ Email: '', Data: {} });
  });
});

describe('authenticated callers', () => {
  const USER = '3f1a2b4c-5d6e-4f70-8192-a3b4c5d6e7f8';
  const SESSION = '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a';
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT({ exp: Math.floor(Date.now() / 1000) + 60, ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(JWT_SECRET));
  /** A database holding at most one user and one session. */
  const db = (user?: Partial<UserRow>, sessions: string[] = []) =>
    ({
      query: async (sql: string, params: unknown[]) => {
        if (sql.includes('from auth.users'))
          return { rows: user && params[0] === USER ? [{ id: USER, ...user }] : [], rowCount: user ? 1 : 0 };
        if (sql === 'select 1 from auth.sessions where id = $1')
          return { rows: [], rowCount: sessions.includes(params[0] as string) ? 1 : 0 };
        throw new Error(`unexpected query: ${sql}`);
      },
    }) as unknown as Db;
  const as = async (claims: Record<string, unknown>) => rq({ authorization: `Bearer ${await sign(claims)}` });

  it('answers the user and the named session when both exist', async () => {
    const caller = await authenticate(
      db({ email: 'a@b.ph' }, [SESSION]),
      await as({ sub: USER, session_id: SESSION }),
    );
    expect(caller.user).toMatchObject({ id: USER, email: 'a@b.ph' });
    expect(caller.sessionId).toBe(SESSION);
    // The nil session id (tokens minted without a session) names none.
    const nil = await authenticate(
      db({}),
      await as({ sub: USER, session_id: '00000000-0000-0000-0000-000000000000' }),
    );
    expect(nil.sessionId).toBeUndefined();
  });

  it('holds on: platform — refuses a missing or non-UUID sub, a deleted user, a signed-out session and a banned user', async () => {
    expect(await rejection(authenticate(db({}), await as({})))).toEqual({
      status: 403,
      code: 'bad_jwt',
      message: 'invalid claim: missing sub claim',
    });
    expect(await rejection(authenticate(db({}), await as({ sub: `x${USER}` })))).toMatchObject({
      status: 400,
      message: 'invalid claim: sub claim must be a UUID',
    });
    expect(await rejection(authenticate(db({}), await as({ sub: `${USER}0` })))).toMatchObject({
      status: 400,
    });
    expect(await rejection(authenticate(db({}), await as({ sub: 'admin' })))).toEqual({
      status: 400,
      code: 'bad_jwt',
      message: 'invalid claim: sub claim must be a UUID',
    });
    expect(await rejection(authenticate(db(undefined), await as({ sub: USER })))).toEqual({
      status: 403,
      code: 'user_not_found',
      message: 'User from sub claim in JWT does not exist',
    });
    expect(await rejection(authenticate(db({}, []), await as({ sub: USER, session_id: SESSION })))).toEqual({
      status: 403,
      code: 'session_not_found',
      message: 'Session from session_id claim in JWT does not exist',
    });
    const banned = { banned_until: new Date(Date.now() + 60_000).toISOString() };
    expect(await rejection(authenticate(db(banned), await as({ sub: USER })))).toEqual({
      status: 403,
      code: 'user_banned',
      message: 'User is banned',
    });
    const wasBanned = { banned_until: new Date(Date.now() - 60_000).toISOString() };
    await expect(authenticate(db(wasBanned), await as({ sub: USER }))).resolves.toMatchObject({
      user: { id: USER },
    });
  });

  it('holds on: platform — a ban ends at banned_until: banned a millisecond before it, not at it (GoTrue: now is before banned_until)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-24T05:00:00.000Z'));
      const token = await as({ sub: USER });
      await expect(
        authenticate(db({ banned_until: '2026-11-24T05:00:00.000Z' }), token),
      ).resolves.toMatchObject({ user: { id: USER } });
      expect(
        await rejection(authenticate(db({ banned_until: '2026-11-24T05:00:00.001Z' }), token)),
      ).toMatchObject({ status: 403, code: 'user_banned' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds on: platform — admin calls need the service_role or supabase_admin role', async () => {
    expect(await requireAdmin(await as({ role: 'service_role' }))).toMatchObject({ role: 'service_role' });
    expect(await requireAdmin(await as({ role: 'supabase_admin' }))).toMatchObject({
      role: 'supabase_admin',
    });
    for (const role of ['authenticated', 'anon', undefined])
      expect(await rejection(requireAdmin(await as({ role, sub: USER })))).toEqual({
        status: 403,
        code: 'not_admin',
        message: 'User not allowed',
      });
  });
});

describe('rateLimitKey', () => {
  it('keeps an IPv4 address whole and counts an IPv6 address by its /64', () => {
    expect(rateLimitKey('81.2.3.4')).toBe('81.2.3.4');
    expect(rateLimitKey('::ffff:81.2.3.4')).toBe('81.2.3.4');
    const a = rateLimitKey('2001:db8:1:2:aaaa::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
    expect(rateLimitKey('[2001:db8:1:2::9]')).toBe(a);
    expect(rateLimitKey('2001:db8:1:3::1')).not.toBe(a);
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('64:ff9b::1.2.3.4')).toBe('64:ff9b:0:0::/64');
    expect(rateLimitKey('not an address')).toBe('not an address');
  });
});
