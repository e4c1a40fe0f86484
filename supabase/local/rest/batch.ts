/**
 * A request's statements as one extended-protocol batch: Parse (when a statement is new to the
 * connection), Bind and Execute for each, behind a single Sync, so PostgreSQL runs them in one implicit
 * transaction (or inside an explicit `begin` among them) and answers once. A Batch is a pg Submittable:
 * a pooled client runs it through `client.query(batch)`, pg's public hook for custom queries.
 */
import type pg from 'pg';

export interface Step {
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
 * not have run, so the connection never binds nor re-parses that name again, and later batches parse
 * that statement unnamed instead. This keeps a batch from naming a statement that does not exist or
 * preparing one twice.
 */
export class Statements {
  confirmed = new Set<string>();
  pending = new Set<string>();
  poisoned = new Set<string>();
}

/**
 * Several extended-protocol statements sent together behind one Sync: PostgreSQL runs them in one
 * implicit transaction (or inside an explicit `begin` among them) and answers once, so a request costs
 * one round trip. The rows of each statement come back as text. pg's client answers it, as it takes
 * any object with `submit` and the `handle*` calls.
 */
export class Batch {
  results: (string | null)[][][];
  private index = 0;
  private introduced: string[] = [];
  private failed = false;
  done?: (err: Error | null, rows?: (string | null)[][][]) => void;

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

export function sendBatch(
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
