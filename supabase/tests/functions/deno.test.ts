/**
 * The edge functions are excluded from tsc and eslint (they are Deno code), so this runs Deno's own
 * type checker over every function and the Deno unit tests of supabase/functions/_shared, as CI must.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS_DIR } from '@scamcheck/local-supabase';
import { ROOT_DIR } from '../../project/index.ts';

const deno = path.join(ROOT_DIR, 'node_modules', '.bin', 'deno');

function runDeno(args: string[]) {
  const r = spawnSync(deno, args, {
    // From the project root, as the local stack runs them: npm: packages come from node_modules.
    cwd: ROOT_DIR,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
  });
  return { code: r.status, output: `${r.stdout}\n${r.stderr}` };
}

const functions = readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
  .filter(
    (d) =>
      d.isDirectory() && !d.name.startsWith('_') && existsSync(path.join(FUNCTIONS_DIR, d.name, 'index.ts')),
  )
  .map((d) => d.name);

describe('Deno functions', () => {
  it('finds the functions this project deploys', () => {
    expect(functions).toEqual(
      expect.arrayContaining(['api', 'visitor', 'notify-dispatch', 'removal-expiry']),
    );
  });

  // One `deno check` over every entry point (each file is checked once, not once per function); an
  // error names its file, so the failing function is still named.
  it('deno check passes for every function', () => {
    const r = runDeno([
      'check',
      '--node-modules-dir=manual',
      '--no-lock',
      ...functions.map((name) => `supabase/functions/${name}/index.ts`),
    ]);
    expect(r.output).not.toMatch(/error/i);
    expect(r.code).toBe(0);
  }, 240_000);

  it('the Deno unit tests of _shared (image safety, offline geolocation) pass', () => {
    const r = runDeno([
      'test',
      '--allow-all',
      '--node-modules-dir=manual',
      '--no-lock',
      'supabase/functions/_shared/',
    ]);
    expect(r.output).toMatch(/ok \| \d+ passed \| 0 failed/);
    expect(r.code).toBe(0);
  }, 240_000);
});
