/**
 * GET /api/v1/openapi.json as the api function serves it (issue 14): every operation it documents is
 * answered by a route of the running function (never the router's "No route" 404 or a 405), and a
 * path it does not document is not served.
 */
import { describe, expect, it } from 'vitest';
import { api } from './helpers.ts';

type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };

describe('the served OpenAPI document', () => {
  it('is served as JSON, cacheable, and names the API address', async () => {
    const r = await api<Doc>('GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.servers[0].url).toMatch(/\/functions\/v1\/api\/v1$/);
  });

  it('every documented operation is answered by the running function, and an undocumented path is not', async () => {
    const { body } = await api<Doc>('GET', '/openapi.json');
    const operations = Object.entries(body.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => [
        m.toUpperCase(),
        p.replace(/\{[^}]+\}/g, '00000000-0000-4000-a000-000000000000'),
      ]),
    );
    expect(operations.length).toBeGreaterThan(30);
    for (const [method, path] of operations) {
      const r = await api(method, path, { json: method === 'GET' || method === 'DELETE' ? undefined : {} });
      const msg = (r.body as { msg?: string })?.msg ?? '';
      expect(r.status, `${method} ${path}`).not.toBe(405);
      expect(msg, `${method} ${path}`).not.toMatch(/^No route for/);
    }
    const missing = await api('GET', '/not-in-the-document');
    expect(missing.status).toBe(404);
    expect((missing.body as { msg: string }).msg).toMatch(/^No route for/);
  });
});
