/**
 * The local stack's token verifier remembers tokens it verified (supabase/local/jwt.ts), so a session's
 * token is not HMAC-checked again by every service it passes. A remembered token must still be refused
 * exactly when jose would refuse it: once it expires, before its `nbf`, or in another form.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JwtError, signJwt, verifyToken } from '../jwt.ts';

const T0 = Date.parse('2026-11-24T05:00:00Z');
const sec = (ms: number) => Math.floor(ms / 1000);

async function refusal(token: string, tolerance = 0): Promise<string> {
  try {
    await verifyToken(token, tolerance);
    return 'accepted';
  } catch (e) {
    return (e as JwtError).reason;
  }
}

describe('verifyToken with remembered tokens', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('refuses a remembered token once it has expired, allowing only the tolerance asked for', async () => {
    const token = await signJwt({ role: 'authenticated', sub: 'u1', exp: sec(T0) + 60 });
    expect((await verifyToken(token)).sub).toBe('u1');
    vi.setSystemTime(T0 + 59_000);
    expect(await refusal(token)).toBe('accepted');
    vi.setSystemTime(T0 + 60_000);
    expect(await refusal(token)).toBe('expired');
    vi.setSystemTime(T0 + 70_000);
    expect(await refusal(token, 30)).toBe('accepted');
    expect(await refusal(token)).toBe('expired');
    vi.setSystemTime(T0 + 90_000);
    expect(await refusal(token, 30)).toBe('expired');
  });

  it('refuses a token before its nbf, and accepts it from then on', async () => {
    const token = await signJwt({
      role: 'authenticated',
      sub: 'u2',
      nbf: sec(T0) + 100,
      exp: sec(T0) + 1000,
    });
    expect(await refusal(token)).toBe('not-yet-valid');
    vi.setSystemTime(T0 + 100_000);
    expect(await refusal(token)).toBe('accepted');
    // Remembered now; going back before nbf (a clock set back) refuses it again.
    vi.setSystemTime(T0 + 50_000);
    expect(await refusal(token)).toBe('not-yet-valid');
    expect(await refusal(token, 60)).toBe('accepted');
  });

  it('does not take another string for a remembered one', async () => {
    const token = await signJwt({ role: 'authenticated', sub: 'u3', exp: sec(T0) + 600 });
    await verifyToken(token);
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ role: 'service_role', sub: 'u3', exp: sec(T0) + 600 }),
    ).toString('base64url');
    expect(await refusal(`${h}.${forged}.${s}`)).toBe('signature');
    expect(await refusal(`${h}.${p}.${s.slice(0, -2)}AA`)).toBe('signature');
    expect(await refusal(`${h}.${p}`)).not.toBe('accepted');
  });

  it('gives every caller a payload of its own', async () => {
    const token = await signJwt({ role: 'authenticated', sub: 'u4', exp: sec(T0) + 600 });
    const first = await verifyToken(token);
    first.role = 'service_role';
    expect((await verifyToken(token)).role).toBe('authenticated');
  });
});
