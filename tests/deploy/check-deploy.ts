/**
 * `npm run check:deploy`: what would stop a deploy to hosted Supabase, found here.
 *
 * For every function of supabase/functions (or `--functions-dir`):
 * - measures what `supabase functions deploy` uploads (the source of every module of its graph, npm
 *   packages from node_modules, offline) and fails above what hosted accepts (5 MB on the `--use-api` path; `--max-bytes`);
 * - reads the local modules of its graph (`deno info`) and fails on a dynamic import with a computed
 *   specifier (no bundler can follow it), on a file read whose path is not a literal inside the
 *   function's `static_files`, and on node:vm or Web Workers (hosted has neither);
 * - type-checks it (`deno check`).
 * Then it fails on SMTP_PORT 25 or 587 in the functions' env files (hosted refuses those ports), and
 * applies the migrations to an empty Postgres as `supabase db push` would (platform schema, then
 * supabase/migrations in order; pg_cron, pg_net and Vault through the stand-ins) and checks that the
 * scheduled jobs exist (`--skip-migrations` leaves this out).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  applyMigrations,
  applyPlatform,
  configSection,
  LocalPostgres,
  staticFileRoot,
  table,
} from '@scamcheck/local-supabase';
import { ROOT_DIR, SUPABASE_DIR } from '../../supabase/project/index.ts';

/**
 * What hosted accepts from the deploy path docs/deploying.md uses: `--use-api` bundles on Supabase's
 * side, where a function may be 5 MB (20 MB when the CLI bundles with Docker).
 */
export const HOSTED_BUNDLE_LIMIT = 5 * 1024 * 1024;
const DENO = path.join(ROOT_DIR, 'node_modules', '.bin', 'deno');

export interface Finding {
  function?: string;
  file?: string;
  problem: string;
}

export interface CheckOptions {
  functionsDir?: string;
  envFiles?: string[];
  maxBytes?: number;
  skipMigrations?: boolean;
  skipTypes?: boolean;
  log?: (line: string) => void;
}

function deno(args: string[]) {
  return spawnSync(DENO, args, {
    cwd: ROOT_DIR,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
}

function functionNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter(
      (d) => d.isDirectory() && !d.name.startsWith('_') && existsSync(path.join(dir, d.name, 'index.ts')),
    )
    .map((d) => d.name)
    .sort();
}

/**
 * A function's module graph (`deno info`, offline: npm packages from node_modules): its local modules
 * and the bytes of every module in it, what the CLI's eszip carries as source.
 */
function graph(entry: string): { local: string[]; bytes: number; error?: string } {
  const r = deno(['info', '--json', '--node-modules-dir=manual', '--no-lock', entry]);
  if (r.status !== 0) return { local: [], bytes: 0, error: r.stderr.trim().split('\n')[0] };
  const info = JSON.parse(r.stdout) as { modules: { specifier: string; size?: number; error?: string }[] };
  const failed = info.modules.find((m) => m.error);
  // The project's own modules; npm packages (node_modules here) are the bundler's to resolve, and their
  // guarded optional imports (supabase-js' OpenTelemetry) are not the function's.
  const local = info.modules
    .filter((m) => m.specifier.startsWith('file:'))
    .map((m) => fileURLToPath(m.specifier))
    .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`));
  const bytes = info.modules.reduce((n, m) => n + (m.size ?? 0), 0);
  return { local, bytes, error: failed?.error };
}

const READ_CALL =
  /\b(?:Deno\.(?:readFile|readTextFile|readFileSync|readTextFileSync|open|openSync|readDir|readDirSync)|readFileSync|readFile|createReadStream)\s*\(\s*([^)]*)\)/g;

/** The problems in one local module's source. */
export function scanSource(file: string, source: string, staticRoots: string[]): string[] {
  const problems: string[] = [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const m of code.matchAll(/\bimport\s*\(\s*([^)]*?)\s*(?:,[^)]*)?\)/g)) {
    if (!/^(['"])[^'"`$]*\1$/.test(m[1]))
      problems.push(
        `dynamic import with a computed specifier (${m[1].slice(0, 60)}): the bundler cannot follow it`,
      );
  }
  for (const m of code.matchAll(READ_CALL)) {
    const arg = m[1].trim();
    const lit =
      /^new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)?/.exec(arg) ??
      /^(['"])([^'"]+)\1/.exec(arg);
    const target = lit
      ? arg.startsWith('new URL')
        ? path.resolve(path.dirname(file), lit[2])
        : path.resolve(lit[2])
      : null;
    if (!target) {
      problems.push(
        `file read of a computed path (${arg.slice(0, 60)}): declare it in static_files with a literal path`,
      );
    } else if (!staticRoots.some((root) => target === root || target.startsWith(root + path.sep))) {
      problems.push(`file read outside the function's static_files: ${path.relative(ROOT_DIR, target)}`);
    }
  }
  if (/from\s+['"]node:vm['"]|require\(\s*['"](node:)?vm['"]\s*\)/.test(code))
    problems.push('node:vm is not available in Supabase Edge Functions');
  if (/\bnew\s+Worker\s*\(/.test(code))
    problems.push('Web Workers are not available in Supabase Edge Functions');
  return problems;
}

/** SMTP_PORT 25 or 587 in an env file: hosted functions cannot connect there. */
export function scanEnvFile(file: string): string[] {
  if (!existsSync(file)) return [];
  const problems: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Z_]*PORT[A-Z_]*)\s*=\s*['"]?(\d+)/.exec(line);
    if (m && ['25', '587'].includes(m[2]))
      problems.push(`${m[1]}=${m[2]}: hosted Edge Functions refuse outgoing connections to ports 25 and 587`);
  }
  return problems;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Applies the migrations to a new, empty Postgres; answers the problems found. */
/**
 * Scheduled jobs whose command calls a function (`private.call_edge_function('name')`) that is not in
 * `functionsDir`: the job would call a function the deploy never made, every run.
 */
export function missingScheduledFunctions(
  jobs: { jobname: string; command: string }[],
  functionsDir: string,
): string[] {
  const problems: string[] = [];
  for (const job of jobs)
    for (const m of job.command.matchAll(/call_edge_function\(\s*'([^']+)'/g))
      if (!existsSync(path.join(functionsDir, m[1], 'index.ts')))
        problems.push(
          `cron job ${job.jobname} calls the function ${m[1]}, which is not in supabase/functions`,
        );
  return problems;
}

async function checkMigrations(log: (line: string) => void, functionsDir: string): Promise<Finding[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'scamcheck-deploy-db-'));
  const port = await freePort();
  const server = new LocalPostgres({
    dataDir,
    port,
    host: '127.0.0.1',
    durable: false,
    log: () => undefined,
    verbose: false,
  });
  const findings: Finding[] = [];
  try {
    await server.start();
    const pool = new pg.Pool({
      connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
      max: 2,
    });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    try {
      await applyPlatform(pool);
      const n = await applyMigrations(pool, () => undefined);
      log(`migrations: ${n} applied to an empty database`);
      const jobs = await pool.query<{ jobname: string; command: string }>(
        'select jobname, command from cron.job order by jobname',
      );
      if (jobs.rows.length === 0) findings.push({ problem: 'the migrations schedule no pg_cron job' });
      else log(`cron jobs: ${jobs.rows.map((r) => r.jobname).join(', ')}`);
      for (const problem of missingScheduledFunctions(jobs.rows, functionsDir)) findings.push({ problem });
    } catch (e) {
      findings.push({ problem: (e as Error).message });
    } finally {
      await pool.end();
    }
  } finally {
    await server.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return findings;
}

export async function checkDeploy(o: CheckOptions = {}): Promise<Finding[]> {
  const dir = o.functionsDir ?? path.join(SUPABASE_DIR, 'functions');
  const maxBytes = o.maxBytes ?? HOSTED_BUNDLE_LIMIT;
  const log = o.log ?? console.log;
  const findings: Finding[] = [];
  const names = functionNames(dir);
  try {
    for (const name of names) {
      const entry = path.join(dir, name, 'index.ts');
      const settings = table(configSection('functions')[name]);
      const staticRoots = (Array.isArray(settings.static_files) ? settings.static_files : [])
        .filter((x): x is string => typeof x === 'string')
        .map((p) => staticFileRoot(p, SUPABASE_DIR));
      const g = graph(entry);
      if (g.error) findings.push({ function: name, problem: `cannot be bundled: ${g.error}` });
      for (const file of g.local)
        for (const problem of scanSource(file, readFileSync(file, 'utf8'), staticRoots))
          findings.push({ function: name, file: path.relative(ROOT_DIR, file), problem });
      log(`${name}: ${(g.bytes / 1024 / 1024).toFixed(2)} MB of modules`);
      if (g.bytes > maxBytes)
        findings.push({
          function: name,
          problem: `bundle is ${(g.bytes / 1024 / 1024).toFixed(1)} MB, over the ${(maxBytes / 1024 / 1024).toFixed(0)} MB hosted accepts`,
        });
    }
    if (!o.skipTypes && names.length) {
      const r = deno([
        'check',
        '--quiet',
        '--node-modules-dir=manual',
        '--no-lock',
        ...names.map((n) => path.join(dir, n, 'index.ts')),
      ]);
      if (r.status !== 0)
        findings.push({
          problem: `type check failed: ${(r.stderr || r.stdout).trim().split('\n').slice(0, 6).join(' | ')}`,
        });
      else log(`type check: ${names.length} functions`);
    }
  } finally {
    // nothing to clean
  }
  for (const file of o.envFiles ?? [path.join(dir, '.env'), path.join(dir, '.env.example')])
    for (const problem of scanEnvFile(file)) findings.push({ file: path.relative(ROOT_DIR, file), problem });
  if (!o.skipMigrations) findings.push(...(await checkMigrations(log, dir)));
  return findings;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const started = Date.now();
  checkDeploy({
    functionsDir: value('--functions-dir'),
    maxBytes: value('--max-bytes') ? Number(value('--max-bytes')) : undefined,
    skipMigrations: args.includes('--skip-migrations'),
    skipTypes: args.includes('--skip-types'),
  })
    .then((findings) => {
      for (const f of findings)
        console.error(
          `FAIL ${[f.function, f.file].filter(Boolean).join(' ')}${f.function || f.file ? ': ' : ''}${f.problem}`,
        );
      console.log(
        `check:deploy ${findings.length ? 'failed' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      process.exitCode = findings.length ? 1 : 0;
    })
    .catch((e) => {
      console.error(`check:deploy could not run: ${(e as Error).stack}`);
      process.exitCode = 2;
    });
}
