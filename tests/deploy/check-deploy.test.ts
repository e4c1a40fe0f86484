/**
 * `npm run check:deploy` fails on each mistake that would break a deploy to hosted Supabase, and passes
 * on the project's own functions (the migrations part runs in CI through the script itself).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDeploy, missingScheduledFunctions, scanEnvFile, scanSource } from './check-deploy.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'scamcheck-check-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fn(name: string, code: string) {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, 'index.ts'), code);
}

describe('check:deploy', () => {
  it('fails on a bundle over the limit, an undeclared file read, a computed import, node:vm, a type error and port 587', async () => {
    fn('fine', `Deno.serve(() => new Response('ok'));\n`);
    // 1.5 MB of data in the bundle, against a 1 MB limit here (20 MB for real).
    writeFileSync(
      path.join(dir, 'big-data.ts'),
      `export const data = ${JSON.stringify('x'.repeat(1_500_000))};\n`,
    );
    fn(
      'too-big',
      `import { data } from '../big-data.ts';\nDeno.serve(() => new Response(String(data.length)));\n`,
    );
    fn(
      'reads-outside',
      `Deno.serve(async () => new Response(await Deno.readTextFile('../../package.json')));\n`,
    );
    fn(
      'dynamic-import',
      `Deno.serve(async (req) => { const m = await import(new URL(req.url).searchParams.get('m')!); return new Response(String(m)); });\n`,
    );
    fn(
      'uses-vm',
      `import vm from 'node:vm';\nDeno.serve(() => new Response(String(vm.runInNewContext('1'))));\n`,
    );
    fn('bad-types', `const n: number = 'text';\nDeno.serve(() => new Response(String(n)));\n`);
    const env = path.join(dir, '.env');
    writeFileSync(env, 'SMTP_HOST=smtp.example.com\nSMTP_PORT=587\n');
    const findings = await checkDeploy({
      functionsDir: dir,
      envFiles: [env],
      maxBytes: 1024 * 1024,
      skipMigrations: true,
      log: () => undefined,
    });
    const about = (name: string) => findings.filter((f) => f.function === name).map((f) => f.problem);
    expect(about('fine')).toEqual([]);
    expect(about('too-big').join()).toMatch(/bundle is 1\.\d MB, over the 1 MB/);
    expect(about('reads-outside').join()).toMatch(/file read outside the function's static_files/);
    expect(about('dynamic-import').join()).toMatch(/dynamic import with a computed specifier/);
    expect(about('uses-vm').join()).toMatch(/node:vm is not available/);
    expect(findings.some((f) => /type check failed: .*bad-types/.test(f.problem))).toBe(true);
    expect(findings.some((f) => /SMTP_PORT=587: hosted Edge Functions refuse/.test(f.problem))).toBe(true);
  }, 240_000);

  it('reads literal paths inside static_files, and refuses computed ones', () => {
    const file = '/p/supabase/functions/x/index.ts';
    expect(
      scanSource(file, `await Deno.readFile(new URL('./data/a.bin', import.meta.url))`, [
        '/p/supabase/functions/x/data',
      ]),
    ).toEqual([]);
    expect(scanSource(file, `await Deno.readFile(someName)`, ['/p/supabase/functions/x/data'])[0]).toMatch(
      /computed path/,
    );
    expect(scanSource(file, `const m = await import('npm:zod@4.6.7')`, [])).toEqual([]);
    expect(scanSource(file, `new Worker(new URL('./w.ts', import.meta.url))`, [])[0]).toMatch(/Web Workers/);
    expect(scanEnvFile('/no/such/file')).toEqual([]);
  });

  it('fails on a scheduled job that calls a function the project does not have', () => {
    fn('fine', `Deno.serve(() => new Response('ok'));\n`);
    expect(
      missingScheduledFunctions(
        [
          { jobname: 'fine', command: `select private.call_edge_function('fine')` },
          { jobname: 'typo', command: `select private.call_edge_function('notify-dispatchh')` },
          { jobname: 'plain-sql', command: 'select public.refresh_public_statistics()' },
        ],
        dir,
      ),
    ).toEqual(['cron job typo calls the function notify-dispatchh, which is not in supabase/functions']);
  });
});
