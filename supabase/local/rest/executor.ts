/**
 * Runs one API request as one transaction in one round trip where it can (PostgREST pipelines its
 * statements with hasql the same way): the role and `request.*` settings (request-settings.ts) and
 * the statement go to a pooled connection together as one batch (batch.ts) behind a single Sync, so
 * they share one implicit transaction that commits when they succeed and rolls back when any fails.
 * Requests that decide before committing (a failed `single()`) hold their connection for an explicit
 * transaction. Statements are prepared once per connection and reused.
 *
 * An earlier version also multiplexed requests over one pipelined connection through pg's private
 * socket; side by side on the shared 2-core machine it served 0.55 and 0.84 times the requests of the
 * pool alone (tests/bench/README.md), so it was removed with the pg internals it needed.
 */
import pg from 'pg';
import { SET_REQUEST_SQL, requestSettingValues } from '../request-settings.ts';
import type { Auth } from './auth.ts';
import { Statements, sendBatch, type Step } from './batch.ts';
import { fromPgError } from './errors.ts';

export interface RequestContext {
  auth: Auth;
  /**
   * The schema cache the request was planned with. A connection that prepared statements under an
   * older one drops them first (DEALLOCATE ALL): a type dropped and created again by a migration
   * leaves prepared statements bound to its old OID ("cache lookup failed for type"), which is why
   * PostgREST flushes its pool on every schema reload.
   */
  schemaCache: object;
  /** The request's headers and cookies as JSON objects, for `request.headers` and `request.cookies`. */
  headersJson: string;
  cookiesJson: string;
  method: string;
  path: string;
  readOnly: boolean;
  /** The role's own settings (statement_timeout) as PostgREST applies them when it switches role. */
  statementTimeout?: string;
  /** `db-pre-request`: a quoted function name called after the settings and before the statement. */
  preRequest?: string;
  /**
   * `Accept: application/vnd.pgrst.plan`: EXPLAIN the statement with these options (`format json,
   * analyze`) instead of running it; with ANALYZE it runs, and commits unless the request rolls back.
   */
  explain?: { options: string; rollback: boolean; mime: string };
}

/** EXPLAIN's output, which answers the request instead of its rows. */
export class PlanAnswer {
  constructor(
    readonly text: string,
    readonly mime: string,
  ) {}
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

/** How the REST pool's connections name themselves in pg_stat_activity. */
export const REST_APPLICATION_NAME = 'postgrest-local';

/** Prepared statement names: bounded, so hostile variety cannot fill every backend's memory. */
const MAX_PREPARED = 2000;

type PgError = Error & { code?: string; detail?: string; hint?: string };

/** The main statement's row (the last step) and the rows of the `before` statements just ahead of it. */
function outcome(rows: (string | null)[][][], before: number): { main: MainResult; before: unknown[][][] } {
  const last = rows.length - 1;
  const row = rows[last][0];
  const main: MainResult = {
    total: row[0],
    pageTotal: Number(row[1]),
    body: row[2],
    responseHeaders: row[3],
    responseStatus: row[4],
    inserted: row[5],
  };
  return { main, before: before ? rows.slice(last - before, last) : [] };
}

export class Executor {
  readonly pool: pg.Pool;
  private names = new Map<string, string>();
  private statements = new WeakMap<object, { statements: Statements; schemaCache: object }>();

  constructor(connectionString: string, max = 20) {
    this.pool = new pg.Pool({
      connectionString,
      max,
      idleTimeoutMillis: 30_000,
      allowExitOnIdle: true,
      application_name: REST_APPLICATION_NAME,
    });
    this.pool.on('error', () => undefined);
    // A checked-out connection that dies fails its query; its 'error' event must not end the process.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  private nameFor(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (!name && this.names.size < MAX_PREPARED) {
      name = `pgrst_${this.names.size}`;
      this.names.set(sql, name);
    }
    return name;
  }

  private steps(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
    explicit: boolean,
    before: { sql: string; values: unknown[] }[],
  ): Step[] {
    const steps: Step[] = [];
    // Without a decision to make, the implicit transaction of the batch commits at its Sync.
    if (explicit) steps.push({ text: 'begin', values: [], name: 'pgrst_begin' });
    steps.push({
      name: 'pgrst_set',
      text: SET_REQUEST_SQL,
      values: requestSettingValues({
        role: ctx.auth.role,
        claimsJson: ctx.auth.claimsJson,
        sub: typeof ctx.auth.claims.sub === 'string' ? ctx.auth.claims.sub : '',
        headersJson: ctx.headersJson,
        cookiesJson: ctx.cookiesJson,
        method: ctx.method,
        path: ctx.path,
        statementTimeout: ctx.statementTimeout,
        readOnly: ctx.readOnly,
      }),
    });
    // PostgREST calls the pre-request function in the same transaction, as the same role, right after
    // the settings: an error it raises (a 429 from the rate limiter) answers the request instead.
    if (ctx.preRequest) {
      const text = `select ${ctx.preRequest}()`;
      steps.push({ name: this.nameFor(text), text, values: [] });
    }
    for (const b of before) steps.push({ text: b.sql, values: b.values });
    if (ctx.explain) steps.push({ text: `explain (${ctx.explain.options}) ${sql}`, values });
    else steps.push({ name: this.nameFor(sql), text: sql, values });
    return steps;
  }

  /**
   * Runs `sql` in one transaction. `decide` (for writes) looks at the result before the transaction ends
   * and may ask for a rollback (a failed `single()`, `Prefer: tx=rollback`): such a request holds its
   * connection for its two round trips. Without it the statement commits in the same round trip.
   * Errors come back in PostgREST's shape
   * (401 or 403 for 42501 as the caller is anon or not).
   */
  async run(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
    decide?: (r: MainResult) => 'commit' | 'rollback' | 'discard',
    before: { sql: string; values: unknown[] }[] = [],
  ): Promise<{ main: MainResult; before: unknown[][][] }> {
    const steps = this.steps(ctx, sql, values, !!decide, before);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      let known = this.statements.get(client);
      if (known && known.schemaCache !== ctx.schemaCache) {
        await client.query('deallocate all');
        known = undefined;
      }
      if (!known)
        this.statements.set(client, (known = { statements: new Statements(), schemaCache: ctx.schemaCache }));
      const statements = known.statements;
      let rows: (string | null)[][][];
      try {
        rows = await sendBatch(client, steps, statements);
      } catch (e) {
        // The batch stopped at the error; an explicit transaction must end before the connection is reused.
        if (decide) await client.query('rollback').catch((err: Error) => (broken = err));
        throw e;
      }
      if (ctx.explain) {
        if (decide) await client.query(ctx.explain.rollback ? 'rollback' : 'commit');
        // PostgREST sends the plan's rows as lines (FORMAT TEXT gives one row per line).
        throw new PlanAnswer(rows[rows.length - 1].map((r) => `${r[0]}\n`).join(''), ctx.explain.mime);
      }
      const out = outcome(rows, before.length);
      if (decide) {
        const end = decide(out.main);
        // `Prefer: tx=rollback` answers as if committed: deferred constraints are checked first (PostgREST
        // sets them immediate), so a request that would fail on commit fails here too.
        try {
          if (end === 'discard') await client.query('set constraints all immediate');
        } catch (e) {
          await client.query('rollback').catch((err: Error) => (broken = err));
          throw e;
        }
        await client.query(end === 'commit' ? 'commit' : 'rollback');
      }
      return out;
    } catch (e) {
      if (e instanceof PlanAnswer) throw e;
      const err = e as PgError;
      // A connection the server ended (admin shutdown, crash, lost link) must not go back to the pool.
      if (!err.code || /^(08|57P0)/.test(err.code)) broken = err;
      throw err.code ? fromPgError(err, ctx.auth.authed) : err;
    } finally {
      client.release(broken);
    }
  }

  async end(): Promise<void> {
    await this.pool.end();
  }
}
