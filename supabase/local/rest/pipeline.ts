/**
 * The pipelined connection: many one-round-trip requests share one database connection, each batch
 * behind its own Sync (its own transaction), answered in order. pg opens and authenticates the
 * connection; from then on the pipe writes batches to pg's socket and reads the answers with
 * pg-protocol's parser itself, which pg's public API does not offer. That needs two pg internals:
 * `client.connection.stream` and the deep import `pg-protocol/dist/parser.js`. `checkPgInternals` says
 * whether they are as expected; the executor uses a pipe only when they are (else it logs why and
 * uses the pool alone), and supabase/local/tests/rest-pipeline.test.ts fails when they change.
 * Side by side with pipes off (REST_PIPES=0), the bench's read runs faster with them: see
 * tests/bench/README.md.
 */
import pg from 'pg';
import { Parser } from 'pg-protocol/dist/parser.js';
import { Batch, Statements, type Step, type WireConnection } from './batch.ts';

/** How many pipelined connections the executor keeps, and how many batches may wait on one. */
export const PIPES = Number(process.env.REST_PIPES ?? 1);
/** How pipelined connections name themselves in pg_stat_activity. */
export const PIPE_APPLICATION_NAME = 'scamcheck-rest-pipe';
export const PIPE_DEPTH = 16;
/** A batch on a pipe answered later than this is slow: new requests then go to the pool instead of queueing behind it. */
const SLOW_MS = 10;

/** A backend message as pg-protocol's parser hands it over. */
interface Message {
  name: string;
  fields?: (string | null)[];
}

/** The socket pg reads a client's connection from, or a reason it is not where the pipe expects it. */
export function checkPgInternals(
  client: pg.Client,
): (WireConnection & { stream: NodeJS.EventEmitter }) | string {
  if (typeof Parser !== 'function') return 'pg-protocol/dist/parser.js no longer exports Parser';
  const connection = (client as unknown as { connection?: WireConnection & { stream?: NodeJS.EventEmitter } })
    .connection;
  if (!connection) return 'pg.Client has no `connection` property';
  const stream = connection.stream as (WireConnection['stream'] & NodeJS.EventEmitter) | undefined;
  if (
    !stream ||
    typeof stream.write !== 'function' ||
    typeof stream.cork !== 'function' ||
    typeof stream.on !== 'function'
  )
    return 'pg.Client#connection.stream is not a writable socket';
  if (typeof connection.sendCopyFail !== 'function') return 'pg.Client#connection.sendCopyFail is gone';
  return connection as WireConnection & { stream: NodeJS.EventEmitter };
}

export /**
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
    onUnusable: (reason: string) => void,
  ) {
    this.client = new pg.Client({ connectionString, application_name: PIPE_APPLICATION_NAME });
    this.client.on('error', (e) => this.gone(e));
    this.client.on('end', () => this.gone(new Error('Connection terminated unexpectedly')));
    this.client.connect().then(
      () => {
        const connection = checkPgInternals(this.client);
        if (typeof connection === 'string') {
          onUnusable(connection);
          return this.gone(new Error(connection));
        }
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
