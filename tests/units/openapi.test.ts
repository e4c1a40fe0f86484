/**
 * The OpenAPI document of /api/v1 against the api function's own route table: every served route is
 * documented and every documented operation is served (both ways, and a mismatch refuses to build),
 * path parameters are declared, operation ids are unique, and request bodies are the zod schemas the
 * routes validate with.
 */
import { describe, expect, it } from 'vitest';
import { router } from '../../supabase/functions/api/app.ts';
import { buildOpenApi, openApiPath, ROUTE_DOCS } from '../../supabase/functions/api/openapi.ts';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

const doc = buildOpenApi(router.list()) as unknown as Doc;
const served = router.list().map((r) => `${r.method} ${openApiPath(r.path).path}`);
const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
  Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
);

describe('the OpenAPI document and the routes served', () => {
  it('is OpenAPI 3.1 and lists exactly the served routes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect([...documented].sort()).toEqual([...served].sort());
    expect(served.length).toBe(router.list().length);
  });

  it.each(served)('%s is served by the route the document names', (route) => {
    const [method, p] = route.split(' ');
    const concrete = p.replace(/\{[^}]+\}/g, 'x');
    expect(router.servedBy(method, concrete)).not.toBeNull();
  });

  it('refuses to build when a route is undocumented or a documented one is not served', () => {
    expect(() => buildOpenApi([...router.list(), { method: 'GET', path: '/secret' }])).toThrow(
      /undocumented GET \/secret/,
    );
    expect(() => buildOpenApi(router.list().filter((r) => r.path !== '/news'))).toThrow(
      /not served GET \/news/,
    );
    expect(Object.keys(ROUTE_DOCS).length).toBe(router.list().length);
  });

  it('declares every path parameter, and operation ids are unique', () => {
    const ids = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths)) {
      const names = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(ops)) {
        const params = (op.parameters as { name: string; in: string; required?: boolean }[]).filter(
          (x) => x.in === 'path',
        );
        expect(params.map((x) => x.name)).toEqual(names);
        expect(params.every((x) => x.required)).toBe(true);
        expect(ids.has(op.operationId as string)).toBe(false);
        ids.add(op.operationId as string);
        expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(['400', '401', '429']));
      }
    }
  });

  it('takes request bodies from the zod schemas (required fields and limits included)', () => {
    const register = doc.paths['/auth/register'].post.requestBody as {
      content: Record<
        string,
        { schema: { required: string[]; properties: Record<string, { maxLength?: number }> } }
      >;
    };
    const schema = register.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'email', 'password']));
    expect(schema.properties.password.maxLength).toBe(72);
    const report = doc.paths['/reports'].post.requestBody as {
      content: Record<string, { schema: { properties: Record<string, unknown> } }>;
    };
    expect(Object.keys(report.content['multipart/form-data'].schema.properties)).toEqual(
      expect.arrayContaining(['incidentType', 'reportedAccount', 'evidence']),
    );
    expect(report.content['application/json'].schema.properties.incidentType).toMatchObject({
      enum: ['scam', 'hacked', 'spam'],
    });
  });

  it("documents the owner's answer as an added field of search and check-message answers (issue 32)", () => {
    type Json = { schema: Record<string, unknown> };
    const answer = (p: string, m: string) =>
      (doc.paths[p][m].responses as Record<string, { content: Record<string, Json> }>)['200'].content[
        'application/json'
      ].schema as {
        properties: Record<string, { items?: { required?: string[]; properties: Record<string, unknown> } }>;
      };
    const check = answer(
      Object.keys(doc.paths).find((p) => p.endsWith('/check-message'))!,
      'post',
    );
    const item = check.properties.items.items!;
    expect(item.required).toContain('ownerStatements');
    // The older fields are all still there.
    expect(Object.keys(item.properties)).toEqual(
      expect.arrayContaining(['type', 'value', 'canonical', 'forms', 'count', 'riskLevel', 'signals']),
    );
    const statements = item.properties.ownerStatements as { items: { required: string[] } };
    expect(statements.items.required).toEqual(['statement', 'updatedAt', 'verifiedBy', 'verifiedAt']);
    const search = Object.entries(doc.paths).find(([p, ops]) => /\/search\/\{/.test(p) && 'get' in ops)!;
    const searchAnswer = answer(search[0], 'get');
    expect(searchAnswer.properties.ownerStatements).toEqual(statements);
  });
});
