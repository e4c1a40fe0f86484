/**
 * `npm run check:load [-- --seconds 60] [-- --searches 200] [-- --writes 50]`: the load check of issue 12
 * (see load.ts) on a stack of its own (ports STACK_PORT_OFFSET + 70), as fast as the test stacks run
 * (Postgres without fsync; `npm start` is durable and slower to write). Exits 1 on any 5xx, any lost or
 * damaged write, or no acknowledged write at all; prints the achieved rates whatever they are, since on a
 * shared two-core machine the generator and the stack compete for the same CPU.
 *
 * The generator runs in a child process, so that its work neither waits on nor delays the stack's event
 * loop, and so that the CPU time each process spent during the run can be told apart: the stack's Node
 * process (gateway, function proxy, REST, Auth, Storage), the generator, the functions' Deno processes
 * and Postgres, per answered request.
 *
 * Profiles: LOAD_CPU_PROF=<file> writes the V8 CPU profile of the stack's Node process over the run (from
 * the first request due to the last answer; open it in Chrome's DevTools); STACK_DENO_CPU_PROF_DIR=<dir>
 * writes each function's whole life when the stack stops.
 */
import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { childPids, commandName, cpuNs } from '../bench/load.ts';
import { startOwnStack } from '../own-stack.ts';
import { describeLoad, runLoad, type LoadResult } from './load.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

interface Job {
  env: Record<string, string>;
  seconds: number;
  searchRate: number;
  writeRate: number;
}

/** What the child tells the parent: the run starts or ended (each waits for 'ok'), a log line, the result. */
type FromChild = { start: true } | { end: true } | { log: string } | { result: LoadResult };

/** The child: runs the load with a pool of its own and reports to the parent. */
async function generator(job: Job) {
  const pool = new pg.Pool({ connectionString: job.env.DB_URL, max: 2 });
  const ask = (m: FromChild) =>
    new Promise<void>((resolve) => {
      process.once('message', () => resolve());
      process.send!(m);
    });
  const result = await runLoad({
    ...job,
    pool,
    log: (log) => process.send!({ log }),
    onStart: () => ask({ start: true }),
    onEnd: () => ask({ end: true }),
  });
  await pool.end();
  process.send!({ result }, () => process.exit(0));
}

/** CPU nanoseconds so far of each process on the path. */
function cpuNow(postmaster: number, generatorPid: number) {
  return {
    stack: cpuNs(process.pid),
    generator: cpuNs(generatorPid),
    deno: new Map(
      childPids(process.pid)
        .filter((p) => commandName(p) === 'deno')
        .map((p) => [p, cpuNs(p)]),
    ),
    // Per process, so a backend that ends during the run takes away nothing it spent before.
    postgres: new Map([postmaster, ...childPids(postmaster)].map((p) => [p, cpuNs(p)])),
  };
}
type CpuSnapshot = ReturnType<typeof cpuNow>;

const spent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((t, [p, ns]) => t + ns - (before.get(p) ?? 0), 0);

/** The stack process's CPU profile over the run, when LOAD_CPU_PROF names a file. */
const profile = (() => {
  const file = process.env.LOAD_CPU_PROF;
  const session = new Session();
  return {
    async start() {
      if (!file) return;
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    },
    async stop() {
      if (!file) return;
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
})();

/** Runs the generator in a child; resolves with its result and the CPU each process spent meanwhile. */
function inChild(job: Job, postmaster: number) {
  return new Promise<{ result: LoadResult; cpu: Record<string, number> }>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx', '--max-semi-space-size=64'],
      env: { ...process.env, LOAD_JOB: JSON.stringify(job) },
    });
    let before: CpuSnapshot | undefined;
    let cpu: Record<string, number> = {};
    child.on('message', (m: FromChild) => {
      if ('log' in m) console.log(`  ${m.log}`);
      else if ('start' in m) {
        void profile.start().then(() => {
          before = cpuNow(postmaster, child.pid!);
          child.send('ok');
        });
      } else if ('end' in m) {
        const after = cpuNow(postmaster, child.pid!);
        const b = before!;
        cpu = {
          "stack's Node process": after.stack - b.stack,
          generator: after.generator - b.generator,
          'functions (Deno)': spent(b.deno, after.deno),
          Postgres: spent(b.postgres, after.postgres),
        };
        void profile.stop().finally(() => child.send('ok'));
      } else resolve({ result: m.result, cpu });
    });
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`the load generator exited with ${code}`)));
  });
}

if (process.env.LOAD_JOB) {
  await generator(JSON.parse(process.env.LOAD_JOB) as Job);
} else {
  await main();
}

async function main() {
  const seconds = arg('seconds', 60);
  const searchRate = arg('searches', 200);
  const writeRate = arg('writes', 50);
  console.log('Load: starting a stack of its own...');
  const { stack, env } = await startOwnStack(70, { functionLog: true });
  const pool = new pg.Pool({ connectionString: env.DB_URL, max: 2 });
  let ok = false;
  // Where Postgres spends the run: deadlocks and rolled-back transactions (a deadlock is a 500 from REST and
  // a 502 from the API), and what its busy sessions wait on, sampled twice a second (Lock waits on tuples
  // or transactions mean rows many requests update, such as counters).
  const dbCounters = async () =>
    (
      await pool.query<{ deadlocks: string; rollbacks: string }>(
        `select deadlocks, xact_rollback as rollbacks from pg_stat_database where datname = current_database()`,
      )
    ).rows[0];
  const waits = new Map<string, number>();
  const lockWaits = new Map<string, number>();
  let samples = 0;
  const sampler = setInterval(() => {
    void pool
      .query<{ wait: string; n: number }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, count(*)::int as n
         from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'
        group by 1`,
      )
      .then(({ rows }) => {
        samples++;
        for (const { wait, n } of rows) waits.set(wait, (waits.get(wait) ?? 0) + n);
      })
      .catch(() => undefined);
    // What the sessions waiting for a lock run, and which statement holds what they wait for.
    void pool
      .query<{ waiting: string; blocker: string }>(
        `select left(regexp_replace(w.query, '[[:space:]]+', ' ', 'g'), 90) as waiting,
              left(regexp_replace(coalesce(b.query, '?'), '[[:space:]]+', ' ', 'g'), 90) as blocker
         from pg_stat_activity w
         left join lateral unnest(pg_blocking_pids(w.pid)) as bp(pid) on true
         left join pg_stat_activity b on b.pid = bp.pid
        where w.wait_event_type = 'Lock'`,
      )
      .then(({ rows }) => {
        for (const { waiting, blocker } of rows) {
          const k = `${waiting}  <-  ${blocker}`;
          lockWaits.set(k, (lockWaits.get(k) ?? 0) + 1);
        }
      })
      .catch(() => undefined);
  }, 500);
  try {
    const before = await dbCounters();
    const postmaster = Number(
      (
        await pool.query<{ pid: string }>(
          `select split_part(pg_read_file('postmaster.pid'), E'\\n', 1) as pid`,
        )
      ).rows[0].pid,
    );
    const { result: r, cpu } = await inChild({ env, seconds, searchRate, writeRate }, postmaster);
    clearInterval(sampler);
    const after = await dbCounters();
    for (const l of describeLoad(r)) console.log(l);
    const answered = r.rest.answered + r.api.answered + r.writes.answered;
    const total = Object.values(cpu).reduce((a, b) => a + b, 0);
    console.log(
      `CPU per answered request (ms): ${Object.entries(cpu)
        .map(([name, ns]) => `${name} ${(ns / 1e6 / answered).toFixed(2)}`)
        .join(
          ', ',
        )}; all ${(total / 1e6 / answered).toFixed(2)} (${(total / 1e9 / r.seconds).toFixed(2)} of ${r.seconds.toFixed(0)} s's cores per second)`,
    );
    console.log(
      `Postgres: ${Number(after.deadlocks) - Number(before.deadlocks)} deadlocks, ` +
        `${Number(after.rollbacks) - Number(before.rollbacks)} rolled-back transactions; ` +
        `active sessions by wait (mean over ${samples} samples): ` +
        [...waits]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([w, n]) => `${w} ${(n / Math.max(1, samples)).toFixed(1)}`)
          .join(', '),
    );
    for (const [k, n] of [...lockWaits].sort((a, b) => b[1] - a[1]).slice(0, 5))
      console.log(`  waiting for a lock (${n} samples): ${k}`);
    for (const id of [...r.lost, ...r.damaged].slice(0, 20)) console.log(`  ${id}`);
    ok = r.fiveXx === 0 && r.lost.length === 0 && r.damaged.length === 0 && r.acknowledged > 0;
    console.log(ok ? 'No 5xx, nothing acknowledged was lost.' : 'FAILED');
  } finally {
    clearInterval(sampler);
    await pool.end();
    await stack.stop();
  }
  process.exit(ok ? 0 : 1);
}
