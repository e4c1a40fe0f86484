/**
 * `/rest/v1`: PostgREST as supabase-js calls it (docs/architecture.md, issue 3). Tables and views of the
 * exposed schemas (config.toml `[api] schemas`) answer reads, inserts, upserts, updates and deletes, and
 * `/rpc/<fn>` calls functions; every request runs in one transaction as the JWT's role with
 * `request.jwt.claims` set, so grants and RLS decide, and errors keep PostgREST's codes and statuses.
 *
 * The parts: auth.ts (who is calling), request.ts (the request, parsed once), http.ts (negotiation and
 * answers), statements.ts and sql-builder.ts (the SQL), read-plans.ts (read templates), executor.ts
 * (one round trip per request), schema-cache.ts (what exists).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dbUrl } from '../config.ts';
import type { ServiceContext, ServiceHandler } from '../gateway.ts';
import { configSection } from '../project-config.ts';
import { RestAuthenticator } from './auth.ts';
import { RestError, tableMissing } from './errors.ts';
import { Executor, PlanAnswer, type MainResult, type RequestContext } from './executor.ts';
import { finish, parseJson, send, sendError } from './http.ts';
import { openApi } from './openapi.ts';
import { parseQuery, type ParsedQuery } from './query-parser.ts';
import { ReadPlans, markedSearch, shapeOf } from './read-plans.ts';
import { RestRequest, appliedPreferences } from './request.ts';
import { SchemaCacheHolder, type SchemaCache, type Table } from './schema-cache.ts';
import { callMedia, findRoutine } from './routines.ts';
import { Builder, ident, wrap } from './sql-builder.ts';
import {
  callSql,
  deleteSql,
  insertRows,
  insertSql,
  mutationStatement,
  readStatement,
  scalarCallSql,
  updateSql,
  type ReadStatement,
} from './statements.ts';

export interface ApiSettings {
  schemas: string[];
  maxRows?: number;
}

/** `[api]` of supabase/config.toml, the settings Supabase hands PostgREST. */
export function readApiSettings(text?: string): ApiSettings {
  try {
    const api = configSection('api', text);
    const schemas = Array.isArray(api.schemas) && api.schemas.length ? (api.schemas as string[]) : undefined;
    return {
      schemas: schemas ?? ['public', 'graphql_public'],
      maxRows: typeof api.max_rows === 'number' ? api.max_rows : undefined,
    };
  } catch {
    return { schemas: ['public', 'graphql_public'], maxRows: 1000 };
  }
}

export async function createRestService(ctx: ServiceContext): Promise<ServiceHandler> {
  const settings = readApiSettings();
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

/** What a table read's template keeps besides its parameters. */
interface TablePlan {
  statement: ReadStatement;
  offset: number;
}

/** How a read answers: its statement and values, where its Content-Range starts, and its shape. */
interface Read {
  statement: ReadStatement;
  values: unknown[];
  offset: number;
  shape: 'array' | 'object';
  location?: string;
  /** A function call: its transaction may end in a rollback or be refused by max-affected. */
  call?: boolean;
}

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

/** `db-max-rows`: the database's `pgrst.db_max_rows` wins over config.toml's `[api] max_rows`. */
function maxRows(cache: SchemaCache, settings: ApiSettings): number | undefined {
  return cache.pgrst.maxRows ?? settings.maxRows;
}

/** Schema-cache misses that a reload may cure. */
const CACHE_MISSES = new Set(['PGRST205', 'PGRST204', 'PGRST202', 'PGRST200', '42703']);

class RestService {
  /** Statements of table reads by shape (read-plans.ts). */
  private plans = new ReadPlans<TablePlan>();
  private auth = new RestAuthenticator();

  constructor(
    private executor: Executor,
    private cache: SchemaCacheHolder,
    private settings: ApiSettings,
    private log: (line: string) => void,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, subPath: string): Promise<void> {
    try {
      const auth = await this.auth.authenticate(req);
      if (!this.cache.current.switchableRoles.has(auth.role))
        await this.auth.refuseRole(this.executor.pool, auth);
      await this.dispatch(
        new RestRequest(req, res, subPath, auth, this.settings.schemas, this.cache.current.pgrst),
        res,
      );
    } catch (e) {
      if (e instanceof RestError) return sendError(res, e);
      if (e instanceof PlanAnswer)
        return send(res, 200, e.text, { 'content-type': `${e.mime}; charset=utf-8` });
      const pg = e as Error & { code?: string };
      this.log(`[rest] ${req.method} ${subPath}: ${pg.stack ?? pg}`);
      sendError(res, new RestError(500, 'PGRSTX00', pg.message || 'Internal error'));
    }
  }

  /** Runs `fn` against the schema cache; if it names something the cache lacks, catches up once and retries. */
  private async withCache<T>(fn: (cache: SchemaCache) => Promise<T>): Promise<T> {
    try {
      return await fn(this.cache.current);
    } catch (e) {
      if (e instanceof RestError && CACHE_MISSES.has(e.code)) {
        const before = this.cache.current;
        await this.cache.catchUp();
        if (this.cache.current !== before) return fn(this.cache.current);
      }
      throw e;
    }
  }

  private async dispatch(rq: RestRequest, res: ServerResponse): Promise<void> {
    const { method, segments } = rq;
    if (segments.length === 0) {
      if (method !== 'GET' && method !== 'HEAD')
        throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      return send(res, 200, JSON.stringify(openApi(this.cache.current, rq.schema)), {
        'content-type': 'application/openapi+json; charset=utf-8',
      });
    }
    await rq.readBody();
    if (segments[0] === 'rpc' && segments.length === 2) {
      if (method !== 'GET' && method !== 'HEAD' && method !== 'POST')
        throw new RestError(405, 'PGRST101', `Cannot use the ${method} method on RPC`);
      return this.withCache((cache) => this.rpc(rq, res, cache, segments[1]));
    }
    if (segments.length !== 1) throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    return this.withCache(async (cache) => {
      const table = cache.table(rq.schema, segments[0]);
      if (!table) throw tableMissing(rq.schema, segments[0], hintTable(cache, rq.schema, segments[0]));
      switch (method) {
        case 'GET':
        case 'HEAD':
          return this.read(rq, res, cache, table);
        case 'POST':
          return this.insert(rq, res, cache, table);
        case 'PATCH':
          return this.update(rq, res, cache, table);
        case 'DELETE':
          return this.remove(rq, res, cache, table);
        default:
          throw new RestError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
      }
    });
  }

  private read(rq: RestRequest, res: ServerResponse, cache: SchemaCache, table: Table): Promise<void> {
    const { req, search, prefer } = rq;
    // PostgREST's Content-Location: the query string sorted by name (a stable sort, as URLSearchParams.sort is).
    const canonical = new URLSearchParams(search);
    canonical.sort();
    const sorted = canonical.toString();
    const location = sorted ? `/${table.name}?${sorted}` : `/${table.name}`;
    const ctx = rq.context(true, cache);
    // Planned and estimated counts run an EXPLAIN of their own, with the values written in: not templated.
    if (prefer.count !== 'planned' && prefer.count !== 'estimated') {
      const h = req.headers;
      // NUL never occurs in a header, a method or an identifier, so the parts cannot run into each other.
      const context = [
        rq.method,
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
          built = this.planRead(rq, cache, table, parseQuery(markedSearch(search)));
        } catch {
          // The ordinary path below answers with the error, worded for the request's own values.
        }
        template = built ? this.plans.learn(cache, shape, built.plan, built.params) : null;
      }
      if (template) {
        const { statement, offset } = template.plan;
        const values = ReadPlans.values(template, shape);
        return this.respondRead(rq, res, ctx, { statement, values, offset, shape: 'array', location });
      }
    }
    const { plan, params } = this.planRead(rq, cache, table, rq.query);
    return this.respondRead(rq, res, ctx, { ...plan, values: params, shape: 'array', location });
  }

  /** The statement of a table read, its parameters, and the offset its Content-Range starts at. */
  private planRead(rq: RestRequest, cache: SchemaCache, table: Table, query: ParsedQuery) {
    const range = rq.range(query);
    const b = new Builder(cache, query, maxRows(cache, this.settings));
    const built = b.read({ table, from: `${ident(table.schema)}.${ident(table.name)}` }, b.rootPaging(range));
    const plan: TablePlan = {
      statement: this.readStatement(rq, cache, b, built, 'array'),
      offset: range.offset,
    };
    return { plan, params: b.params.values };
  }

  private readStatement(
    rq: RestRequest,
    cache: SchemaCache,
    b: Builder,
    built: { sql: string; countSql: string },
    shape: 'array' | 'object',
  ) {
    return readStatement(b, built, {
      count: rq.prefer.count,
      accept: rq.accept,
      head: rq.head,
      shape,
      maxRows: maxRows(cache, this.settings),
    });
  }

  /** Runs a read (table, view or function) and answers with PostgREST's Content-Range and status rules. */
  private async respondRead(rq: RestRequest, res: ServerResponse, ctx: RequestContext, read: Read) {
    const { prefer, accept } = rq;
    let refused: RestError | undefined;
    const { main, before } = await this.executor.run(
      ctx,
      read.statement.sql,
      read.values,
      read.call ? this.decision(rq, true, (e) => (refused = e)) : undefined,
      read.statement.count.before,
    );
    if (refused) throw refused;
    const total = read.statement.count.total(main, before);
    const lower = read.offset;
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
    if (read.location) headers['content-location'] = read.location;
    const applied = appliedPreferences({ invalid: [], count: prefer.count, tx: prefer.tx });
    if (applied) headers['preference-applied'] = applied;
    let text = main.body ?? '';
    if (accept.object) {
      if (main.pageTotal !== 1) throw singularity(main.pageTotal);
      if (read.shape === 'array') text = text.slice(1, -1);
    }
    return finish(res, status, text, headers, main, accept, rq.head);
  }

  /**
   * How a write or call's transaction ends, as PostgREST decides after running it: a `single()` that
   * did not get exactly one row, or more rows than `Prefer: max-affected` under `handling=strict`
   * (PATCH, DELETE, calls), is refused and rolled back; `Prefer: tx=rollback` or `db-tx-end` may
   * roll it back after answering. Without any of these the request commits in one round trip.
   */
  private decision(rq: RestRequest, limited: boolean, refuse: (e: RestError) => void) {
    const { accept, prefer } = rq;
    const maxAffected = limited && prefer.handling === 'strict' ? prefer.maxAffected : undefined;
    if (!accept.object && maxAffected === undefined && !rq.rollback) return undefined;
    return (main: MainResult): 'commit' | 'rollback' | 'discard' => {
      if (accept.object && main.pageTotal !== 1) {
        refuse(singularity(main.pageTotal));
        return 'rollback';
      }
      if (maxAffected !== undefined && main.pageTotal > maxAffected) {
        refuse(
          new RestError(
            400,
            'PGRST124',
            'Query result exceeds max-affected preference constraint',
            `The query affects ${main.pageTotal} rows`,
          ),
        );
        return 'rollback';
      }
      return rq.rollback ? 'discard' : 'commit';
    };
  }

  /** Runs a write's statement and ends its transaction as `decision` says. */
  private async runMutation(
    rq: RestRequest,
    cache: SchemaCache,
    sql: string,
    values: unknown[],
    limited = false,
  ) {
    let refused: RestError | undefined;
    const decide = this.decision(rq, limited, (e) => (refused = e));
    const result = await this.executor.run(rq.context(false, cache), sql, values, decide);
    if (refused) throw refused;
    return result.main;
  }

  private mutationAnswer(
    rq: RestRequest,
    res: ServerResponse,
    status: number,
    main: MainResult,
    headers: Record<string, string>,
  ) {
    const { prefer, accept } = rq;
    if (prefer.return === 'representation') {
      let text = main.body ?? '[]';
      if (accept.object) text = text.slice(1, -1);
      return finish(res, status || 200, text, headers, main, accept);
    }
    if (main.responseStatus || main.responseHeaders)
      return finish(res, status || 204, '', headers, main, accept);
    send(res, status || 204, '', headers);
  }

  private async insert(rq: RestRequest, res: ServerResponse, cache: SchemaCache, table: Table) {
    const { prefer, query } = rq;
    // PostgreSQL's rewriter refuses an INSERT into a view that is not insertable (55000), which the SQLSTATE
    // table answers with 500; it is the client's method that is wrong, so it gets 405 with that code.
    if (table.isView && !table.insertable)
      throw new RestError(
        405,
        '55000',
        `cannot insert into view "${table.name}"`,
        'Views that are not insertable cannot take a POST.',
      );
    const { rows, keys } = insertRows(parseJson(rq.body), query.columns);
    const b = new Builder(cache, query, undefined);
    const { mutation, merging } = insertSql(b, table, query, prefer, rows, keys);
    const main = await this.runMutation(
      rq,
      cache,
      mutationStatement(b, table, mutation, prefer, merging),
      b.params.values,
    );
    const headers: Record<string, string> = {};
    const applied = appliedPreferences(prefer);
    if (applied) headers['preference-applied'] = applied;
    headers['content-range'] = `*/${prefer.count ? main.pageTotal : '*'}`;
    if (prefer.return === 'headers-only' && table.pk.length && main.body) {
      const first = (JSON.parse(main.body) as Record<string, unknown>[])[0];
      if (first)
        headers['location'] =
          `/${table.name}?${table.pk.map((k) => `${k}=eq.${encodeURIComponent(String(first[k]))}`).join('&')}`;
    }
    // An upsert that only updated existing rows answers 200, as PostgREST does.
    return this.mutationAnswer(rq, res, merging && Number(main.inserted) <= 0 ? 200 : 201, main, headers);
  }

  private async update(rq: RestRequest, res: ServerResponse, cache: SchemaCache, table: Table) {
    const b = new Builder(cache, rq.query, undefined);
    const mutation = updateSql(b, table, rq.query, parseJson(rq.body));
    const main = await this.runMutation(
      rq,
      cache,
      mutationStatement(b, table, mutation, rq.prefer, false),
      b.params.values,
      true,
    );
    return this.mutationAnswer(rq, res, 0, main, this.writeHeaders(rq, main));
  }

  private async remove(rq: RestRequest, res: ServerResponse, cache: SchemaCache, table: Table) {
    const b = new Builder(cache, rq.query, undefined);
    const mutation = deleteSql(b, table, rq.query);
    const main = await this.runMutation(
      rq,
      cache,
      mutationStatement(b, table, mutation, rq.prefer, false),
      b.params.values,
      true,
    );
    const headers = this.writeHeaders(rq, main);
    // PostgREST gives a DELETE no range, only the count when asked.
    headers['content-range'] = `*/${rq.prefer.count ? main.pageTotal : '*'}`;
    return this.mutationAnswer(rq, res, 0, main, headers);
  }

  private writeHeaders(rq: RestRequest, main: MainResult): Record<string, string> {
    const headers: Record<string, string> = {
      'content-range': `${main.pageTotal > 0 ? `0-${main.pageTotal - 1}` : '*'}/${rq.prefer.count ? main.pageTotal : '*'}`,
    };
    const applied = appliedPreferences(rq.prefer, { maxAffected: true });
    if (applied) headers['preference-applied'] = applied;
    return headers;
  }

  private async rpc(rq: RestRequest, res: ServerResponse, cache: SchemaCache, name: string): Promise<void> {
    const { schema, query, accept, head } = rq;
    const isPost = rq.method === 'POST';
    const media = isPost ? callMedia(rq.req.headers['content-type']) : 'json';
    // text/plain, text/xml and octet-stream bodies go whole to a function's one unnamed parameter.
    const raw = media === 'text' || media === 'xml' || media === 'bytea';
    const args: unknown = isPost
      ? rq.body?.length && !raw
        ? parseJson(rq.body)
        : {}
      : Object.fromEntries(query.rest);
    const isObject = args !== null && typeof args === 'object' && !Array.isArray(args);
    const keys = isObject && !raw ? Object.keys(args as object) : [];
    const { routine, positional } = findRoutine(cache, schema, name, keys, {
      isPost,
      media,
      singleObject: rq.prefer.params === 'single-object',
    });
    const payload = isPost ? (rq.body?.length ? rq.body : raw ? '' : '{}') : JSON.stringify(args);
    const b = new Builder(cache, query, maxRows(cache, this.settings));
    const { call, from } = callSql(b, schema, routine, positional, args, keys, payload);
    // Stable and immutable functions, and every GET, run read-only as in PostgREST.
    const ctx = rq.context(!isPost || routine.volatility !== 'v', cache);
    // max-affected counts the rows a function returns, so it needs one that returns a set.
    if (rq.prefer.handling === 'strict' && rq.prefer.maxAffected !== undefined && !routine.returnsSet)
      throw new RestError(
        400,
        'PGRST128',
        'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
      );
    if (routine.resultColumns) {
      const known = routine.returnTable
        ? cache.table(routine.returnTable[0], routine.returnTable[1])
        : undefined;
      const table: Table = known ?? {
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
        : call;
      const range = rq.range();
      // A function returning a table's row type embeds through that table's relationships.
      const built = b.read({ table, from: source }, routine.returnsSet ? b.rootPaging(range) : {});
      const shape = routine.returnsSet ? 'array' : 'object';
      return this.respondRead(rq, res, ctx, {
        statement: this.readStatement(rq, cache, b, built, shape),
        values: b.params.values,
        offset: range.offset,
        shape,
        call: true,
      });
    }
    const { inner, body } = scalarCallSql(routine, call, from);
    let refused: RestError | undefined;
    const { main } = await this.executor.run(
      ctx,
      wrap(inner, { body: head ? 'null' : body }),
      b.params.values,
      this.decision(rq, true, (e) => (refused = e)),
    );
    if (refused) throw refused;
    if (routine.isVoid) {
      if (main.responseHeaders || main.responseStatus) return finish(res, 204, '', {}, main, accept);
      return send(res, 204, '', {});
    }
    // With `Prefer: count`, the total is the number of values the function returned.
    const headers: Record<string, string> = {
      'content-range': `${main.pageTotal > 0 ? `0-${main.pageTotal - 1}` : '*'}/${rq.prefer.count ? main.pageTotal : '*'}`,
    };
    const applied = appliedPreferences({ invalid: [], count: rq.prefer.count, tx: rq.prefer.tx });
    if (applied) headers['preference-applied'] = applied;
    return finish(res, 200, main.body ?? 'null', headers, main, { ...accept, object: false }, head);
  }
}
