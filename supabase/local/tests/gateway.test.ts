/**
 * The gateway in front of the services (supabase/local/gateway.ts), as Kong answers on Supabase: routes
 * by path prefix, answers preflights, and puts the CORS headers on every answer.
 */
import { describe, expect, it } from 'vitest';
import { stackEnv } from '../testing/index.ts';

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${stackEnv('API_URL')}${path}`, {
    ...init,
    headers: { apikey: stackEnv('ANON_KEY'), ...(init.headers as Record<string, string>) },
  });

describe('gateway', () => {
  it('routes a prefix alone or before "/" or "?", and nothing that only starts with it', async () => {
    expect((await api('/rest/v1')).status).toBe(200);
    expect((await api('/rest/v1/')).status).toBe(200);
    expect((await api('/rest/v1?select=*')).status).toBe(200);
    for (const path of ['/rest/v1x', '/rest/v1x/table', '/rest', '/nothing']) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'no Route matched with those values' });
    }
  });

  it('answers preflights, and puts the CORS headers on every answer', async () => {
    const pre = await api('/rest/v1/anything', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(200);
    expect(pre.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    for (const path of [
      '/rest/v1',
      '/rest/v1/no_such_table',
      '/auth/v1/settings',
      '/storage/v1/bucket',
      '/nothing',
    ]) {
      const res = await api(path);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-expose-headers'), path).toContain('content-range');
      // Preflight-only headers stay off ordinary answers.
      expect(res.headers.get('access-control-allow-methods'), path).toBeNull();
    }
  });
});
