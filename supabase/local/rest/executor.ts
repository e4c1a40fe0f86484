/**
 * Runs one API request as one transaction in as few round trips as possible, as PostgREST does with
 * hasql's pipelining: `begin`, the role and `request.*` settings, the statement and `commit` are written
 * to the connection together and answered together. Grants, RLS and `auth.uid()` see the same settings
 * `withRole` in db.ts sets. Statements are prepared once per connection and reused.
 */
import pg from 'pg';
import { fromPgError, type RestError } from './errors.ts';

export interface RequestContext {
  claims: Record<string, unknown>;
  role: string;
  headers: Record<string, unknown>;
  cookies: Record<string, string>;
  method: string;
  path: string;
  readOnly: boolean;
  /** The role's own settings (statement_timeout) as PostgREST applies them when it switches role. */
  statementTimeout?: string;
}

export interface MainResult {
  total: string | null;
  pageTotal: number;
  body: string | null;
  responseHeaders: string | null;
  responseStatus: string | null;
}

const SET_SQL = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
  set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
  set_config('request.headers', $4, true), set_config('request.cookies', $5, true),
  set_config('request.method', $6, true), set_config('request.path', $7, true),
  set_config('statement_timeout', coalesce($8, current_setting('statement_timeout')), true)`;

/** Prepared statement names: bounded, so hostile variety cannot fill every backend's memory. */
const MAX_PREPARED = 2000;

type PgError = Error & { code?: string; detail?: string; hint?: string };

export class Executor {
  readonly pool: pg.Pool;
  private names = new Map<string, string>();

  constructor(connectionString: string, max = 20) {
    this.pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, allowExitOnIdle: true, pipeline: true } as pg.PoolConfig);
    this.pool.on('error', () => undefined);
  }

  private nameFor(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (!name && this.names.size < MAX_PREPARED) {
      name = `pgrst_${this.names.size}`;
      this.names.set(sql, name);
    }
    return name;
  }

  /**
   * Runs `sql` in one transaction. `decide` (for writes) looks at the result before the transaction ends
   * and may ask for a rollback (a failed `single()`, `Prefer: tx=rollback`); reads commit in the same
   * round trip. Errors come back in PostgREST's shape; `authed` decides 401 or 403 for 42501.
   */
  async run(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
    authed: boolean,
    decide?: (r: MainResult) => 'commit' | 'rollback',
    before: { sql: string; values: unknown[] }[] = [],
  ): Promise<{ main: MainResult; before: unknown[][][] }> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
      stream.cork();
      const queries: Promise<pg.QueryResult>[] = [];
      queries.push(client.query(ctx.readOnly ? 'begin isolation level read committed read only' : 'begin'));
      queries.push(
        client.query({
          name: 'pgrst_set',
          text: SET_SQL,
          values: [
            ctx.role,
            JSON.stringify(ctx.claims),
            typeof ctx.claims.sub === 'string' ? ctx.claims.sub : '',
            JSON.stringify(ctx.headers),
            JSON.stringify(ctx.cookies),
            ctx.method,
            ctx.path,
            ctx.statementTimeout ?? null,
          ],
        }),
      );
      for (const b of before) queries.push(client.query({ text: b.sql, values: b.values, rowMode: 'array' }));
      queries.push(client.query({ name: this.nameFor(sql), text: sql, values, rowMode: 'array' }));
      if (!decide) queries.push(client.query('commit'));
      stream.uncork();
      const settled = await Promise.allSettled(queries);
      const failed = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult | undefined;
      if (failed) {
        if (decide) await client.query('rollback').catch((e: Error) => (broken = e));
        throw failed.reason;
      }
      const mainIdx = 2 + before.length;
      const row = (settled[mainIdx] as PromiseFulfilledResult<pg.QueryResult>).value.rows[0] as (string | null)[];
      const main: MainResult = {
        total: row[0],
        pageTotal: Number(row[1]),
        body: row[2],
        responseHeaders: row[3],
        responseStatus: row[4],
      };
      if (decide) {
        const end = decide(main);
        await client.query(end === 'commit' ? 'commit' : 'rollback');
      }
      const beforeRows = settled.slice(2, mainIdx).map((s) => (s as PromiseFulfilledResult<pg.QueryResult>).value.rows as unknown[][]);
      return { main, before: beforeRows };
    } catch (e) {
      const err = e as PgError;
      if (!err.code) broken = err;
      throw err.code ? fromPgError(err, authed) : err;
    } finally {
      client.release(broken);
    }
  }

  /** A statement outside any request (schema cache, role settings), as the pool's superuser. */
  query(sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
    return this.pool.query(sql, values);
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

export type { RestError };
