/**
 * `npm run check:load [-- --seconds 60] [-- --searches 200] [-- --writes 50]`: the load check of issue 12
 * (see load.ts) on a stack of its own (ports STACK_PORT_OFFSET + 70), as fast as the test stacks run
 * (Postgres without fsync; `npm start` is durable and slower to write). Exits 1 on any 5xx, any lost or
 * damaged write, or no acknowledged write at all; prints the achieved rates whatever they are, since on a
 * shared two-core machine the generator and the stack compete for the same CPU.
 */
import pg from 'pg';
import { startOwnStack } from '../own-stack.ts';
import { describeLoad, runLoad } from './load.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
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
  const r = await runLoad({ env, pool, seconds, searchRate, writeRate, log: (l) => console.log(`  ${l}`) });
  clearInterval(sampler);
  const after = await dbCounters();
  for (const l of describeLoad(r)) console.log(l);
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
