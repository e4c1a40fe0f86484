/**
 * Benchmark of /rest/v1 (issue 3): one row read by primary key with 10 concurrent clients, through the
 * gateway as supabase-js sends it (anon key, RLS on) and through a bare `pg` Pool of 10 clients running
 * the same query, in the same run, and beside a no-op Node HTTP server (the ceiling for any Node
 * gateway on the machine). Prints throughput, the ratios, p50/p99 latency and the gateway's CPU time
 * per request.
 *
 *   npm run bench:rest                 # 5 s per side (alternating half-second slices) after a warm-up
 *   BENCH_SECONDS=10 npm run bench:rest
 *
 * The load runs in a child process so the clients do not share the gateway's event loop. The gateway
 * runs in this process with the young generation `npm start` gives it (--max-semi-space-size=64 in
 * package.json: a request allocates a few kilobytes, and larger semi-spaces mean fewer scavenges).
 * Every request reads another row with the same query shape, as an app does, so after the first
 * requests the gateway serves them from the shape's statement template (rest/read-plans.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fork, spawn } from 'node:child_process';
import pg from 'pg';
import { HttpClient, benchTableSql, childPids, cpuNs } from './load.ts';

const CONCURRENCY = 10;
const ROWS = 10_000;
const TABLE = 'bench_items';

interface Side {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU time (µs) per request spent by the load generator, the gateway and PostgreSQL during this side's slices. */
  cpu: { client: number; gateway: number; postgres: number };
}

interface Job {
  apiUrl: string;
  /** A Node HTTP server that answers a constant body without any database work: the ceiling. */
  noopUrl: string;
  dbUrl: string;
  anonKey: string;
  rounds: number;
  slice: number;
  /** The gateway's process and the postmaster, whose CPU time is read from /proc around each slice. */
  gatewayPid: number;
  noopPid: number;
  postmasterPid: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

type Once = (id: number) => Promise<boolean>;

interface Record_ {
  latencies: number[];
  errors: number;
  seconds: number;
  cpu: { client: number; gateway: number; postgres: number };
}

/** Keeps `CONCURRENCY` requests in flight for `seconds`, recording latencies and CPU time when `record` is given. */
async function drive(
  seconds: number,
  once: Once,
  record?: Record_,
  job?: Job,
  serverPid = job?.gatewayPid ?? 0,
) {
  const pids = job ? [job.postmasterPid, ...childPids(job.postmasterPid)] : [];
  const sample = () =>
    job
      ? {
          client: cpuNs(process.pid),
          gateway: cpuNs(serverPid),
          postgres: pids.reduce((t, p) => t + cpuNs(p), 0),
        }
      : undefined;
  const before = sample();
  let stop = false;
  const loop = async () => {
    while (!stop) {
      const id = 1 + Math.floor(Math.random() * ROWS);
      const t0 = process.hrtime.bigint();
      const ok = await once(id).catch(() => false);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!record || stop) continue;
      if (ok) record.latencies.push(ms);
      else record.errors++;
    }
  };
  const start = process.hrtime.bigint();
  const loops = Array.from({ length: CONCURRENCY }, loop);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  if (record) record.seconds += Number(process.hrtime.bigint() - start) / 1e9;
  await Promise.all(loops);
  const after = sample();
  if (record && before && after) {
    for (const k of ['client', 'gateway', 'postgres'] as const)
      record.cpu[k] += (after[k] - before[k]) / 1000;
  }
}

/**
 * Both clients, alternating in short slices, so that load from other programs on the machine weighs on
 * both sides alike.
 */
async function runJob(job: Job): Promise<Side[]> {
  const pool = new pg.Pool({ connectionString: job.dbUrl, max: CONCURRENCY });
  const text = `select id, name, category, score from public.${TABLE} where id = $1`;
  const bare: Once = async (id) => (await pool.query(text, [id])).rows.length === 1;
  const headers = {
    apikey: job.anonKey,
    authorization: `Bearer ${job.anonKey}`,
    accept: 'application/json',
    'x-client-info': 'rest-bench',
  };
  const clients: HttpClient[] = [];
  const get = (baseUrl: string): Once => {
    const client = new HttpClient(new URL(baseUrl), headers);
    clients.push(client);
    const isNoop = baseUrl === job.noopUrl;
    return async (id) => {
      const { status, body } = await client.get(
        `/rest/v1/${TABLE}?select=id,name,category,score&id=eq.${id}`,
      );
      if (status !== 200) return false;
      const rows = JSON.parse(body) as { id: number }[];
      return rows.length === 1 && (rows[0].id === id || isNoop);
    };
  };
  const rest = get(job.apiUrl);
  const noop = get(job.noopUrl);
  // Warm-up: connections, prepared statements, JIT.
  await drive(1, bare);
  await drive(1, rest);
  await drive(0.5, noop);
  const fresh = (): Record_ => ({
    latencies: [],
    errors: 0,
    seconds: 0,
    cpu: { client: 0, gateway: 0, postgres: 0 },
  });
  const stats = { bare: fresh(), rest: fresh(), noop: fresh() };
  for (let i = 0; i < job.rounds; i++) {
    await drive(job.slice, bare, stats.bare, job);
    await drive(job.slice, rest, stats.rest, job);
    await drive(job.slice, noop, stats.noop, job, job.noopPid);
  }
  await pool.end();
  for (const c of clients) c.close();
  const side = (name: string, r: Record_): Side => {
    r.latencies.sort((a, b) => a - b);
    const n = Math.max(1, r.latencies.length + r.errors);
    const cpu = { client: r.cpu.client / n, gateway: r.cpu.gateway / n, postgres: r.cpu.postgres / n };
    return {
      name,
      requests: r.latencies.length,
      errors: r.errors,
      seconds: r.seconds,
      p50: percentile(r.latencies, 50),
      p99: percentile(r.latencies, 99),
      cpu,
    };
  };
  return [
    side('bare pg Pool', stats.bare),
    side('/rest/v1 gateway', stats.rest),
    side('no-op Node HTTP', stats.noop),
  ];
}

/**
 * A bare Node HTTP server answering the same body with no database work, in its own process: what any
 * Node gateway could reach on this machine at best.
 */
function startNoop(): Promise<{ url: string; pid: number; stop(): void }> {
  const code = `const http = require('http');
    const body = JSON.stringify([{ id: 1, name: 'item 1', category: 'scam', score: 1 }]);
    const s = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
    s.keepAliveTimeout = 65000;
    s.listen(0, '127.0.0.1', () => process.send(s.address().port));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (port) =>
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() }),
    );
    child.once('error', reject);
  });
}

/** Runs the load in a child process, so the clients do not share the gateway's event loop. */
function inChild(job: Job): Promise<Side[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, REST_BENCH_JOB: JSON.stringify(job) },
    });
    child.once('message', (m) => resolve(m as Side[]));
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`bench client exited with ${code}`)));
  });
}

async function main() {
  // Its own ports and data folder, apart from `npm start`, `npm test` and other offsets in use.
  process.env.STACK_PORT_OFFSET ??= '470';
  const { projectTestConfig } = await import('../../supabase/project/index.ts');
  const { startStack } = await import('@scamcheck/local-supabase');
  const config = projectTestConfig({ withApp: false, verbose: false });
  if (!config.databaseUrl) await fs.rm(config.dataDir, { recursive: true, force: true });
  console.log(`Starting a stack on port ${config.apiPort} ...`);
  const stack = await startStack(config, (line) => {
    if (/error|fail/i.test(line)) console.log(line);
  });
  const admin = new pg.Pool({ connectionString: stack.env.DB_URL, max: 1 });
  try {
    await admin.query(benchTableSql(TABLE, ROWS));
    const seconds = Number(process.env.BENCH_SECONDS ?? 5);
    const slice = 0.5;
    const load = os.loadavg()[0];
    const noopServer = await startNoop();
    const postmasterPid = Number(
      (
        await admin.query<{ pid: string }>(
          `select split_part(pg_read_file('postmaster.pid'), E'\\n', 1) as pid`,
        )
      ).rows[0].pid,
    );
    const [bare, rest, noop] = await inChild({
      apiUrl: stack.env.API_URL,
      noopUrl: noopServer.url,
      dbUrl: stack.env.DB_URL,
      anonKey: stack.env.ANON_KEY,
      rounds: Math.max(1, Math.round(seconds / slice)),
      slice,
      gatewayPid: process.pid,
      noopPid: noopServer.pid,
      postmasterPid,
    });
    const line = (s: Side) =>
      `${s.name.padEnd(18)} ${(s.requests / s.seconds).toFixed(0).padStart(7)} req/s   p50 ${s.p50.toFixed(2)} ms   p99 ${s.p99.toFixed(2)} ms   errors ${s.errors}`;
    console.log(
      `\nOne row by primary key, ${CONCURRENCY} concurrent clients, ${seconds} s each in alternating ${slice} s slices`,
    );
    console.log(
      `(${os.cpus().length} CPUs, load average ${load.toFixed(1)} before the run: other programs share the CPUs):`,
    );
    console.log(line(bare));
    console.log(line(rest));
    console.log(line(noop));
    console.log('\nCPU time per request (µs): load generator / gateway (or no-op server) / PostgreSQL');
    for (const s of [bare, rest, noop])
      console.log(
        `${s.name.padEnd(18)} ${s.cpu.client.toFixed(0).padStart(5)} / ${s.cpu.gateway.toFixed(0).padStart(5)} / ${s.cpu.postgres.toFixed(0).padStart(5)}`,
      );
    noopServer.stop();
    const ratio = rest.requests / rest.seconds / (bare.requests / bare.seconds);
    console.log(
      `ratio gateway/bare: ${ratio.toFixed(2)} (aim >= 0.50); gateway p99 ${rest.p99.toFixed(2)} ms (aim < 15 ms)`,
    );
    console.log(
      `ratio no-op Node HTTP/bare: ${(noop.requests / noop.seconds / (bare.requests / bare.seconds)).toFixed(2)} (the most any Node gateway could reach here)`,
    );
    await admin.query(`drop table if exists public.${TABLE}`);
  } finally {
    await admin.end();
    await stack.stop();
  }
}

if (!process.env.REST_BENCH_JOB) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e instanceof Error ? e.stack : e);
      process.exit(1);
    },
  );
} else {
  runJob(JSON.parse(process.env.REST_BENCH_JOB) as Job).then((side) =>
    process.send!(side, () => process.exit(0)),
  );
}
