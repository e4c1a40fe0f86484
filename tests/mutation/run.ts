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

async function runPart(
  name: string,
  part: string | undefined,
  { tsconfig }: MutationModule,
  files: string[],
): Promise<Tally> {
  const id = part ? `${name}.${part}` : name;
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
    incrementalFile: `tests/mutation/incremental/${id}.json`,
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
    tempDirName: `.stryker-tmp/${id}-${process.pid}`,
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
  const t = emptyTally();
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

const emptyTally = (): Tally => ({
  killed: 0,
  survived: 0,
  timeout: 0,
  noCoverage: 0,
  compileError: 0,
  other: 0,
});

const add = (a: Tally, b: Tally): Tally => {
  const sum = emptyTally();
  for (const k of Object.keys(sum) as (keyof Tally)[]) sum[k] = a[k] + b[k];
  return sum;
};

const score = (t: Tally) => {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  return valid ? (100 * (t.killed + t.timeout)) / valid : 100;
};

// `shared` runs every part of shared, `shared.canonical` one part.
const wanted = process.argv.slice(2);
for (const w of wanted) {
  const [name, part] = w.split('.');
  if (!MODULES[name] || (part && !MODULES[name].parts?.[part]))
    throw new Error(
      `Unknown module or part ${w}; modules: ${Object.entries(MODULES)
        .map(([n, m]) => [n, ...Object.keys(m.parts ?? {}).map((p) => `${n}.${p}`)].join(', '))
        .join(', ')}`,
    );
}
const picked = (name: string, part?: string) =>
  !wanted.length || wanted.includes(name) || (part !== undefined && wanted.includes(`${name}.${part}`));
// Parts are printed under their module; the aim applies to each module's total (or to a part run alone).
const lines: { label: string; tally: Tally; judged: boolean }[] = [];
for (const [name, module] of Object.entries(MODULES)) {
  const parts = Object.entries(module.parts ?? { '': module.files });
  const done: [string, Tally][] = [];
  for (const [part, files] of parts) {
    if (!picked(name, part || undefined)) continue;
    done.push([part ? `${name}.${part}` : name, await runPart(name, part || undefined, module, files)]);
  }
  if (done.length === 1) lines.push({ label: done[0][0], tally: done[0][1], judged: true });
  else if (done.length > 1) {
    for (const [label, tally] of done) lines.push({ label: `  ${label}`, tally, judged: false });
    lines.push({ label: name, tally: done.map(([, t]) => t).reduce(add), judged: true });
  }
}
console.log('\nMutation score per module (aim: at least 80 % killed)');
console.log(`${'module'.padEnd(24)} score   killed  timeout  survived  no-coverage  compile-errors`);
for (const { label, tally: t } of lines) {
  console.log(
    `${label.padEnd(24)} ${score(t).toFixed(1).padStart(5)} %  ${String(t.killed).padStart(6)}  ${String(t.timeout).padStart(7)}  ${String(t.survived).padStart(8)}  ${String(t.noCoverage).padStart(11)}  ${String(t.compileError).padStart(14)}`,
  );
}
process.exitCode = lines.every(({ tally, judged }) => !judged || score(tally) >= AIM) ? 0 : 1;
