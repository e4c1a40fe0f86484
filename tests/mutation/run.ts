/**
 * `npm run check:mutation [module ...]`: StrykerJS over the modules where a wrong number hurts most,
 * one module at a time, incrementally (tests/mutation/incremental/<module>.json, committed, so a run
 * only re-tests mutants in code or tests that changed since). Prints the mutation score per module
 * (killed and timed-out mutants of all that could be tested; mutants that do not compile are left
 * out, as Stryker does) and exits 1 when a module is under the aim.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';
import { MODULES, type MutationModule } from './modules.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AIM = 80;

interface Tally {
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  compileError: number;
  other: number;
}

async function runModule(name: string, { tsconfig, files }: MutationModule): Promise<Tally> {
  mkdirSync(path.join(ROOT, 'tests/mutation/incremental'), { recursive: true });
  // tests/mutation/vitest.config.ts reads it (in Stryker's test-runner processes too) to run only
  // this module's test files.
  process.env.MUTATION_MODULE = name;
  const stryker = new Stryker({
    packageManager: 'npm',
    testRunner: 'vitest',
    vitest: { configFile: 'tests/mutation/vitest.config.ts', related: false },
    // STRYKER_CHECKER=off skips the TypeScript checker (mutants that would not compile then run and are
    // mostly killed by the tests): a quicker, slightly optimistic run on a busy machine.
    checkers: process.env.STRYKER_CHECKER === 'off' ? [] : ['typescript'],
    tsconfigFile: tsconfig,
    plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker'],
    mutate: files,
    coverageAnalysis: 'perTest',
    // Static mutants (values computed once at import, such as the zod schemas) would each need every
    // test re-run in a fresh module graph: hours on two cores. They are left out and counted as ignored.
    ignoreStatic: true,
    incremental: true,
    incrementalFile: `tests/mutation/incremental/${name}.json`,
    concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
    reporters: ['clear-text', 'progress'],
    clearTextReporter: {
      allowColor: false,
      logTests: false,
      reportTests: false,
      reportMutants: true,
      reportScoreTable: true,
    },
    // Per process, so two modules can run side by side.
    tempDirName: `.stryker-tmp/${name}-${process.pid}`,
    cleanTempDir: true,
    timeoutMS: 20_000,
    ignorePatterns: [
      '.supabase-local',
      'tests/artifacts',
      'dist',
      'reports',
      '.stryker-tmp',
      'tests/mutation/incremental',
    ],
  });
  const results = await stryker.runMutationTest();
  const t: Tally = { killed: 0, survived: 0, timeout: 0, noCoverage: 0, compileError: 0, other: 0 };
  for (const r of results) {
    if (r.status === 'Killed') t.killed++;
    else if (r.status === 'Survived') t.survived++;
    else if (r.status === 'Timeout') t.timeout++;
    else if (r.status === 'NoCoverage') t.noCoverage++;
    else if (r.status === 'CompileError') t.compileError++;
    else t.other++;
  }
  return t;
}

const score = (t: Tally) => {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid ? (100 * (t.killed + t.timeout)) / valid : 100;
};

const wanted = process.argv.slice(2);
for (const w of wanted)
  if (!MODULES[w]) throw new Error(`Unknown module ${w}; modules: ${Object.keys(MODULES).join(', ')}`);
const tallies: [string, Tally][] = [];
for (const [name, module] of Object.entries(MODULES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  tallies.push([name, await runModule(name, module)]);
}
console.log('\nMutation score per module (aim: at least 80 % killed)');
console.log('module   score   killed  timeout  survived  no-coverage  compile-errors');
for (const [name, t] of tallies) {
  console.log(
    `${name.padEnd(8)} ${score(t).toFixed(1).padStart(5)} %  ${String(t.killed).padStart(6)}  ${String(t.timeout).padStart(7)}  ${String(t.survived).padStart(8)}  ${String(t.noCoverage).padStart(11)}  ${String(t.compileError).padStart(14)}`,
  );
}
process.exitCode = tallies.every(([, t]) => score(t) >= AIM) ? 0 : 1;
