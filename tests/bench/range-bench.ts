/**
 * Benchmark of the private range lookup (issue 14, section 4): GET /functions/v1/api/v1/range/{prefix}
 * end to end on the local stack (gateway, the api function in Deno, its one direct database call
 * public.range_lookup_limited: the caller's limit and the range), 50 clients at once, each asking for
 * random prefixes.
 *
 *   npm run bench:range
 *   BENCH_REPORTS=200000 BENCH_CLIENTS=50 BENCH_SECONDS=20 BENCH_PAUSE_MS=100 npm run bench:range
 *   BENCH_PAUSE_MS=0,10,20,40 npm run bench:range   # one run per pause on the same stack
 *   BENCH_CALLERS=keys npm run bench:range           # only some kinds of caller (default all three)
 *
 * The callers (BENCH_CALLERS): "shared", every client with one API key, so one limiter row that every
 * request updates; "keys", each client its own key; "anon", no key, each client from its own address
 * behind a trusted proxy (limited per hashed address). Each kind runs every pause.
 *
 * Runs its own stack on the test ports shifted by STACK_PORT_OFFSET (+ 70) with a data folder of its
 * own. The limits (api.key, api.anon) are raised for the run, as an operator would for a partner: the
 * bench measures the lookup, not the 429s. Target: p99 under 20 ms. Prints the machine's load average
 * before and during the run, since the figure means little on a busy machine. Exits 1 when missed.
 *
 * The clients run in a child process (the lean keep-alive client of load.ts), so they do not share the
 * gateway's event loop, and the CPU time each process spent during the run is printed per request:
 * the clients, the stack's Node process (gateway, function runner's proxy, and REST and Auth if the
 * path goes through them), the api function's Deno process, and Postgres (postmaster and backends).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { randomInt } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { HttpClient, childPids, commandName, cpuNs, pct } from './load.ts';
import { startStack, testDataDir, testPorts, withRole } from '@scamcheck/local-supabase';
import { projectTestConfig } from '../../supabase/project/index.ts';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
/** Pause of each client between its requests (0: each sends its next request as soon as one ends). */
const PAUSES = (process.env.BENCH_PAUSE_MS ?? '0').split(',').map((p) => Number(p.trim()));
const TARGET_P99_MS = 20;
/**
 * Who the clients are: "shared", all with one API key (one limiter row that every request updates);
 * "keys", each with a key of its own; "anon", no key, each from its own address (limited per address).
 */
const CALLER_KINDS = ['shared', 'keys', 'anon'] as const;
type Callers = (typeof CALLER_KINDS)[number];
const CALLERS = (process.env.BENCH_CALLERS ?? CALLER_KINDS.join(','))
  .split(',')
  .map((c) => c.trim())
  .filter(Boolean) as Callers[];
for (const c of CALLERS)
  if (!CALLER_KINDS.includes(c))
    throw new Error(`BENCH_CALLERS: ${c} is not one of ${CALLER_KINDS.join(', ')}`);
/** The trusted proxy in front of the anonymous clients (a documentation address). */
const TRUSTED_PROXY = '198.51.100.7';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function main() {
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + 70;
  process.env.STACK_PORT_OFFSET = String(offset);
  const config = projectTestConfig({
    ...testPorts(offset),
    dataDir: testDataDir(offset),
    withApp: false,
    verbose: false,
  });
  await fs.rm(config.dataDir, { recursive: true, force: true });
  const stack = await startStack(config, (line) => {
    if (/error|fail/i.test(line)) console.log(line);
  });
  const pool = new pg.Pool({ connectionString: stack.env.DB_URL, max: 2 });
  let failed = false;
  try {
    const t0 = Date.now();
    // Reports on REPORTS/2 distinct numbers, bulk-loaded with triggers off (canonical form written
    // directly), then the rollups the lookup reads rebuilt from them.
    const c = await pool.connect();
    try {
      await c.query('set session_replication_role = replica');
      await c.query(
        `insert into public.reports (incident_date, incident_type, reported_account_type, reported_account, reported_account_canonical,
                                     status, created_at, updated_at)
         select current_date - 1, 'scam', 'mobile', '09' || t.num, '+639' || t.num,
                (array['verified', 'pending'])[1 + g % 2]::public.report_status, t.at, t.at
         from generate_series(1, $1::bigint) g
         cross join lateral (select lpad(((g * 2654435761) % ($1::bigint / 2))::text, 9, '0') as num,
                                    now() - (g % 500) * interval '1 day' as at) t`,
        [REPORTS],
      );
      await c.query('set session_replication_role = origin');
      await c.query('select private.rebuild_rollups()');
    } finally {
      c.release();
    }
    await pool.query('vacuum analyze public.reports, public.identifier_report_counts');
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from public.identifier_report_counts where report_count > 0',
    );
    console.log(
      `${REPORTS.toLocaleString('en')} reports on ${rows[0].n.toLocaleString('en')} identifiers in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    // One user and key per client (fifty callers, each its own limiter row), the first key also shared
    // by every client in the "shared" run; anonymous clients each come from their own public address
    // behind a trusted proxy (the proxy's address is the last X-Forwarded-For entry, the client's before
    // it). Both limits raised for the run, as an operator would for a partner: the bench measures the
    // lookup, not the 429s.
    const { rows: users } = await pool.query<{ id: string }>(
      `insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'bench' || i || '@example.com', now(),
              '{"provider":"email","providers":["email"]}', '{"name":"Bench"}', now(), now()
       from generate_series(1, $1::int) i returning id`,
      [CLIENTS],
    );
    const keys: string[] = [];
    for (const user of users)
      keys.push(
        await withRole(
          pool,
          { role: 'authenticated', sub: user.id },
          async (c) =>
            (await c.query<{ k: { key: string } }>(`select public.create_api_key('bench') as k`)).rows[0].k
              .key,
        ),
      );
    await pool.query(
      `update private.rate_limits set max_calls = 10000000 where name in ('api.key', 'api.anon')`,
    );
    await pool.query(
      `update private.rate_limit_settings set value = '${TRUSTED_PROXY}/32' where name = 'trusted_proxies'`,
    );
    const callerHeaders: Record<Callers, (i: number) => Record<string, string>> = {
      shared: () => ({ 'x-api-key': keys[0] }),
      keys: (i) => ({ 'x-api-key': keys[i] }),
      anon: (i) => ({ 'x-forwarded-for': `203.0.${113 + (i >> 8)}.${i & 255}, ${TRUSTED_PROXY}` }),
    };

    const postmaster = Number(
      (
        await pool.query<{ pid: string }>(
          `select split_part(pg_read_file('postmaster.pid'), E'\\n', 1) as pid`,
        )
      ).rows[0].pid,
    );
    // The stack's scheduler calls notify-dispatch every minute; its first call boots that function's
    // Deno worker (about a second of CPU), which would land in whichever run is measured then. Boot it
    // now, as a stack that has been up for a minute has.
    const dispatch = await fetch(`${stack.env.FUNCTIONS_URL}/notify-dispatch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.SERVICE_ROLE_KEY}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (!dispatch.ok) throw new Error(`notify-dispatch answered ${dispatch.status}`);
    for (const callers of CALLERS) {
      for (const pauseMs of PAUSES) {
        if (
          !(await measure(postmaster, {
            apiUrl: stack.env.API_URL,
            callers,
            headers: Array.from({ length: CLIENTS }, (_, i) => callerHeaders[callers](i)),
            clients: CLIENTS,
            seconds: SECONDS,
            pauseMs,
          }))
        )
          failed = true;
      }
    }
    // range_lookup alone, once its plan is cached (the first call in a session compiles it).
    const exec: number[] = [];
    const one = await pool.connect();
    for (let i = 0; i < 21; i++) {
      const { rows: sql } = await one.query(`explain (analyze, format json) select public.range_lookup($1)`, [
        randomInt(0, 0x100000).toString(16).padStart(5, '0'),
      ]);
      exec.push(sql[0]['QUERY PLAN'][0]['Execution Time'] as number);
    }
    one.release();
    console.log(
      `\nrange_lookup execution (median of 20 random prefixes): ${pct(
        exec.slice(1).sort((a, b) => a - b),
        0.5,
      ).toFixed(3)} ms`,
    );
  } finally {
    await pool.end();
    await stack.stop();
  }
  process.exit(failed ? 1 : 0);
}

/** One run of the clients with the given pause; prints what it measured. False when p99 missed the target. */
async function measure(postmaster: number, job: Job): Promise<boolean> {
  const loadBefore = load();
  let loadDuring = '';
  const sampler = setTimeout(() => (loadDuring = load()), (job.seconds * 1000) / 2 + 3000);
  const {
    times: unsorted,
    poolTimes,
    dbTimes,
    handlerTimes,
    batchSizes,
    cpu,
  } = await inChild(job, postmaster);
  clearTimeout(sampler);
  const times = [...unsorted].sort((a, b) => a - b);
  const p99 = pct(times, 0.99);
  console.log(
    `\nGET /api/v1/range/{prefix}, ${job.clients} clients for ${job.seconds} s (pause ${job.pauseMs} ms between a client's requests), ${CALLER_TEXT[job.callers]}:`,
  );
  console.log(
    `  closed loop: each client sends its next request when its last one is answered${job.pauseMs ? ` and ${job.pauseMs} ms have passed` : ''}, so the rate is what the stack sustains`,
  );
  console.log(`  ${times.length} requests, ${(times.length / job.seconds).toFixed(0)} per second`);
  console.log(
    `  p50 ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms`,
  );
  const p50of = (xs: number[]) =>
    pct(
      [...xs].sort((a, b) => a - b),
      0.5,
    );
  console.log(
    `  where the time went (p50): wait for a pooled connection ${p50of(poolTimes).toFixed(1)} ms, database call ${p50of(dbTimes).toFixed(1)} ms, function handler ${p50of(handlerTimes).toFixed(1)} ms (Server-Timing); gateway, function runner and network the rest`,
  );
  // The slowest 1 %: where their time went, from the same requests' Server-Timing.
  const tail = unsorted.flatMap((t, i) => (t >= p99 ? [i] : []));
  const tailP50 = (f: (i: number) => number) => p50of(tail.map(f));
  console.log(
    `  the slowest 1 % (${tail.length}, p50 of each part): wait for a pooled connection ${tailP50((i) => poolTimes[i]).toFixed(1)} ms, database call ${tailP50((i) => dbTimes[i]).toFixed(1)} ms, rest of the handler ${tailP50((i) => handlerTimes[i] - poolTimes[i] - dbTimes[i]).toFixed(1)} ms, outside the handler (gateway, function runner, Deno's HTTP server, clients) ${tailP50((i) => unsorted[i] - handlerTimes[i]).toFixed(1)} ms`,
  );
  // Each request saw its call's size, so a call of n requests was seen n times: calls = sum of 1/n.
  const calls = batchSizes.reduce((t, n) => t + 1 / n, 0);
  console.log(
    `  database calls: ${Math.round(calls)} for ${batchSizes.length} requests, ${(batchSizes.length / calls).toFixed(1)} requests per call on average`,
  );
  const perRequest = (ns: number) => (ns / 1e6 / times.length).toFixed(3);
  console.log(
    `  CPU per request (ms): clients ${perRequest(cpu.client)}, stack's Node process (gateway, function proxy, REST) ${perRequest(cpu.stack)}, api function (Deno) ${perRequest(cpu.deno)}, Postgres ${perRequest(cpu.postgres)}; all ${perRequest(cpu.client + cpu.stack + cpu.deno + cpu.postgres)}`,
  );
  console.log(
    `  load average (1/5/15 min): before ${loadBefore}, during ${loadDuring}; ${os.cpus().length} CPUs`,
  );
  if (p99 >= TARGET_P99_MS) {
    console.log(`  FAIL: p99 is not under ${TARGET_P99_MS} ms`);
    return false;
  }
  return true;
}

interface Job {
  apiUrl: string;
  callers: Callers;
  /** Each client's own headers (its key, or its forwarded address). */
  headers: Record<string, string>[];
  clients: number;
  seconds: number;
  pauseMs: number;
}

const CALLER_TEXT: Record<Callers, string> = {
  shared: 'all with one API key',
  keys: 'each with its own API key',
  anon: 'without a key, each from its own address',
};

interface Run {
  times: number[];
  /**
   * The function's Server-Timing per request: the wait for a pooled Postgres connection, the database
   * call on it, and the whole handler.
   */
  poolTimes: number[];
  dbTimes: number[];
  handlerTimes: number[];
  /** How many requests the database call that answered each request carried. */
  batchSizes: number[];
  /** CPU nanoseconds each process spent during the measured run. */
  cpu: { client: number; stack: number; deno: number; postgres: number };
}

/**
 * Runs the clients in a child process and reads the CPU time of every process of the path around the
 * measured run (after the warm-up): this process (the stack), the child, the function runner's Deno
 * processes and Postgres.
 */
function inChild(job: Job, postmaster: number): Promise<Run> {
  const denoPids = () => childPids(process.pid).filter((p) => commandName(p) === 'deno');
  // Per process, so a backend that ends during the run takes away nothing it spent before.
  const postgresNs = () => new Map([postmaster, ...childPids(postmaster)].map((p) => [p, cpuNs(p)]));
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, RANGE_BENCH_JOB: JSON.stringify(job) },
    });
    // The child counts its own CPU time (it ends right after sending it).
    const now = () => ({
      stack: cpuNs(process.pid),
      deno: denoPids().reduce((t, p) => t + cpuNs(p), 0),
      postgres: postgresNs(),
    });
    let before = now();
    child.on('message', (m: 'warm' | (Omit<Run, 'cpu'> & { clientNs: number })) => {
      if (m === 'warm') {
        before = now();
        child.send('go');
        return;
      }
      const after = now();
      resolve({
        times: m.times,
        poolTimes: m.poolTimes,
        dbTimes: m.dbTimes,
        handlerTimes: m.handlerTimes,
        batchSizes: m.batchSizes,
        cpu: {
          client: m.clientNs,
          stack: after.stack - before.stack,
          deno: after.deno - before.deno,
          postgres: [...after.postgres].reduce((t, [p, ns]) => t + ns - (before.postgres.get(p) ?? 0), 0),
        },
      });
    });
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`bench client exited with ${code}`)));
  });
}

/** The child: warms up, says so, waits for 'go', runs the clients and sends back what it measured. */
async function runClients(job: Job) {
  // One keep-alive connection per client, with that client's own headers.
  const https = job.headers.map((h) => new HttpClient(new URL(job.apiUrl), h));
  const times: number[] = [];
  const poolTimes: number[] = [];
  const dbTimes: number[] = [];
  const handlerTimes: number[] = [];
  const batchSizes: number[] = [];
  const ask = async (client: number) => {
    const prefix = randomInt(0, 0x100000).toString(16).padStart(5, '0');
    const t = process.hrtime.bigint();
    const res = await https[client].get(`/functions/v1/api/v1/range/${prefix}`);
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (res.status !== 200) throw new Error(`range answered ${res.status}: ${res.body}`);
    const timing = /\r\nserver-timing:([^\r]*)/i.exec(res.head)?.[1] ?? '';
    const dur = (name: string) => Number(new RegExp(`${name};dur=([0-9.]+)`).exec(timing)?.[1] ?? NaN);
    // All three together, so the same index is the same request.
    times.push(ms);
    poolTimes.push(dur('pool'));
    dbTimes.push(dur('db'));
    handlerTimes.push(dur('handler'));
    batchSizes.push(Number(/batch;desc="?(\d+)/.exec(timing)?.[1] ?? NaN));
  };
  // Warm-up: every client a few requests, so the function and the pools are up.
  await Promise.all(
    https.map(async (_, client) => {
      for (let i = 0; i < 5; i++) await ask(client);
    }),
  );
  times.length = 0;
  poolTimes.length = 0;
  dbTimes.length = 0;
  handlerTimes.length = 0;
  batchSizes.length = 0;
  process.send!('warm');
  await new Promise((resolve) => process.once('message', resolve));
  const cpuBefore = process.cpuUsage();
  const end = Date.now() + job.seconds * 1000;
  await Promise.all(
    https.map(async (_, client) => {
      while (Date.now() < end) {
        await ask(client);
        if (job.pauseMs) await new Promise((r) => setTimeout(r, job.pauseMs));
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  for (const http of https) http.close();
  const clientNs = (cpu.user + cpu.system) * 1000;
  process.send!({ times, poolTimes, dbTimes, handlerTimes, batchSizes, clientNs }, () => process.exit(0));
}

if (process.env.RANGE_BENCH_JOB) {
  runClients(JSON.parse(process.env.RANGE_BENCH_JOB) as Job).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
