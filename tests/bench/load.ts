/**
 * What the REST benchmarks share: a lean keep-alive HTTP client for the load, and the CPU time of a
 * process read from /proc.
 */
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';

/** The benchmarks' table: `rows` rows by integer key, readable by anon through an RLS policy. */
export function benchTableSql(table: string, rows: number): string {
  return `
    drop table if exists public.${table};
    create table public.${table} (id int primary key, name text not null, category text not null, score int not null);
    insert into public.${table} select i, 'item ' || i, (array['scam', 'hacked', 'spam'])[1 + i % 3], i % 100 from generate_series(1, ${rows}) i;
    alter table public.${table} enable row level security;
    create policy "Anyone can read bench items" on public.${table} for select to anon using (true);
    grant select on public.${table} to anon;
    analyze public.${table};
  `;
}

/** The p-quantile of an ascending list (p in [0, 1]; 1 is the largest). */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** Nanoseconds a process's threads have run on a CPU so far (/proc/<pid>/task/<tid>/schedstat). */
export function cpuNs(pid: number): number {
  let total = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // thread ended meanwhile
      }
    }
  } catch {
    // process ended meanwhile
  }
  return total;
}

/** The processes whose parent is `parent` (for the postmaster: its backends and background workers). */
export function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** A process's command name (/proc/<pid>/comm), '' once it has ended. */
export function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** An answer of the lean client: status, body, and the head (status line and headers) as text. */
export interface HttpAnswer {
  status: number;
  body: string;
  head: string;
}

/**
 * A keep-alive HTTP/1.1 client that does only what the benchmark needs (GET, Content-Length bodies),
 * with one socket per request in flight. Node's http.request costs the load generator about as much
 * CPU per request as the gateway spends; on two cores that time is taken from the gateway and Postgres
 * and would understate the gateway against the bare side, whose `pg` client is lean. Each socket keeps
 * one reader for its whole life, so a request allocates only its line and its answer.
 */
export class HttpClient {
  private idle: Connection[] = [];
  private all: Connection[] = [];
  private head: string;

  constructor(
    private base: URL,
    headers: Record<string, string>,
  ) {
    this.head = `\r\nhost: ${base.host}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
  }

  async get(path: string): Promise<HttpAnswer> {
    let connection = this.idle.pop();
    if (!connection) this.all.push((connection = await Connection.open(this.base)));
    const answer = await connection.send(`GET ${path} HTTP/1.1${this.head}`);
    this.idle.push(connection);
    return answer;
  }

  close() {
    for (const c of this.all) c.socket.destroy();
  }
}

/** One keep-alive socket and the answer it is waiting for. */
class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting?: { resolve: (a: HttpAnswer) => void; reject: (e: Error) => void };

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  static open(base: URL): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: base.hostname, port: Number(base.port), noDelay: true }, () => {
        socket.off('error', reject);
        resolve(new Connection(socket));
      });
      socket.once('error', reject);
    });
  }

  send(request: string): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  private fail(e: Error) {
    const w = this.waiting;
    this.waiting = undefined;
    w?.reject(e);
  }

  private onData(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headerEnd = this.buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!m) return this.fail(new Error('response without content-length'));
    const end = headerEnd + 4 + Number(m[1]);
    if (this.buffer.length < end) return;
    const answer = {
      status: Number(head.slice(9, 12)),
      head,
      body: this.buffer.toString('utf8', headerEnd + 4, end),
    };
    this.buffer = this.buffer.subarray(end);
    const w = this.waiting;
    this.waiting = undefined;
    w?.resolve(answer);
  }
}
