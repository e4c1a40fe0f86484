import { afterEach, describe, expect, it } from 'vitest';
import { isSessionKey, maySignIn } from './session';

afterEach(() => {
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('the signed-in check of the first load', () => {
  it("knows supabase-js's session keys, of any project, and nothing else", () => {
    expect(isSessionKey('sb-abcdefgh-auth-token')).toBe(true);
    expect(isSessionKey('sb-127-auth-token')).toBe(true);
    for (const key of ['sb-x-auth-token-code-verifier', 'my-sb-x-auth-token', 'language', '', null]) {
      expect(isSessionKey(key), String(key)).toBe(false);
    }
  });

  it('is false for a visitor with no session and no sign-in callback', () => {
    localStorage.setItem('language', 'fil');
    window.history.replaceState(null, '', '/?mycode=1');
    expect(maySignIn()).toBe(false);
  });

  it('is true with a stored session or a sign-in callback in the address', () => {
    localStorage.setItem('sb-abcdefgh-auth-token', '{}');
    expect(maySignIn()).toBe(true);
    localStorage.clear();
    for (const url of ['/?code=abc', '/?x=1&code=abc', '/#access_token=t', '/?error_description=no']) {
      window.history.replaceState(null, '', url);
      expect(maySignIn(), url).toBe(true);
    }
  });

  it('uses the key test it is given, as index.html passes it', () => {
    localStorage.setItem('custom', '1');
    expect(maySignIn((key) => key === 'custom')).toBe(true);
    expect(maySignIn(() => false)).toBe(false);
  });
});
