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
try {
  const r = await runLoad({ env, pool, seconds, searchRate, writeRate, log: (l) => console.log(`  ${l}`) });
  for (const l of describeLoad(r)) console.log(l);
  for (const id of [...r.lost, ...r.damaged].slice(0, 20)) console.log(`  ${id}`);
  ok = r.fiveXx === 0 && r.lost.length === 0 && r.damaged.length === 0 && r.acknowledged > 0;
  console.log(ok ? 'No 5xx, nothing acknowledged was lost.' : 'FAILED');
} finally {
  await pool.end();
  await stack.stop();
}
process.exit(ok ? 0 : 1);
