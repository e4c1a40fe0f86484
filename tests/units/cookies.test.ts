/** The legacy API's session cookies (supabase/functions/_shared/cookies.ts), attribute by attribute. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  REFRESH_COOKIE,
  SESSION_COOKIE,
  clearedCookies,
  cookieValue,
  sessionCookies,
  withCookies,
} from '../../supabase/functions/_shared/cookies.ts';

const site = process.env.SITE_URL;
afterEach(() => {
  if (site === undefined) delete process.env.SITE_URL;
  else process.env.SITE_URL = site;
});

describe('sessionCookies', () => {
  it('sets the access cookie for its lifetime and the refresh cookie for 30 days, HttpOnly and SameSite=Lax', () => {
    process.env.SITE_URL = 'http://localhost:5173';
    expect(SESSION_COOKIE).toBe('scamcheck_session');
    expect(REFRESH_COOKIE).toBe('scamcheck_refresh');
    expect(sessionCookies({ access_token: 'a.b.c', refresh_token: 'r1', expires_in: 3600 })).toEqual([
      'scamcheck_session=a.b.c; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600',
      'scamcheck_refresh=r1; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000',
    ]);
  });

  it('adds Secure when the site is served over https', () => {
    process.env.SITE_URL = 'https://scamcheck.ph/';
    expect(sessionCookies({ access_token: 't', refresh_token: 'r', expires_in: 60 })).toEqual([
      'scamcheck_session=t; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure',
      'scamcheck_refresh=r; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure',
    ]);
    process.env.SITE_URL = 'http://https.example';
    expect(clearedCookies()[0]).not.toContain('Secure');
  });

  it('defaults the access lifetime to an hour, floors fractions, never goes negative, and encodes values', () => {
    delete process.env.SITE_URL;
    const [access] = sessionCookies({ access_token: 'a b;c', refresh_token: 'r' });
    expect(access).toBe('scamcheck_session=a%20b%3Bc; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600');
    expect(sessionCookies({ access_token: 't', refresh_token: 'r', expires_in: 59.9 })[0]).toContain(
      '; Max-Age=59',
    );
    expect(sessionCookies({ access_token: 't', refresh_token: 'r', expires_in: -5 })[0]).toContain(
      '; Max-Age=0',
    );
  });
});

describe('clearedCookies', () => {
  it('empties both cookies with Max-Age=0 and the same attributes', () => {
    process.env.SITE_URL = 'http://localhost:5173';
    expect(clearedCookies()).toEqual([
      'scamcheck_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
      'scamcheck_refresh=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    ]);
  });
});

describe('cookieValue', () => {
  const req = (cookie?: string) =>
    new Request('http://x/', cookie === undefined ? {} : { headers: { cookie } });

  it('finds a cookie among others, trimmed and decoded', () => {
    expect(cookieValue(req('a=1; scamcheck_session=tok%20en ;b=2'), 'scamcheck_session')).toBe('tok en');
    expect(cookieValue(req('scamcheck_session=x=y'), 'scamcheck_session')).toBe('x=y');
    expect(cookieValue(req('xscamcheck_session=1'), 'scamcheck_session')).toBeNull();
  });

  it('answers null for no header, no such cookie, an empty value, a nameless part or a broken encoding', () => {
    expect(cookieValue(req(), 'a')).toBeNull();
    expect(cookieValue(req('b=1'), 'a')).toBeNull();
    expect(cookieValue(req('a='), 'a')).toBeNull();
    expect(cookieValue(req('=1; a=2'), 'a')).toBe('2');
    expect(cookieValue(req('a=%E0%A4%A'), 'a')).toBeNull();
    // A part without '=' is no cookie, even when its text minus the last character is the name.
    expect(cookieValue(req('ab; a=2'), 'a')).toBe('2');
  });
});

describe('withCookies', () => {
  it('appends one Set-Cookie header per cookie and returns the same answer', () => {
    const res = new Response('ok');
    expect(withCookies(res, ['a=1', 'b=2'])).toBe(res);
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });
});
