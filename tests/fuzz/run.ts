/**
 * `npm run check:fuzz [-- --runs 10000] [-- --http-runs 200] [-- --seed N]`: the fuzz checks of issue 12 at
 * full size on a stack of their own (ports STACK_PORT_OFFSET + 90): the canonical identifier rules
 * (canonical.ts, `--runs` per property) and every /api/v1 call and edge function (http.ts, `--http-runs`
 * requests each). A failure prints fast-check's seed and counterexample; `--seed` replays it.
 */
import pg from 'pg';
import { startOwnStack } from '../own-stack.ts';
import { fuzzCanonical } from './canonical.ts';
import { fuzzHttp } from './http.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('runs', 10_000);
const httpRuns = arg('http-runs', 200);
const seed = arg('seed', Date.now() % 2 ** 31);
console.log(`Fuzz: seed ${seed}; starting a stack of its own...`);
const { stack, env } = await startOwnStack(90);
const pool = new pg.Pool({ connectionString: env.DB_URL, max: 4 });
let failed = false;
try {
  const c = await fuzzCanonical({ pool, runs, seed });
  console.log(
    `canonical identifiers: ${c.runs} runs per property (never throws, idempotent, TypeScript = SQL for 5 kinds, detection and auto), ${c.sqlQueries} SQL queries, ${c.seconds.toFixed(1)} s; ${c.unicodeVersionGap.length} code points left out (Unicode ${process.versions.unicode} in Node, older in Postgres: they case-map differently)`,
  );
  const h = await fuzzHttp({
    apiUrl: env.API_URL,
    pool,
    runs: httpRuns,
    seed,
    log: (l) => console.log(`  ${l}`),
  });
  console.log(
    `HTTP: ${h.requests} requests in ${h.seconds.toFixed(0)} s, answers by status ${JSON.stringify(h.byStatus)}; no 5xx, no hang, every refusal with a message, no table changed`,
  );
} catch (e) {
  failed = true;
  console.log(`FAILED: ${(e as Error).message}\n${String((e as Error).cause ?? '')}`);
} finally {
  await pool.end();
  await stack.stop();
}
process.exit(failed ? 1 : 0);
