/**
 * Runs one API request as one transaction in one round trip where it can (PostgREST pipelines its
 * statements with hasql the same way): the role and `request.*` settings and the statement are written
 * to the connection together behind a single Sync, so they share one implicit transaction that commits
 * when they succeed and rolls back when any fails. Grants, RLS and `auth.uid()` see the same settings
 * `withRole` in db.ts sets (it issues them one round trip at a time, which is fine for other services
 * but would double the REST latency). Statements are prepared once per connection and reused.
 */
import pg from 'pg';
import { fromPgError } from './errors.ts';

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
  /** Rows an upsert inserted rather than updated (PostgREST answers 200 when none). */
  inserted: string | null;
}

const SET_SQL = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
  set_config('request.jwt.claim.sub', $3, true), set_config('request.jwt.claim.role', $1, true),
  set_config('request.headers', $4, true), set_config('request.cookies', $5, true),
  set_config('request.method', $6, true), set_config('request.path', $7, true),
  set_config('statement_timeout', coalesce($8, current_setting('statement_timeout')), true),
  set_config('transaction_read_only', $9, true)`;

/** Prepared statement names: bounded, so hostile variety cannot fill every backend's memory. */
const MAX_PREPARED = 2000;

type PgError = Error & { code?: string; detail?: string; hint?: string };

interface Step {
  text: string;
  values: unknown[];
  name?: string;
}

/** A value as PostgreSQL's text input expects it; arrays become array literals (for `in` and `any`). */
function toText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return `{${v.map((e) => (e === null ? 'NULL' : `"${String(e).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

interface WireConnection {
  stream: { cork(): void; uncork(): void };
  parse(q: { text: string; name?: string; types: number[] }): void;
  bind(c: { statement?: string; values: unknown[]; valueMapper: (v: unknown) => unknown }): void;
  execute(c: { portal: string; rows: number }): void;
  sync(): void;
  sendCopyFail(msg: string): void;
}

/**
 * Several extended-protocol statements sent together behind one Sync: PostgreSQL runs them in one
 * implicit transaction (or inside an explicit `begin` among them) and answers once, so a request costs
 * one round trip. The rows of each statement come back as text.
 */
class Batch {
  rows: (string | null)[][][];
  private index = 0;
  callback?: (err: Error | null, rows?: (string | null)[][][]) => void;

  constructor(
    private steps: Step[],
    private prepared: Set<string>,
  ) {
    this.rows = steps.map(() => []);
  }

  submit(connection: WireConnection): null {
    connection.stream.cork();
    try {
      for (const st of this.steps) {
        if (!st.name || !this.prepared.has(st.name)) {
          connection.parse({ text: st.text, name: st.name, types: [] });
          if (st.name) this.prepared.add(st.name);
        }
        connection.bind({ statement: st.name, values: st.values, valueMapper: toText });
        connection.execute({ portal: '', rows: 0 });
      }
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  handleRowDescription() {}
  handleDataRow(msg: { fields: (string | null)[] }) {
    this.rows[this.index]?.push(msg.fields);
  }
  handleCommandComplete() {
    this.index++;
  }
  handleEmptyQuery() {
    this.index++;
  }
  handlePortalSuspended() {}
  handleCopyInResponse(connection: WireConnection) {
    connection.sendCopyFail('COPY is not supported over the REST API');
  }
  handleCopyData() {}
  handleError(err: Error) {
    const cb = this.callback;
    this.callback = undefined;
    cb?.(err);
  }
  handleReadyForQuery() {
    const cb = this.callback;
    this.callback = undefined;
    cb?.(null, this.rows);
  }
}

export class Executor {
  readonly pool: pg.Pool;
  private names = new Map<string, string>();
  private prepared = new WeakMap<object, Set<string>>();

  constructor(connectionString: string, max = 20) {
    this.pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
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

  private batch(client: pg.PoolClient, steps: Step[]): Promise<(string | null)[][][]> {
    let prepared = this.prepared.get(client);
    if (!prepared) this.prepared.set(client, (prepared = new Set()));
    const b = new Batch(steps, prepared);
    return new Promise((resolve, reject) => {
      b.callback = (err, rows) => (err ? reject(err) : resolve(rows!));
      void client.query(b as unknown as pg.QueryConfig);
    });
  }

  /**
   * Runs `sql` in one transaction. `decide` (for writes) looks at the result before the transaction ends
   * and may ask for a rollback (a failed `single()`, `Prefer: tx=rollback`); without it the statement
   * commits in the same round trip. Errors come back in PostgREST's shape; `authed` decides 401 or 403
   * for 42501.
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
      const steps: Step[] = [];
      // Without a decision to make, the implicit transaction of the batch commits at its Sync.
      if (decide) steps.push({ text: 'begin', values: [], name: 'pgrst_begin' });
      steps.push({
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
          ctx.readOnly ? 'on' : 'off',
        ],
      });
      for (const b of before) steps.push({ text: b.sql, values: b.values });
      steps.push({ name: this.nameFor(sql), text: sql, values });
      let rows: (string | null)[][][];
      try {
        rows = await this.batch(client, steps);
      } catch (e) {
        // The batch stopped at the error; a named statement it meant to prepare may not exist, so
        // forget them all (and end an explicit transaction) before the connection is reused.
        this.prepared.get(client)?.clear();
        await client.query(decide ? 'rollback; deallocate all' : 'deallocate all').catch((err: Error) => (broken = err));
        throw e;
      }
      const row = rows[steps.length - 1][0];
      const main: MainResult = {
        total: row[0],
        pageTotal: Number(row[1]),
        body: row[2],
        responseHeaders: row[3],
        responseStatus: row[4],
        inserted: row[5],
      };
      if (decide) await client.query(decide(main) === 'commit' ? 'commit' : 'rollback');
      return { main, before: rows.slice(steps.length - 1 - before.length, steps.length - 1) };
    } catch (e) {
      const err = e as PgError;
      if (!err.code) broken = err;
      throw err.code ? fromPgError(err, authed) : err;
    } finally {
      client.release(broken);
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
