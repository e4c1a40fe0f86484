/**
 * The local Auth's token and request rules (context.ts), without HTTP or a database: code hashes,
 * codes, e-mail and password checks, redirects, the e-mail rate, bearer tokens and JWT verification,
 * each with GoTrue's exact errors. Settings come from a config text of the test's own.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JWT_SECRET, testConfig } from '../config.ts';
import {
  bearer,
  checkFrequency,
  generateOtp,
  isRedirectAllowed,
  obj,
  parseJwt,
  passwordWeakness,
  referrer,
  str,
  tokenHash,
  validateEmail,
  verifyLink,
  type Auth,
  type Rq,
} from './context.ts';
import { loadAuthSettings } from './settings.ts';

const settings = loadAuthSettings(
  testConfig(),
  `[auth]
site_url = "http://localhost:5173"
additional_redirect_urls = ["https://*.scamcheck.ph/**", "https://exact.example/cb?"]
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
  it('allows the site itself (any path), loopback on any port, and allow-listed patterns', () => {
    expect(isRedirectAllowed(settings, 'http://localhost:5173/reset?x=1')).toBe(true);
    expect(isRedirectAllowed(settings, 'http://localhost:3000/')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://app.scamcheck.ph/auth/callback')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://exact.example/cb1')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://exact.example/cb12')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://a.b.scamcheck.ph/')).toBe(false);
    expect(isRedirectAllowed(settings, 'https://app.scamcheck.ph.evil.com/')).toBe(false);
  });

  it('refuses other hosts, schemes and ports of a non-loopback site, raw IPs and nonsense', () => {
    const site = { ...settings, siteUrl: 'https://scamcheck.ph', additionalRedirectUrls: [] };
    expect(isRedirectAllowed(site, 'https://scamcheck.ph/x')).toBe(true);
    expect(isRedirectAllowed(site, 'http://scamcheck.ph/x')).toBe(false);
    expect(isRedirectAllowed(site, 'https://scamcheck.ph:8443/x')).toBe(false);
    expect(isRedirectAllowed(site, 'https://evil.example/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://127.0.0.1:1/')).toBe(true);
    expect(isRedirectAllowed(site, 'http://[::1]:1/')).toBe(true);
    expect(isRedirectAllowed(site, 'http://10.0.0.1/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://[2001:db8::1]/')).toBe(false);
    expect(isRedirectAllowed(site, 'http://2130706433/')).toBe(false);
    expect(isRedirectAllowed(site, '')).toBe(false);
    expect(isRedirectAllowed(site, 'not a url')).toBe(false);
    expect(isRedirectAllowed({ ...site, siteUrl: 'nonsense' }, 'https://scamcheck.ph/')).toBe(false);
  });

  it('globs: * stays within one label or segment, ** crosses them, ? is one character', () => {
    const globs = {
      ...settings,
      siteUrl: 'https://scamcheck.ph',
      additionalRedirectUrls: ['https://x.ph/a?/*/end', 'https://y.ph/**'],
    };
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/one/end')).toBe(true);
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/one/two/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://x.ph/a/one/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://x.ph/ab/o.e/end')).toBe(false);
    expect(isRedirectAllowed(globs, 'https://y.ph/deep/er/path#frag')).toBe(true);
    expect(isRedirectAllowed(globs, 'https://y.phx/')).toBe(false);
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

describe('the e-mail rate (max_frequency 60 s)', () => {
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

describe('bearer tokens and JWTs', () => {
  it('reads the bearer token, or the apikey the gateway passes on, with GoTrue error otherwise', () => {
    expect(bearer(rq({ authorization: 'Bearer abc.def' }))).toBe('abc.def');
    expect(bearer(rq({ authorization: 'bearer xyz' }))).toBe('xyz');
    expect(bearer(rq({ apikey: 'anon-key' }))).toBe('anon-key');
    expect(bearer(rq({ authorization: 'Bearer tok', apikey: 'anon-key' }))).toBe('tok');
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer a b' },
      { authorization: 'Bearer ' },
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

  it('refuses expired, forged, wrongly signed, not yet valid and malformed tokens with their reason', async () => {
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
