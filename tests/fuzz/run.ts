/**
 * `npm run check:fuzz [-- --runs 10000] [-- --http-runs 1000] [-- --seed N]`: the fuzz checks of issue 12
 * at full size on a stack of their own (ports STACK_PORT_OFFSET + 90). See canonical.ts and http.ts.
 */
import pg from 'pg';
import { startOwnStack } from '../own-stack.ts';
import { fuzzCanonical } from './canonical.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('runs', 10_000);
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
} catch (e) {
  failed = true;
  console.log(`FAILED: ${(e as Error).message}\n${String((e as Error).cause ?? '')}`);
} finally {
  await pool.end();
  await stack.stop();
}
process.exit(failed ? 1 : 0);
