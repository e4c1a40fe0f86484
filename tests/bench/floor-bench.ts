/**
 * The floor under the range lookup's tail (issue 14, section 4): what p99 the machine and the local
 * stack give 50 clients before the lookup adds anything. Same clients, pauses and request counting as
 * `npm run bench:range`, against, in turn:
 *
 *   node     a trivial Node HTTP server (a 4 KB answer, the size of a range answer), no stack;
 *   gateway  the stack's gateway answering itself (GET /auth/v1/health);
 *   deno     the gateway, the function runner's proxy and a trivial Deno function (GET /functions/v1/health);
 *   database the range lookup's database call alone (public.range_lookup_limited_many, two requests per
 *            call, as the function sends it at these rates), paced from a pg pool of four connections.
 *
 *   npm run bench:floor
 *   BENCH_SECONDS=20 BENCH_PAUSE_MS=20,100 npm run bench:floor
 *
 * Runs its own stack on the test ports shifted by STACK_PORT_OFFSET (+ 75).
 */
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { HttpClient, pct } from './load.ts';
import { startOwnStack } from '../own-stack.ts';

const CLIENTS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PAUSES = (process.env.BENCH_PAUSE_MS ?? '20,100').split(',').map((p) => Number(p.trim()));

interface Job {
  base: string;
  path: string;
  headers: Record<string, string>;
  pauseMs: number;
}

function report(label: string, pauseMs: number, times: number[], seconds: number, unit = 'requests') {
  const sorted = [...times].sort((a, b) => a - b);
  const rate = Math.round(times.length / seconds).toLocaleString('en');
  const p = (q: number) => pct(sorted, q).toFixed(2);
  console.log(
    `${label.padEnd(9)} pause ${String(pauseMs).padStart(3)} ms: ${rate} ${unit}/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms (load ${os.loadavg()[0].toFixed(2)})`,
  );
}

/** 50 HTTP clients in a child process (as bench:range runs them); resolves with each request's time. */
function httpClients(job: Job): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, FLOOR_BENCH_JOB: JSON.stringify(job) },
    });
    child.once('message', (times: number[]) => resolve(times));
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`bench client exited with ${code}`)));
  });
}

async function runClients(job: Job) {
  const clients = Array.from({ length: CLIENTS }, () => new HttpClient(new URL(job.base), job.headers));
  const times: number[] = [];
  const loop = async (c: HttpClient, until: number, record: boolean) => {
    while (Date.now() < until) {
      const t = performance.now();
      const res = await c.get(job.path);
      if (res.status !== 200) throw new Error(`${job.path} answered ${res.status}`);
      if (record) times.push(performance.now() - t);
      if (job.pauseMs) await new Promise((r) => setTimeout(r, job.pauseMs));
    }
  };
  // Warm-up (connections open, JIT warm), then the measured run.
  await Promise.all(clients.map((c) => loop(c, Date.now() + 2000, false)));
  await Promise.all(clients.map((c) => loop(c, Date.now() + SECONDS * 1000, true)));
  for (const c of clients) c.close();
  process.send!(times, () => process.exit(0));
}

/** The range lookup's database call alone, two requests per call, at the rate 50 clients would send. */
async function databaseOnly(dbUrl: string, pauseMs: number): Promise<number[]> {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4 });
  const hex = () =>
    Math.floor(Math.random() * 0x100000)
      .toString(16)
      .padStart(5, '0');
  const addresses = Array.from({ length: CLIENTS }, (_, i) => `2a02:${(i + 1).toString(16)}::1`);
  const call = () =>
    pool.query('select public.range_lookup_limited_many($1::jsonb)', [
      JSON.stringify([0, 1].map(() => [hex(), null, addresses[Math.floor(Math.random() * CLIENTS)]])),
    ]);
  // 50 clients pausing pauseMs ask about 50 / pauseMs requests per ms; two per call.
  const gapMs = Math.max(1, Math.round((2 * pauseMs) / CLIENTS));
  const times: number[] = [];
  const pending: Promise<unknown>[] = [];
  for (const [until, record] of [
    [Date.now() + 2000, false],
    [Date.now() + 2000 + SECONDS * 1000, true],
  ] as const) {
    while (Date.now() < until) {
      const t = performance.now();
      pending.push(call().then(() => record && times.push(performance.now() - t)));
      await new Promise((r) => setTimeout(r, gapMs));
    }
  }
  await Promise.all(pending);
  await pool.end();
  return times;
}

async function main() {
  const { stack } = await startOwnStack(75);
  const body = 'x'.repeat(4200);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const node = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const admin = new pg.Pool({ connectionString: stack.env.DB_URL, max: 1 });
  try {
    await admin.query(
      `update private.rate_limits set max_calls = 10000000 where name in ('api.key', 'api.anon')`,
    );
    console.log(`50 clients, ${SECONDS} s per run, ${os.cpus().length} CPUs`);
    const anon = stack.env.ANON_KEY;
    for (const pauseMs of PAUSES) {
      report('node', pauseMs, await httpClients({ base: node, path: '/', headers: {}, pauseMs }), SECONDS);
      report(
        'gateway',
        pauseMs,
        await httpClients({
          base: stack.env.API_URL,
          path: '/auth/v1/health',
          headers: { apikey: anon },
          pauseMs,
        }),
        SECONDS,
      );
      report(
        'deno',
        pauseMs,
        await httpClients({
          base: stack.env.API_URL,
          path: '/functions/v1/health',
          headers: { authorization: `Bearer ${anon}` },
          pauseMs,
        }),
        SECONDS,
      );
      report(
        'database',
        pauseMs,
        await databaseOnly(stack.env.DB_URL, pauseMs),
        SECONDS,
        'calls (2 requests each)',
      );
    }
  } finally {
    server.close();
    await admin.end();
    await stack.stop();
  }
}

if (process.env.FLOOR_BENCH_JOB) {
  runClients(JSON.parse(process.env.FLOOR_BENCH_JOB) as Job).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
