/**
 * `/rest/v1`: PostgREST as supabase-js calls it (DESIGN.md section 2, issue 3). Tables and views of the
 * exposed schemas (config.toml `[api] schemas`) answer reads, inserts, upserts, updates and deletes, and
 * `/rpc/<fn>` calls functions; every request runs in one transaction as the JWT's role with
 * `request.jwt.claims` set, so grants and RLS decide, and errors keep PostgREST's codes and statuses.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify, errors as joseErrors, decodeProtectedHeader } from 'jose';
import { parse as parseToml } from 'smol-toml';
import { JWT_SECRET, SUPABASE_DIR, dbUrl } from '../config.ts';
import type { ServiceContext, ServiceHandler } from '../gateway.ts';
import { bearerToken } from '../jwt.ts';
import { RestError, invalidBody, tableMissing } from './errors.ts';
import { Executor, type MainResult, type RequestContext } from './executor.ts';
import { parseQuery, type ParsedQuery } from './query-parser.ts';
import { SchemaCacheHolder, type SchemaCache, type Table, type Column } from './schema-cache.ts';
import { ReadPlans, markedSearch, shapeOf } from './read-plans.ts';
import { ARRAY_BODY, Builder, ident, payloadColumns, pickRoutine, wrap } from './sql-builder.ts';

export interface ApiSettings {
  schemas: string[];
  maxRows?: number;
}

/** `[api]` of supabase/config.toml, the settings Supabase hands PostgREST. */
export async function readApiSettings(file = path.join(SUPABASE_DIR, 'config.toml')): Promise<ApiSettings> {
  try {
    const toml = parseToml(await readFile(file, 'utf8')) as {
      api?: { schemas?: string[]; max_rows?: number };
    };
    return {
      schemas: toml.api?.schemas?.length ? toml.api.schemas : ['public', 'graphql_public'],
      maxRows: toml.api?.max_rows,
    };
  } catch {
    return { schemas: ['public', 'graphql_public'], maxRows: 1000 };
  }
}

export async function createRestService(ctx: ServiceContext): Promise<ServiceHandler> {
  const settings = await readApiSettings();
  const url = dbUrl(ctx.config);
  const executor = new Executor(url);
  const cache = new SchemaCacheHolder(executor.pool, url, settings.schemas, ctx.log);
  await cache.start();
  // The stack stops by ending the shared pool; the service's own connections must close with it.
  const endShared = ctx.pool.end.bind(ctx.pool) as () => Promise<void>;
  (ctx.pool as { end: () => Promise<void> }).end = async () => {
    await cache.close();
    await executor.end().catch(() => undefined);
    return endShared();
  };
  const service = new RestService(executor, cache, settings, ctx.log);
  return (req, res, subPath) => service.handle(req, res, subPath);
}

interface Prefer {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  applied: string[];
}

function parsePrefer(header: string | string[] | undefined): Prefer {
  const out: Prefer = { applied: [] };
  const items = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    const [k, v] = item.split('=').map((s) => s.trim());
    if (k === 'return' && (v === 'representation' || v === 'minimal' || v === 'headers-only')) out.return = v;
    else if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) out.count = v;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates'))
      out.resolution = v;
    else if (k === 'missing' && (v === 'default' || v === 'null')) out.missing = v;
    else continue;
    out.applied.push(`${k}=${v}`);
  }
  return out;
}

interface Auth {
  claims: Record<string, unknown>;
  /** `claims` as JSON, kept with a verified token so that repeated requests do not serialize it again. */
  claimsJson?: string;
  role: string;
  authed: boolean;
}

const secret = new TextEncoder().encode(JWT_SECRET);
/** PostgREST allows 30 seconds of clock skew on `exp`, `nbf` and `iat`. */
const CLOCK_SKEW = 30;

function authOf(claims: Record<string, unknown>, claimsJson: string): Auth {
  const role = typeof claims.role === 'string' && claims.role ? claims.role : 'anon';
  return { claims, claimsJson, role, authed: role !== 'anon' };
}

function jwtError(code: 'PGRST301' | 'PGRST303', message: string): RestError {
  return new RestError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}

/** What a table read's template keeps besides its parameters. */
interface TablePlan {
  prepared: { sql: string; count: CountPlan };
  offset: number;
}

class RestService {
  /** Statements of table reads by shape (read-plans.ts). */
  private plans = new ReadPlans<TablePlan>();
  /** The last request's header JSON per connection (see headerJson). */
  private lastHeaders = new WeakMap<object, { raw: string[]; headersJson: string; cookiesJson: string }>();
  /** Verified tokens, so a client's repeated requests skip the HMAC (bounded; entries re-check `exp`). */
  private tokens = new Map<string, { claims: Record<string, unknown>; json: string }>();

  constructor(
    private executor: Executor,
    private cache: SchemaCacheHolder,
    private settings: ApiSettings,
    private log: (line: string) => void,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, subPath: string): Promise<void> {
    let auth: Auth = { claims: {}, role: 'anon', authed: false };
    try {
      const known = this.authenticate(req);
      auth = known instanceof Promise ? await known : known;
      if (!this.cache.current.switchableRoles.has(auth.role)) await this.refuseRole(auth);
      await this.dispatch(req, res, subPath, auth);
    } catch (e) {
      if (e instanceof RestError) return sendError(res, e);
      const pg = e as Error & { code?: string };
      this.log(`[rest] ${req.method} ${subPath}: ${pg.stack ?? pg}`);
      sendError(res, new RestError(500, 'PGRSTX00', pg.message || 'Internal error'));
    }
  }

  /**
   * A JWT naming a role `authenticator` may not switch to fails as PostgREST's SET ROLE fails: a role that
   * does not exist with 22023 (401), any other with 42501 (403 for a signed-in caller, 401 for anon).
   */
  private async refuseRole(auth: Auth): Promise<never> {
    const { rowCount } = await this.executor.pool.query(
      'select 1 from pg_catalog.pg_roles where rolname = $1',
      [auth.role],
    );
    if (!rowCount)
      throw new RestError(401, '22023', `role "${auth.role}" does not exist`, null, null, {
        'www-authenticate': 'Bearer',
      });
    throw new RestError(auth.authed ? 403 : 401, '42501', `permission denied to set role "${auth.role}"`);
  }

  /** The caller as the JWT says, from the verified-token cache when the token was seen before. */
  private authenticate(req: IncomingMessage): Auth | Promise<Auth> {
    const header = req.headers['authorization'];
    const bare = typeof header === 'string' ? header.trim() : '';
    if (bare.length === 6 && bare.toLowerCase() === 'bearer') {
      throw jwtError('PGRST301', 'Empty JWT is sent in Authorization header');
    }
    const token = bearerToken(req.headers);
    if (!token) return { claims: { role: 'anon' }, role: 'anon', authed: false };
    const known = this.tokens.get(token);
    if (!known) return this.verify(token);
    const claims = known.claims;
    if (typeof claims.exp === 'number' && claims.exp + CLOCK_SKEW < Math.floor(Date.now() / 1000)) {
      this.tokens.delete(token);
      throw jwtError('PGRST303', 'JWT expired');
    }
    return authOf(claims, known.json);
  }

  /** Checks a token not seen before and keeps its claims. */
  private async verify(token: string): Promise<Auth> {
    const parts = token.split('.').length;
    if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`);
    try {
      if (decodeProtectedHeader(token).alg !== 'HS256')
        throw jwtError('PGRST301', 'Wrong or unsupported encoding algorithm');
    } catch (e) {
      if (e instanceof RestError) throw e;
      throw jwtError('PGRST301', "JWT couldn't be decoded");
    }
    let claims: Record<string, unknown>;
    try {
      claims = (await jwtVerify(token, secret, { algorithms: ['HS256'], clockTolerance: CLOCK_SKEW }))
        .payload as Record<string, unknown>;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw jwtError('PGRST303', 'JWT expired');
      if (e instanceof joseErrors.JWTClaimValidationFailed)
        throw jwtError('PGRST303', e.claim === 'nbf' ? 'JWT not yet valid' : 'JWT issued at future');
      throw jwtError('PGRST301', 'JWT cryptographic operation failed');
    }
    if (this.tokens.size > 10_000) this.tokens.clear();
    const json = JSON.stringify(claims);
    this.tokens.set(token, { claims, json });
    return authOf(claims, json);
  }

  private requestContext(
    req: IncomingMessage,
    auth: Auth,
    pathname: string,
    readOnly: boolean,
    cache: SchemaCache,
  ): RequestContext {
    const { headersJson, cookiesJson } = this.headerJson(req);
    return {
      claims: auth.claims,
      claimsJson: auth.claimsJson,
      role: auth.role,
      headersJson,
      cookiesJson,
      method: req.method ?? 'GET',
      path: pathname,
      readOnly,
      statementTimeout: cache.statementTimeouts.get(auth.role),
      preRequest: cache.preRequest,
    };
  }

  /**
   * `request.headers` and `request.cookies` as JSON. A keep-alive client usually repeats the same
   * headers on every request of its connection, so the last request's JSON is kept per connection and
   * reused when the raw header lines are the same.
   */
  private headerJson(req: IncomingMessage): { headersJson: string; cookiesJson: string } {
    const raw = req.rawHeaders;
    const known = this.lastHeaders.get(req.socket);
    if (known && known.raw.length === raw.length && known.raw.every((line, i) => line === raw[i]))
      return known;
    // Node joins repeated request headers into one string, except the few it keeps as arrays.
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const cookies: Record<string, string> = {};
    if (headers['cookie']) {
      for (const part of headers['cookie'].split(';')) {
        const eq = part.indexOf('=');
        if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
      }
    }
    const entry = { raw, headersJson: JSON.stringify(headers), cookiesJson: JSON.stringify(cookies) };
    this.lastHeaders.set(req.socket, entry);
    return entry;
  }

  private schemaFor(req: IncomingMessage): string {
    const method = req.method ?? 'GET';
    const header =
      method === 'GET' || method === 'HEAD' ? req.headers['accept-profile'] : req.headers['content-profile'];
    const schema = typeof header === 'string' && header ? header : this.settings.schemas[0];
    if (!this.settings.schemas.includes(schema)) {
      throw new RestError(
        406,
        'PGRST106',
        `Invalid schema: ${schema}`,
        null,
        `Only the following schemas are exposed: ${this.settings.schemas.join(', ')}`,
      );
    }
    return schema;
  }

  /** Runs `fn` against the schema cache; if it names something the cache lacks, catches up once and retries. */
  private async withCache<T>(fn: (cache: SchemaCache) => Promise<T>): Promise<T> {
    try {
      return await fn(this.cache.current);
    } catch (e) {
      if (
        e instanceof RestError &&
        ['PGRST205', 'PGRST204', 'PGRST202', 'PGRST200', '42703'].includes(e.code) &&
        !(e as { retried?: boolean }).retried
      ) {
        const before = this.cache.current;
        await this.cache.catchUp();
        if (this.cache.current !== before) return fn(this.cache.current);
      }
      throw e;
    }
  }

  private async dispatch(
    req: IncomingMessage,
    res: ServerResponse,
    subPath: string,
    auth: Auth,
  ): Promise<void> {
    const q = subPath.indexOf('?');
    const pathname = q < 0 ? subPath : subPath.slice(0, q);
    const search = new URLSearchParams(q < 0 ? '' : subPath.slice(q + 1));
    const method = req.method ?? 'GET';
    let segments: string[];
    try {
      segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    }
    const schema = this.schemaFor(req);
    // A schema chosen by profile header is named back, as PostgREST does.
    if (req.headers['accept-profile'] || req.headers['content-profile'])
      res.setHeader('content-profile', schema);
    const accept = parseAccept(req.headers['accept']);
    if (segments.length === 0) {
      if (method !== 'GET' && method !== 'HEAD')
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      return send(res, 200, JSON.stringify(openApi(this.cache.current, schema)), {
        'content-type': 'application/openapi+json; charset=utf-8',
      });
    }
    // Reading the body first keeps a schema-cache retry from reading it twice.
    const body =
      method === 'POST' || method === 'PATCH' || method === 'PUT' ? await readBody(req) : undefined;
    const prefer = parsePrefer(req.headers['prefer']);
    if (segments[0] === 'rpc' && segments.length === 2) {
      if (method !== 'GET' && method !== 'HEAD' && method !== 'POST')
        throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
      return this.withCache((cache) =>
        this.rpc(req, res, cache, auth, schema, segments[1], search, body, prefer, accept, pathname),
      );
    }
    if (segments.length !== 1) throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    return this.withCache(async (cache) => {
      const table = cache.table(schema, segments[0]);
      if (!table) throw tableMissing(schema, segments[0], hintTable(cache, schema, segments[0]));
      if (method === 'GET' || method === 'HEAD')
        return this.read(
          req,
          res,
          cache,
          auth,
          table,
          search,
          prefer,
          accept,
          this.requestContext(req, auth, pathname, true, cache),
        );
      const query = parseQuery(search);
      switch (method) {
        case 'POST':
          return this.insert(
            res,
            cache,
            auth,
            table,
            query,
            prefer,
            accept,
            this.requestContext(req, auth, pathname, false, cache),
            body!,
          );
        case 'PATCH':
          return this.update(
            res,
            cache,
            auth,
            table,
            query,
            prefer,
            accept,
            this.requestContext(req, auth, pathname, false, cache),
            body!,
          );
        case 'DELETE':
          return this.remove(
            res,
            cache,
            auth,
            table,
            query,
            prefer,
            accept,
            this.requestContext(req, auth, pathname, false, cache),
          );
        default:
          throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      }
    });
  }

  private read(
    req: IncomingMessage,
    res: ServerResponse,
    cache: SchemaCache,
    auth: Auth,
    table: Table,
    search: URLSearchParams,
    prefer: Prefer,
    accept: Accept,
    ctx: RequestContext,
  ): Promise<void> {
    const head = req.method === 'HEAD';
    // PostgREST's Content-Location: the query string sorted by name (a stable sort, as URLSearchParams.sort is).
    const canonical = new URLSearchParams(search);
    canonical.sort();
    const query = canonical.toString();
    const location = query ? `/${table.name}?${query}` : `/${table.name}`;
    // Planned and estimated counts run an EXPLAIN of their own, with the values written in: not templated.
    if (prefer.count !== 'planned' && prefer.count !== 'estimated') {
      const h = req.headers;
      // NUL never occurs in a header, a method or an identifier, so the parts cannot run into each other.
      const context = [
        req.method,
        table.schema,
        table.name,
        h['accept'] ?? '',
        prefer.count ?? '',
        h['range'] ?? '',
        h['range-unit'] ?? '',
      ].join('\u0000');
      const shape = shapeOf(search, context);
      let template = this.plans.get(cache, shape);
      if (template === undefined) {
        let built: { plan: TablePlan; params: unknown[] } | undefined;
        try {
          built = this.planRead(req, cache, table, parseQuery(markedSearch(search)), prefer, accept, head);
        } catch {
          // The ordinary path below answers with the error, worded for the request's own values.
        }
        template = built ? this.plans.learn(cache, shape, built.plan, built.params) : null;
      }
      if (template) {
        const { prepared, offset } = template.plan;
        const values = ReadPlans.values(template, shape);
        return this.respondRead(
          res,
          { ...prepared, values },
          auth,
          ctx,
          prefer,
          accept,
          offset,
          head,
          'array',
          location,
        );
      }
    }
    const { plan, params } = this.planRead(req, cache, table, parseQuery(search), prefer, accept, head);
    return this.respondRead(
      res,
      { ...plan.prepared, values: params },
      auth,
      ctx,
      prefer,
      accept,
      plan.offset,
      head,
      'array',
      location,
    );
  }

  /** The statement of a table read, its parameters, and the offset its Content-Range starts at. */
  private planRead(
    req: IncomingMessage,
    cache: SchemaCache,
    table: Table,
    query: ParsedQuery,
    prefer: Prefer,
    accept: Accept,
    head: boolean,
  ) {
    const range = requestRange(req, query);
    const b = new Builder(cache, query, this.settings.maxRows);
    const built = b.read({ table, from: `${ident(table.schema)}.${ident(table.name)}` }, b.rootPaging(range));
    const plan: TablePlan = {
      prepared: this.prepareRead(b, built, prefer, accept, head, 'array'),
      offset: range.offset,
    };
    return { plan, params: b.params.values };
  }

  /** The whole statement of a read: rows, count and body as the request asks. */
  private prepareRead(
    b: Builder,
    built: { sql: string; countSql: string },
    prefer: Prefer,
    accept: Accept,
    head: boolean,
    shape: 'array' | 'object',
  ) {
    const count = this.countPlan(b, built.countSql, prefer.count);
    const bodySql = head ? 'null' : accept.csv ? CSV_BODY : shape === 'object' ? OBJECT_BODY : ARRAY_BODY;
    return { sql: wrap(built.sql, { count: count.expr, body: bodySql }), count };
  }

  /** Runs a read (table, view or function) and answers with PostgREST's Content-Range and status rules. */
  private async respondRead(
    res: ServerResponse,
    read: { sql: string; values: unknown[]; count: CountPlan },
    auth: Auth,
    ctx: RequestContext,
    prefer: Prefer,
    accept: Accept,
    offset: number,
    head: boolean,
    shape: 'array' | 'object',
    location?: string,
  ): Promise<void> {
    const { main, before } = await this.executor.run(
      ctx,
      read.sql,
      read.values,
      auth.authed,
      undefined,
      read.count.before,
    );
    const total = read.count.total(main, before);
    const lower = offset;
    const upper = lower + main.pageTotal - 1;
    let status = 200;
    if (total !== undefined) {
      if (lower > total && !(lower === 0 && total === 0)) {
        throw new RestError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          `An offset of ${lower} was requested, but there are only ${total} rows.`,
        );
      }
      if (1 + upper - lower < total) status = 206;
    }
    const headers: Record<string, string> = {
      'content-range': `${total !== 0 && lower <= upper ? `${lower}-${upper}` : '*'}/${total ?? '*'}`,
    };
    if (location) headers['content-location'] = location;
    if (prefer.count) headers['preference-applied'] = `count=${prefer.count}`;
    let text = main.body ?? '';
    if (accept.object) {
      if (main.pageTotal !== 1) throw singularity(main.pageTotal);
      if (shape === 'array') text = text.slice(1, -1);
    }
    return this.finish(res, status, text, headers, main, accept, head);
  }

  /** `count=exact` counts in the statement; `planned` reads the planner's estimate; `estimated` picks between them at max_rows. */
  private countPlan(b: Builder, countSql: string, mode: Prefer['count']): CountPlan {
    if (!mode) return NO_COUNT;
    const none = { expr: undefined, before: [], total: (m: MainResult) => Number(m.total) };
    if (mode === 'exact')
      return { ...none, expr: `(select pg_catalog.count(*) from (${countSql}) as pgrst_count)` };
    const explain = renumber(countSql, b.params.values);
    const before = [{ sql: `explain (format json) ${explain.sql}`, values: explain.values }];
    const planned = (rows: unknown[][][]) => {
      const plan = rows[0]?.[0]?.[0];
      const json = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
        Plan: { 'Plan Rows': number };
      }[];
      return Math.round(json[0].Plan['Plan Rows']);
    };
    if (mode === 'planned')
      return { expr: undefined, before, total: (_m: MainResult, rows: unknown[][][]) => planned(rows) };
    const cap = this.settings.maxRows ?? 1000;
    return {
      expr: `(select pg_catalog.count(*) from (${countSql} limit ${cap + 1}) as pgrst_count)`,
      before,
      total: (m: MainResult, rows: unknown[][][]) =>
        Number(m.total) > cap ? planned(rows) : Number(m.total),
    };
  }

  /** Applies `response.status`/`response.headers` set by SQL, then writes the answer. */
  private finish(
    res: ServerResponse,
    status: number,
    text: string,
    headers: Record<string, string>,
    main: MainResult,
    accept: Accept,
    head = false,
  ) {
    if (main.responseHeaders) {
      let list: unknown;
      try {
        list = JSON.parse(main.responseHeaders);
      } catch {
        list = null;
      }
      if (!Array.isArray(list))
        throw new RestError(
          500,
          'PGRST111',
          'response.headers guc must be a JSON array composed of objects with a single key and a string value',
        );
      for (const h of list as Record<string, string>[])
        for (const [k, v] of Object.entries(h)) headers[k.toLowerCase()] = String(v);
    }
    if (main.responseStatus) {
      const s = Number(main.responseStatus);
      if (!Number.isInteger(s) || s < 100 || s > 599)
        throw new RestError(500, 'PGRST112', 'response.status guc must be a valid status code');
      status = s;
    }
    headers['content-type'] ??=
      `${accept.csv ? 'text/csv' : accept.object ? 'application/vnd.pgrst.object+json' : 'application/json'}; charset=utf-8`;
    if (accept.stripNulls && text)
      text = JSON.stringify(JSON.parse(text), (_k, v) => (v === null ? undefined : v));
    send(res, status, head ? '' : text, headers, head ? Buffer.byteLength(text) : undefined);
  }

  private async insert(
    res: ServerResponse,
    cache: SchemaCache,
    auth: Auth,
    table: Table,
    query: ParsedQuery,
    prefer: Prefer,
    accept: Accept,
    ctx: RequestContext,
    raw: Buffer,
  ): Promise<void> {
    const payload = parseJson(raw);
    const rows = Array.isArray(payload) ? payload : [payload];
    if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
      throw invalidBody('All object keys must match');
    }
    let keys: string[];
    if (query.columns) keys = query.columns;
    else {
      keys = rows.length ? Object.keys(rows[0] as object) : [];
      const sig = [...keys].sort().join('\u0000');
      if (
        rows.some(
          (r) =>
            Object.keys(r as object)
              .sort()
              .join('\u0000') !== sig,
        )
      )
        throw invalidBody('All object keys must match');
    }
    const cols = payloadColumns(table, keys);
    const b = new Builder(cache, query, undefined);
    const bodyParam = b.params.add(JSON.stringify(rows));
    const qualified = `${ident(table.schema)}.${ident(table.name)}`;
    const alias = ident(table.name);
    const present = (c: Column) => rows.some((r) => Object.prototype.hasOwnProperty.call(r, c.name));
    // A column no row carries is left to its default, as PostgreSQL's own INSERT does.
    const used = prefer.missing === 'default' ? cols.filter(present) : cols;
    const exprs = used.map((c) => {
      const value = `pgrst_body.${ident(c.name)}`;
      if (prefer.missing !== 'default') return value;
      return `case when pgrst_rows.j::jsonb ? ${b.params.add(c.name)} then ${value} else ${c.default ?? 'null'} end`;
    });
    let conflict = '';
    if (prefer.resolution) {
      const target = query.onConflict ?? table.pk;
      for (const c of target) b.column(table, c);
      if (target.length) {
        const updates = used.map((c) => `${ident(c.name)} = excluded.${ident(c.name)}`);
        conflict =
          prefer.resolution === 'ignore-duplicates' || updates.length === 0
            ? ` on conflict (${target.map(ident).join(', ')}) do nothing`
            : ` on conflict (${target.map(ident).join(', ')}) do update set ${updates.join(', ')}`;
      }
    }
    const source =
      `from json_array_elements(${bodyParam}::json) with ordinality as pgrst_rows(j, i) ` +
      `cross join lateral json_populate_record(null::${qualified}, pgrst_rows.j) as pgrst_body order by pgrst_rows.i`;
    let mutation: string;
    if (used.length) {
      mutation = `insert into ${qualified} as ${alias} (${used.map((c) => ident(c.name)).join(', ')}) select ${exprs.join(', ')} ${source}${conflict}`;
    } else if (rows.length === 1) {
      mutation = `insert into ${qualified} as ${alias} default values`;
    } else {
      // Nothing to insert (an empty array), or rows without columns, which PostgREST also skips.
      mutation = `select ${alias}.* from ${qualified} as ${alias} where false`;
    }
    const headers: Record<string, string> = {};
    if (prefer.applied.length) headers['preference-applied'] = prefer.applied.join(', ');
    const merging = prefer.resolution === 'merge-duplicates' && conflict !== '';
    const result = await this.runMutation(b, table, mutation, prefer, accept, auth, ctx, merging);
    const { main } = result;
    headers['content-range'] = `*/${prefer.count ? main.pageTotal : '*'}`;
    if (prefer.return === 'headers-only' && table.pk.length && main.body) {
      const first = (JSON.parse(main.body) as Record<string, unknown>[])[0];
      if (first)
        headers['location'] =
          `/${table.name}?${table.pk.map((k) => `${k}=eq.${encodeURIComponent(String(first[k]))}`).join('&')}`;
    }
    // An upsert that only updated existing rows answers 200, as PostgREST does.
    return this.mutationAnswer(
      res,
      merging && Number(main.inserted) <= 0 ? 200 : 201,
      prefer,
      accept,
      main,
      headers,
    );
  }

  private async update(
    res: ServerResponse,
    cache: SchemaCache,
    auth: Auth,
    table: Table,
    query: ParsedQuery,
    prefer: Prefer,
    accept: Accept,
    ctx: RequestContext,
    raw: Buffer,
  ): Promise<void> {
    const payload = parseJson(raw);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      throw invalidBody('Empty or invalid json');
    const cols = payloadColumns(table, query.columns ?? Object.keys(payload));
    const b = new Builder(cache, query, undefined);
    const qualified = `${ident(table.schema)}.${ident(table.name)}`;
    const alias = ident(table.name);
    const where = this.rootWhere(b, table, query, 'UPDATE');
    let mutation: string;
    if (cols.length === 0) {
      mutation = `select ${alias}.* from ${qualified} as ${alias} where false`;
    } else {
      const bodyParam = b.params.add(JSON.stringify(payload));
      const sets = cols.map((c) => `${ident(c.name)} = pgrst_body.${ident(c.name)}`);
      mutation = `update ${qualified} as ${alias} set ${sets.join(', ')} from (select * from json_populate_record(null::${qualified}, ${bodyParam}::json)) as pgrst_body${where}`;
    }
    const { main } = await this.runMutation(b, table, mutation, prefer, accept, auth, ctx);
    return this.mutationAnswer(res, 0, prefer, accept, main, this.writeHeaders(prefer, main));
  }

  private async remove(
    res: ServerResponse,
    cache: SchemaCache,
    auth: Auth,
    table: Table,
    query: ParsedQuery,
    prefer: Prefer,
    accept: Accept,
    ctx: RequestContext,
  ): Promise<void> {
    const b = new Builder(cache, query, undefined);
    const qualified = `${ident(table.schema)}.${ident(table.name)}`;
    const where = this.rootWhere(b, table, query, 'DELETE');
    const mutation = `delete from ${qualified} as ${ident(table.name)}${where}`;
    const { main } = await this.runMutation(b, table, mutation, prefer, accept, auth, ctx);
    const headers = this.writeHeaders(prefer, main);
    // PostgREST gives a DELETE no range, only the count when asked.
    headers['content-range'] = `*/${prefer.count ? main.pageTotal : '*'}`;
    return this.mutationAnswer(res, 0, prefer, accept, main, headers);
  }

  private writeHeaders(prefer: Prefer, main: MainResult): Record<string, string> {
    const headers: Record<string, string> = {
      'content-range': `${main.pageTotal > 0 ? `0-${main.pageTotal - 1}` : '*'}/${prefer.count ? main.pageTotal : '*'}`,
    };
    if (prefer.applied.length) headers['preference-applied'] = prefer.applied.join(', ');
    return headers;
  }

  /**
   * Filters of a PATCH or DELETE. Like Supabase (whose PostgREST runs with pg-safeupdate), a statement
   * with no filter at all is refused rather than changing every row.
   */
  private rootWhere(b: Builder, table: Table, query: ParsedQuery, verb: 'UPDATE' | 'DELETE'): string {
    const conditions = query.nodes.get('')?.conditions ?? [];
    if (conditions.length === 0) throw new RestError(400, '21000', `${verb} requires a WHERE clause`);
    return ` where ${conditions.map((c) => b.condition(table, ident(table.name), c)).join(' and ')}`;
  }

  /** The mutation as a CTE, its returned rows shaped by `select` when a representation is asked for. */
  private async runMutation(
    b: Builder,
    table: Table,
    mutation: string,
    prefer: Prefer,
    accept: Accept,
    auth: Auth,
    ctx: RequestContext,
    countInserts = false,
  ) {
    const representation = prefer.return === 'representation';
    const alias = ident(table.name);
    // xmax is 0 on a row version this statement inserted, and set on one an upsert updated.
    const inserted = countInserts ? `, ${alias}.xmax = 0 as pgrst_inserted` : '';
    const returning =
      (representation
        ? ` returning ${alias}.*`
        : prefer.return === 'headers-only' && table.pk.length
          ? ` returning ${table.pk.map((k) => `${alias}.${ident(k)}`).join(', ')}`
          : ' returning 1') + inserted;
    const insertedSql = countInserts
      ? '(select pg_catalog.count(*) from pgrst_mutation where pgrst_inserted)'
      : undefined;
    const isSelect = mutation.startsWith('select ');
    let sql: string;
    if (representation) {
      const built = b.read({ table, from: 'pgrst_mutation' }, {}, false, false);
      sql = wrap(
        built.sql,
        { body: ARRAY_BODY, inserted: insertedSql },
        `pgrst_mutation as (${mutation}${isSelect ? '' : returning})`,
      );
    } else {
      const cols = prefer.return === 'headers-only' && table.pk.length ? table.pk.map(ident).join(', ') : '1';
      sql = wrap(
        `select ${cols} from pgrst_mutation`,
        { body: prefer.return === 'headers-only' ? ARRAY_BODY : 'null', inserted: insertedSql },
        `pgrst_mutation as (${mutation}${isSelect ? '' : returning})`,
      );
    }
    let singular: RestError | undefined;
    const result = await this.executor.run(ctx, sql, b.params.values, auth.authed, (main) => {
      if (accept.object && main.pageTotal !== 1) {
        singular = singularity(main.pageTotal);
        return 'rollback';
      }
      return 'commit';
    });
    if (singular) throw singular;
    return result;
  }

  private mutationAnswer(
    res: ServerResponse,
    status: number,
    prefer: Prefer,
    accept: Accept,
    main: MainResult,
    headers: Record<string, string>,
  ) {
    if (prefer.return === 'representation') {
      let text = main.body ?? '[]';
      if (accept.object) text = text.slice(1, -1);
      return this.finish(res, status || 200, text, headers, main, accept);
    }
    if (main.responseStatus || main.responseHeaders)
      return this.finish(res, status || 204, '', headers, main, accept);
    send(res, status || 204, '', headers);
  }

  private async rpc(
    req: IncomingMessage,
    res: ServerResponse,
    cache: SchemaCache,
    auth: Auth,
    schema: string,
    name: string,
    search: URLSearchParams,
    raw: Buffer | undefined,
    prefer: Prefer,
    accept: Accept,
    pathname: string,
  ): Promise<void> {
    const isPost = req.method === 'POST';
    const query = parseQuery(search);
    let args: Record<string, unknown> | unknown;
    if (isPost) {
      args = raw && raw.length ? parseJson(raw) : {};
    } else {
      args = Object.fromEntries(query.rest);
    }
    const isObject = args !== null && typeof args === 'object' && !Array.isArray(args);
    const keys = isObject ? Object.keys(args as object) : [];
    const { routine, singleJson } = pickRoutine(cache, schema, name, keys, isPost);
    const b = new Builder(cache, query, this.settings.maxRows);
    const argParam = () => b.params.add(JSON.stringify(args));
    const fn = `${ident(schema)}.${ident(name)}`;
    let call: string;
    let from: string;
    if (singleJson) {
      call = `${fn}(${argParam()}::${routine.params[0].type})`;
      from = '';
    } else {
      const given = routine.params.filter((p) => keys.includes(p.name));
      call = `${fn}(${given.map((p) => `${ident(p.name)} := pgrst_args.${ident(p.name)}`).join(', ')})`;
      from = given.length
        ? ` from json_to_record(${argParam()}::json) as pgrst_args(${given.map((p) => `${ident(p.name)} ${p.type}`).join(', ')})`
        : '';
    }
    // Stable and immutable functions, and every GET, run read-only as in PostgREST.
    const readOnly = !isPost || routine.volatility !== 'v';
    const ctx = this.requestContext(req, auth, pathname, readOnly, cache);
    const head = req.method === 'HEAD';
    if (routine.resultColumns) {
      const known = routine.returnTable
        ? cache.table(routine.returnTable[0], routine.returnTable[1])
        : undefined;
      const table: Table = known
        ? known
        : {
            schema,
            name,
            isView: false,
            insertable: false,
            columns: new Map(routine.resultColumns.map((c) => [c.name, c])),
            columnList: routine.resultColumns,
            pk: [],
          };
      const source = from
        ? `(select pgrst_call.* from${from.slice(5)} cross join lateral ${call} as pgrst_call)`
        : `${call}`;
      const range = requestRange(req, query);
      // A function returning a table's row type embeds through that table's relationships.
      const built = b.read({ table, from: source }, routine.returnsSet ? b.rootPaging(range) : {});
      const shape = routine.returnsSet ? 'array' : 'object';
      return this.respondRead(
        res,
        { ...this.prepareRead(b, built, prefer, accept, head, shape), values: b.params.values },
        auth,
        ctx,
        prefer,
        accept,
        range.offset,
        head,
        shape,
      );
    }
    let inner: string;
    let body: string;
    if (routine.isVoid) {
      inner = `select ${call}${from}`;
      body = 'null';
    } else if (routine.returnsSet) {
      inner = `select pgrst_scalar${from || ' from'}${from ? ' cross join lateral' : ''} ${call} as pgrst_scalar`;
      body = `coalesce(json_agg(_postgrest_t.pgrst_scalar), '[]')::text`;
    } else {
      inner = `select ${call} as pgrst_scalar${from}`;
      body = `coalesce((json_agg(_postgrest_t.pgrst_scalar) -> 0)::text, 'null')`;
    }
    let singular: RestError | undefined;
    // single() on a function answer rolls back when it is not exactly one row, as PostgREST does.
    const decide = accept.object
      ? (m: MainResult) => {
          if (m.pageTotal === 1) return 'commit' as const;
          singular = singularity(m.pageTotal);
          return 'rollback' as const;
        }
      : undefined;
    const { main } = await this.executor.run(
      ctx,
      wrap(inner, { body: head ? 'null' : body }),
      b.params.values,
      auth.authed,
      decide,
    );
    if (singular) throw singular;
    if (routine.isVoid) {
      if (main.responseHeaders || main.responseStatus) return this.finish(res, 204, '', {}, main, accept);
      return send(res, 204, '', {});
    }
    const range = { 'content-range': `${main.pageTotal > 0 ? `0-${main.pageTotal - 1}` : '*'}/*` };
    return this.finish(res, 200, main.body ?? 'null', range, main, { ...accept, object: false }, head);
  }
}

/** How a read counts its rows: an expression in the statement, statements before it, and how to read the total. */
interface CountPlan {
  expr: string | undefined;
  before: { sql: string; values: unknown[] }[];
  total: (m: MainResult, before: unknown[][][]) => number | undefined;
}

const NO_COUNT: CountPlan = Object.freeze({
  expr: undefined,
  before: Object.freeze([]) as unknown as CountPlan['before'],
  total: () => undefined,
});

/** A function returning one composite value answers with that object, not an array. */
const OBJECT_BODY = `coalesce((json_agg(_postgrest_t) -> 0)::text, 'null')`;

function singularity(n: number): RestError {
  return new RestError(
    406,
    'PGRST116',
    'Cannot coerce the result to a single JSON object',
    `The result contains ${n} rows`,
  );
}

function hintTable(cache: SchemaCache, schema: string, name: string): string | null {
  const t = cache.similarTable(schema, name);
  return t ? `Perhaps you meant the table '${schema}.${t}'` : null;
}

interface Accept {
  object: boolean;
  stripNulls: boolean;
  /** `text/csv` (postgrest-js `csv()`), offered for reads as PostgREST does. */
  csv?: boolean;
}

const JSON_TYPE =
  /^(\*\/\*|application\/\*|application\/json|application\/vnd\.pgrst\.(object|array)(\+json)?)(;|$)/;
const CSV_TYPE = /^text\/csv(;|$)/;
/** Parsed Accept headers: clients send the same few over and over. Bounded; the values are frozen. */
const accepted = new Map<string, Accept>();

function parseAccept(header: string | undefined): Accept {
  const value = (header ?? '*/*').toLowerCase();
  const known = accepted.get(value);
  if (known) return known;
  const types = value.split(',').map((t) => t.trim());
  const first = types.find((t) => JSON_TYPE.test(t) || CSV_TYPE.test(t));
  if (!first)
    throw new RestError(
      406,
      'PGRST107',
      `None of these media types are available: ${types.map((t) => t.split(';')[0]).join(', ')}`,
    );
  const accept: Accept = first.startsWith('text/csv')
    ? { object: false, stripNulls: false, csv: true }
    : {
        object: types.some((t) => t.startsWith('application/vnd.pgrst.object')),
        stripNulls: /nulls=stripped/.test(value),
      };
  if (accepted.size < 256) accepted.set(value, Object.freeze(accept));
  return accept;
}

/**
 * PostgREST's CSV body: the first row's keys as the header, then each row in PostgreSQL's record text
 * form without the parentheses (values quoted where needed, NULL empty).
 */
const CSV_BODY =
  `(select coalesce(string_agg(k, ','), '') from json_object_keys(json_agg(_postgrest_t) -> 0) as k) || chr(10) || ` +
  `coalesce(string_agg(substring(_postgrest_t::text, 2, length(_postgrest_t::text) - 2), chr(10)), '')`;

/** The root's offset and limit from `offset`/`limit` and the `Range` header, intersected as PostgREST does. */
function requestRange(req: IncomingMessage, query: ParsedQuery): { offset: number; limit?: number } {
  const root = query.nodes.get('')!;
  let start = root.offset ?? 0;
  let end = root.limit !== undefined ? start + root.limit - 1 : undefined;
  const header = req.headers['range'];
  const unit = req.headers['range-unit'];
  if (typeof header === 'string' && (!unit || unit === 'items')) {
    const m = /^(?:items=)?(\d+)-(\d*)$/.exec(header.trim());
    if (m) {
      const lo = Number(m[1]);
      const hi = m[2] === '' ? undefined : Number(m[2]);
      if (hi !== undefined && lo > hi) {
        throw new RestError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
        );
      }
      start = Math.max(start, lo);
      if (hi !== undefined) end = end === undefined ? hi : Math.min(end, hi);
    }
  }
  return { offset: start, limit: end === undefined ? undefined : Math.max(0, end - start + 1) };
}

/** Keeps only the parameters `sql` uses, renumbered, so it can run on its own (EXPLAIN for planned counts). */
function renumber(sql: string, values: unknown[]): { sql: string; values: unknown[] } {
  const map = new Map<number, number>();
  const out: unknown[] = [];
  const text = sql.replace(/"(?:[^"]|"")*"|\$(\d+)/g, (m, n: string | undefined) => {
    if (!n) return m;
    const i = Number(n);
    if (!map.has(i)) {
      out.push(values[i - 1]);
      map.set(i, out.length);
    }
    return `$${map.get(i)}`;
  });
  return { sql: text, values: out };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}

/** Writes the answer; `headers` is the caller's own object and gains the content length. */
function send(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string>,
  contentLength?: number,
) {
  headers['content-length'] = String(contentLength ?? Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

function sendError(res: ServerResponse, e: RestError) {
  const body = e.body() as unknown as Record<string, unknown>;
  const detailsJson = (e as RestError & { detailsJson?: unknown }).detailsJson;
  if (detailsJson) body.details = detailsJson;
  const text = JSON.stringify(body);
  res.writeHead(e.status, {
    'content-type': 'application/json; charset=utf-8',
    'proxy-status': `PostgREST; error=${e.code}`,
    ...e.headers,
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** A minimal OpenAPI description of the exposed tables and functions (PostgREST serves one at `/`). */
function openApi(cache: SchemaCache, schema: string) {
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
    info: { title: 'ScamCheck local REST API', version: '12' },
    basePath: '/',
    schemes: ['http'],
    consumes: ['application/json'],
    produces: ['application/json'],
    paths,
    definitions,
  };
}
