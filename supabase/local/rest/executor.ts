/**
 * Runs one API request as one transaction in one round trip where it can (PostgREST pipelines its
 * statements with hasql the same way): the role and `request.*` settings and the statement are written
 * to the connection together behind a single Sync, so they share one implicit transaction that commits
 * when they succeed and rolls back when any fails. Grants, RLS and `auth.uid()` see the same settings
 * `withRole` in db.ts sets (it issues them one round trip at a time, which is fine for other services
 * but would double the REST latency). Statements are prepared once per connection and reused.
 */
import pg from 'pg';
import { Parser } from 'pg-protocol/dist/parser.js';
import { fromPgError } from './errors.ts';

export interface RequestContext {
  claims: Record<string, unknown>;
  /** `claims` already serialized, when the caller has it. */
  claimsJson?: string;
  role: string;
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

const SET_SQL = `select (set_config('role', $1, true) is null)::int + (set_config('request.jwt.claims', $2, true) is null)::int
  + (set_config('request.jwt.claim.sub', $3, true) is null)::int + (set_config('request.jwt.claim.role', $1, true) is null)::int
  + (set_config('request.headers', $4, true) is null)::int + (set_config('request.cookies', $5, true) is null)::int
  + (set_config('request.method', $6, true) is null)::int + (set_config('request.path', $7, true) is null)::int
  + (set_config('statement_timeout', coalesce($8, current_setting('statement_timeout')), true) is null)::int
  + (set_config('transaction_read_only', $9, true) is null)::int`;

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
  if (Array.isArray(v))
    return `{${v.map((e) => (e === null ? 'NULL' : `"${String(e).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

interface WireConnection {
  stream: { cork(): void; uncork(): void; write(b: Buffer): boolean; writable: boolean };
  sendCopyFail(msg: string): void;
}

/** Writes `text` NUL-terminated at `at`; returns the offset after it. */
function cstring(buf: Buffer, at: number, text: string): number {
  at += buf.write(text, at);
  buf[at] = 0;
  return at + 1;
}

/**
 * One batch as the bytes of its extended-protocol messages (Parse when a statement is new, Bind with
 * text parameters, Execute, and a final Sync), in a single buffer: one write per request instead of
 * one per message.
 */
function encodeBatch(steps: { text?: string; name: string; values: (string | null)[] }[]): Buffer {
  let size = 5; // Sync
  for (const step of steps) {
    if (step.text !== undefined)
      size += 1 + 4 + Buffer.byteLength(step.name) + 1 + Buffer.byteLength(step.text) + 1 + 2;
    size += 1 + 4 + 1 + Buffer.byteLength(step.name) + 1 + 2 + 2 + 2 + 1 + 4 + 1 + 4;
    for (const v of step.values) size += 4 + (v === null ? 0 : Buffer.byteLength(v));
  }
  const buf = Buffer.allocUnsafe(size);
  let at = 0;
  for (const step of steps) {
    if (step.text !== undefined) {
      const start = at;
      buf[at++] = 0x50; // Parse: name, query, no parameter types
      at += 4;
      at = cstring(buf, at, step.name);
      at = cstring(buf, at, step.text);
      at = buf.writeInt16BE(0, at);
      buf.writeInt32BE(at - start - 1, start + 1);
    }
    const start = at;
    buf[at++] = 0x42; // Bind: unnamed portal, statement, all parameters and results as text
    at += 4;
    buf[at++] = 0;
    at = cstring(buf, at, step.name);
    at = buf.writeInt16BE(0, at);
    at = buf.writeInt16BE(step.values.length, at);
    for (const v of step.values) {
      if (v === null) at = buf.writeInt32BE(-1, at);
      else {
        const len = buf.write(v, at + 4);
        at = buf.writeInt32BE(len, at) + len;
      }
    }
    at = buf.writeInt16BE(0, at);
    buf.writeInt32BE(at - start - 1, start + 1);
    buf[at++] = 0x45; // Execute: unnamed portal, all rows
    at = buf.writeInt32BE(9, at);
    buf[at++] = 0;
    at = buf.writeInt32BE(0, at);
  }
  buf[at++] = 0x53; // Sync
  buf.writeInt32BE(4, at);
  return buf;
}

/**
 * Which named statements a connection holds. A name is `confirmed` once a batch that parsed it ended
 * well, `pending` while that batch is on its way, and `poisoned` when it failed: the Parse may or may
 * not have run, so the connection never binds nor re-parses that name again. Batches written while a
 * name is pending or poisoned parse their statement unnamed instead. This keeps pipelined batches, which
 * are written before the ones ahead of them are answered, from naming a statement that does not exist
 * or preparing one twice.
 */
class Statements {
  confirmed = new Set<string>();
  pending = new Set<string>();
  poisoned = new Set<string>();
}

/**
 * Several extended-protocol statements sent together behind one Sync: PostgreSQL runs them in one
 * implicit transaction (or inside an explicit `begin` among them) and answers once, so a request costs
 * one round trip. The rows of each statement come back as text. It is answered by a pipe (below) or,
 * on a pooled connection, by pg's client, which takes any object with `submit` and the `handle*` calls.
 */
class Batch {
  results: (string | null)[][][];
  private index = 0;
  private introduced: string[] = [];
  private failed = false;
  done?: (err: Error | null, rows?: (string | null)[][][]) => void;
  /** When a pipe wrote it (performance.now()). */
  sentAt = 0;

  constructor(
    private steps: Step[],
    private statements: Statements,
  ) {
    this.results = [];
    for (let i = 0; i < steps.length; i++) this.results.push([]);
  }

  submit(connection: WireConnection): Error | null {
    if (!connection.stream.writable) return new Error('Connection terminated');
    const st = this.statements;
    const wire = this.steps.map((step) => {
      const values = step.values.map(toText);
      const name = step.name;
      if (name && st.confirmed.has(name)) return { name, values };
      if (name && !st.pending.has(name) && !st.poisoned.has(name)) {
        st.pending.add(name);
        this.introduced.push(name);
        return { text: step.text, name, values };
      }
      return { text: step.text, name: '', values };
    });
    connection.stream.write(encodeBatch(wire));
    return null;
  }

  private settle(ok: boolean) {
    for (const name of this.introduced) {
      this.statements.pending.delete(name);
      (ok ? this.statements.confirmed : this.statements.poisoned).add(name);
    }
    this.introduced = [];
  }

  handleRowDescription() {}
  handleDataRow(msg: { fields: (string | null)[] }) {
    this.results[this.index]?.push(msg.fields);
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
    this.failed = true;
    this.settle(false);
    const cb = this.done;
    this.done = undefined;
    cb?.(err);
  }
  handleReadyForQuery() {
    if (!this.failed) this.settle(true);
    const cb = this.done;
    this.done = undefined;
    cb?.(null, this.results);
  }
}

function sendBatch(
  client: pg.ClientBase,
  steps: Step[],
  statements: Statements,
): Promise<(string | null)[][][]> {
  const b = new Batch(steps, statements);
  return new Promise((resolve, reject) => {
    b.done = (err, rows) => (err ? reject(err) : resolve(rows!));
    void client.query(b as unknown as pg.QueryConfig);
  });
}

/** How many pipelined connections the executor keeps, and how many batches may wait on one. */
const PIPES = Number(process.env.REST_PIPES ?? 1);
/** How pipelined connections name themselves in pg_stat_activity. */
export const PIPE_APPLICATION_NAME = 'scamcheck-rest-pipe';
const PIPE_DEPTH = 16;
/** A batch on a pipe answered later than this is slow: new requests then go to the pool instead of queueing behind it. */
const SLOW_MS = 10;

/** A backend message as pg-protocol's parser hands it over. */
interface Message {
  name: string;
  fields?: (string | null)[];
}

/**
 * A pipelined connection: pg opens and authenticates it, then the pipe writes its batches and reads the
 * answers itself (pg's client would queue each batch and dispatch each answer through an event, a few
 * µs per request more). Batches are written as they come, each
 * behind its own Sync (so each is its own transaction, as on a pooled connection), and answered in
 * order. Batches written in the same turn of the event loop leave in one write, and a backend that is
 * already busy reads the next without being woken: under load this saves most of the per-request
 * system calls and context switches.
 */
class Pipe {
  readonly client: pg.Client;
  readonly statements = new Statements();
  /** Batches on their way, oldest first. */
  private queue: Batch[] = [];
  private stream?: WireConnection['stream'];
  private connection?: WireConnection;
  private corked = false;
  ready = false;
  dead = false;

  constructor(
    connectionString: string,
    private onGone: (pipe: Pipe) => void,
  ) {
    this.client = new pg.Client({ connectionString, application_name: PIPE_APPLICATION_NAME });
    this.client.on('error', (e) => this.gone(e));
    this.client.on('end', () => this.gone(new Error('Connection terminated unexpectedly')));
    this.client.connect().then(
      () => {
        const connection = (
          this.client as unknown as { connection: WireConnection & { stream: NodeJS.EventEmitter } }
        ).connection;
        // From here on the pipe reads the answers; pg keeps watching for the connection's end.
        connection.stream.removeAllListeners('data');
        const parser = new Parser();
        const onMessage = (msg: Message) => this.onMessage(msg);
        connection.stream.on('data', (buffer: Buffer) => parser.parse(buffer, onMessage as never));
        this.connection = connection;
        this.stream = connection.stream;
        this.ready = !this.dead;
      },
      (e: Error) => this.gone(e),
    );
  }

  private gone(e: Error) {
    if (!this.dead) {
      this.dead = true;
      this.onGone(this);
    }
    const queue = this.queue;
    this.queue = [];
    for (const b of queue) b.handleError(e);
  }

  private onMessage(msg: Message) {
    const head = this.queue[0];
    switch (msg.name) {
      case 'dataRow':
        head?.handleDataRow(msg as { fields: (string | null)[] });
        return;
      case 'commandComplete':
        head?.handleCommandComplete();
        return;
      case 'emptyQuery':
        head?.handleEmptyQuery();
        return;
      case 'readyForQuery':
        this.queue.shift();
        head?.handleReadyForQuery();
        return;
      case 'error':
        // An error outside any batch is the server closing the connection (a terminated backend).
        if (head) head.handleError(msg as unknown as Error);
        else this.gone(msg as unknown as Error);
        return;
      case 'copyInResponse':
        if (head && this.connection) head.handleCopyInResponse(this.connection);
        return;
      default:
        // parseComplete, bindComplete, rowDescription, noData, notices, parameter status: nothing to do.
        return;
    }
  }

  get inFlight(): number {
    return this.queue.length;
  }

  /** Whether the oldest batch on its way has taken long (a slow query or a lock wait holds the pipe). */
  stalled(now: number): boolean {
    return this.queue.length > 0 && now - this.queue[0].sentAt > SLOW_MS;
  }

  run(steps: Step[]): Promise<(string | null)[][][]> {
    const stream = this.stream!;
    if (!this.corked) {
      this.corked = true;
      stream.cork();
      setImmediate(() => {
        this.corked = false;
        stream.uncork();
      });
    }
    const batch = new Batch(steps, this.statements);
    return new Promise((resolve, reject) => {
      batch.done = (err, rows) => (err ? reject(err) : resolve(rows!));
      const failed = batch.submit(this.connection!);
      if (failed) return batch.handleError(failed);
      batch.sentAt = performance.now();
      this.queue.push(batch);
    });
  }

  end(): Promise<void> {
    this.dead = true;
    return this.client.end().catch(() => undefined);
  }
}

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
  private statements = new WeakMap<object, Statements>();
  private pipes: Pipe[] = [];
  private ended = false;

  constructor(
    private connectionString: string,
    max = 20,
  ) {
    this.pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
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

  /** A pipe with room for one more batch and no slow batch ahead, opening pipes up to `PIPES` on first use. */
  private pipe(): Pipe | undefined {
    if (this.ended || PIPES <= 0) return undefined;
    while (this.pipes.length < PIPES) {
      this.pipes.push(
        new Pipe(this.connectionString, (gone) => (this.pipes = this.pipes.filter((p) => p !== gone))),
      );
    }
    const now = performance.now();
    let best: Pipe | undefined;
    for (const p of this.pipes) {
      if (!p.ready || p.dead || p.inFlight >= PIPE_DEPTH || p.stalled(now)) continue;
      if (!best || p.inFlight < best.inFlight) best = p;
    }
    return best;
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
      text: SET_SQL,
      values: [
        ctx.role,
        ctx.claimsJson ?? JSON.stringify(ctx.claims),
        typeof ctx.claims.sub === 'string' ? ctx.claims.sub : '',
        ctx.headersJson,
        ctx.cookiesJson,
        ctx.method,
        ctx.path,
        ctx.statementTimeout ?? null,
        ctx.readOnly ? 'on' : 'off',
      ],
    });
    // PostgREST calls the pre-request function in the same transaction, as the same role, right after
    // the settings: an error it raises (a 429 from the rate limiter) answers the request instead.
    if (ctx.preRequest) {
      const text = `select ${ctx.preRequest}()`;
      steps.push({ name: this.nameFor(text), text, values: [] });
    }
    for (const b of before) steps.push({ text: b.sql, values: b.values });
    steps.push({ name: this.nameFor(sql), text: sql, values });
    return steps;
  }

  /**
   * Runs `sql` in one transaction. `decide` (for writes) looks at the result before the transaction ends
   * and may ask for a rollback (a failed `single()`, `Prefer: tx=rollback`): such a request holds a
   * pooled connection for its two round trips. Without it the statement commits in the same round trip
   * and goes on a pipelined connection when one has room. Errors come back in PostgREST's shape;
   * `authed` decides 401 or 403 for 42501.
   */
  async run(
    ctx: RequestContext,
    sql: string,
    values: unknown[],
    authed: boolean,
    decide?: (r: MainResult) => 'commit' | 'rollback',
    before: { sql: string; values: unknown[] }[] = [],
  ): Promise<{ main: MainResult; before: unknown[][][] }> {
    const steps = this.steps(ctx, sql, values, !!decide, before);
    const pipe = decide ? undefined : this.pipe();
    if (pipe) {
      try {
        return outcome(await pipe.run(steps), before.length);
      } catch (e) {
        const err = e as PgError;
        throw err.code ? fromPgError(err, authed) : err;
      }
    }
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      let statements = this.statements.get(client);
      if (!statements) this.statements.set(client, (statements = new Statements()));
      let rows: (string | null)[][][];
      try {
        rows = await sendBatch(client, steps, statements);
      } catch (e) {
        // The batch stopped at the error; an explicit transaction must end before the connection is reused.
        if (decide) await client.query('rollback').catch((err: Error) => (broken = err));
        throw e;
      }
      const out = outcome(rows, before.length);
      if (decide) await client.query(decide(out.main) === 'commit' ? 'commit' : 'rollback');
      return out;
    } catch (e) {
      const err = e as PgError;
      if (!err.code) broken = err;
      throw err.code ? fromPgError(err, authed) : err;
    } finally {
      client.release(broken);
    }
  }

  async end(): Promise<void> {
    this.ended = true;
    const pipes = this.pipes;
    this.pipes = [];
    await Promise.all(pipes.map((p) => p.end()));
    await this.pool.end();
  }
}
