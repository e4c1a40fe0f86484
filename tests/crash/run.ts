/**
 * `npm run check:crash [-- --rounds 20] [-- --fast]`: the crash test at full size (see crash.ts).
 * `--fast` runs Postgres as the test stacks do (fsync, synchronous commit, full-page writes off), to
 * see what the durable settings protect against.
 */
import { runCrashTest } from './crash.ts';

const arg = (name: string) => process.argv.indexOf(`--${name}`);
const rounds = arg('rounds') > 0 ? Number(process.argv[arg('rounds') + 1]) : 20;
const durable = arg('fast') < 0;
console.log(
  `Crash test: ${rounds} rounds of SIGKILL to Postgres (${durable ? 'durable, as npm start' : 'fast test settings'}) while reports with evidence are filed...`,
);
const r = await runCrashTest({ rounds, durable, log: (l) => console.log(`  ${l}`) });
console.log(`\nrounds ${r.rounds}, ${r.seconds.toFixed(0)} s`);
console.log(`requests ${r.attempted}: answered 2xx ${r.acknowledged}, refused or cut off ${r.refused}`);
console.log(`not 2xx by status: ${JSON.stringify(r.statuses)}`);
console.log(
  `lost after a 2xx: ${r.lost.length}; damaged (fields or evidence): ${r.damaged.length}; reports pointing at missing evidence: ${r.dangling}`,
);
for (const id of [...r.lost, ...r.damaged].slice(0, 20)) console.log(`  ${id}`);
const ok = r.lost.length === 0 && r.damaged.length === 0 && r.dangling === 0 && r.acknowledged > 0;
console.log(ok ? '\nNothing acknowledged was lost.' : '\nFAILED');
process.exit(ok ? 0 : 1);
