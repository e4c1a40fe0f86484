import type { SchemaCache } from './schema-cache.ts';

/** A minimal OpenAPI description of the exposed tables and functions (PostgREST serves one at `/`). */
export function openApi(cache: SchemaCache, schema: string) {
  const paths: Record<string, unknown> = {
    '/': { get: { tags: ['Introspection'], summary: 'OpenAPI description (this document)' } },
  };
  const definitions: Record<string, unknown> = {};
  for (const t of cache.tables.values()) {
    if (t.schema !== schema) continue;
    paths[`/${t.name}`] =
      t.isView && !t.insertable
        ? { get: { tags: [t.name] } }
        : {
            get: { tags: [t.name] },
            post: { tags: [t.name] },
            patch: { tags: [t.name] },
            delete: { tags: [t.name] },
          };
    definitions[t.name] = {
      type: 'object',
      required: t.columnList.filter((c) => !c.nullable && !c.default).map((c) => c.name),
      properties: Object.fromEntries(t.columnList.map((c) => [c.name, { format: c.type }])),
    };
  }
  for (const list of cache.functions.values())
    for (const f of list)
      if (f.schema === schema) paths[`/rpc/${f.name}`] = { post: { tags: ['(rpc) ' + f.name] } };
  return {
    swagger: '2.0',
    info: { title: 'PostgREST API', version: '12' },
    basePath: '/',
    schemes: ['http'],
    consumes: ['application/json'],
    produces: ['application/json'],
    paths,
    definitions,
  };
}
