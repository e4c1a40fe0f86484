/**
 * Every route the api function serves is in the every-call list that the malformed-input test and
 * the route tests walk, and every call in that list is served: the routes come from the function's
 * own router (the first match wins, as when it serves), so a new route without tests fails here.
 */
import { describe, expect, it } from 'vitest';
import { router } from '../../supabase/functions/api/app.ts';
import { API_CALLS } from '../../supabase/tests/functions/api-calls.ts';

const served = router.list().map((r) => `${r.method} ${r.path}`);

describe('the api function routes and the every-call list', () => {
  it.each(served)('%s is called by the list', (route) => {
    expect(API_CALLS.filter(([m, p]) => router.servedBy(m, p) === route)).toHaveLength(1);
  });

  it.each(API_CALLS)('%s %s is served', (method, path) => {
    expect(router.servedBy(method, path)).not.toBeNull();
  });

  it('answers the route a call goes to, and null for calls nothing serves', () => {
    expect(router.servedBy('GET', '/reports/stats')).toBe('GET /reports/stats');
    expect(router.servedBy('GET', '/reports/abc')).toBe('GET /reports/:id');
    expect(router.servedBy('HEAD', '/news')).toBe('GET /news');
    expect(router.servedBy('PUT', '/reports/abc')).toBeNull();
    expect(router.servedBy('GET', '/nothing-here')).toBeNull();
  });
});
