/**
 * Issue 28, item 2: the worst message (linkify-it's exponential 'xn--a.' family, 5,000 characters) is
 * answered within the check's time budget, and another /api/v1 route is answered while it is processed.
 */
import { describe, expect, it } from 'vitest';
import { api } from './helpers.ts';

const WORST = ('xn--a.'.repeat(40) + 'xn-- ').repeat(25).slice(0, 4996) + 'xn--';

describe('POST /api/v1/check-message in bounded time', () => {
  it('answers the worst input quickly, and another route meanwhile', async () => {
    // warm: the function's first request boots it
    await api('POST', '/check-message', { json: { text: 'hello 0917 123 4567' } });
    await api('GET', '/range/00000');
    const t0 = performance.now();
    const check = api('POST', '/check-message', { json: { text: WORST } }).then((r) => ({
      status: r.status,
      ms: performance.now() - t0,
    }));
    const other = api('GET', '/range/00000').then((r) => ({ status: r.status, ms: performance.now() - t0 }));
    const [c, o] = await Promise.all([check, other]);
    expect(c.status).toBe(200);
    expect(o.status).toBe(200);
    console.log({ check: c.ms, other: o.ms });
    expect(c.ms).toBeLessThan(3000);
    expect(o.ms).toBeLessThan(3000);
  }, 60_000);
});
