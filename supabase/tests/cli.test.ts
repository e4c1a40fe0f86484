/**
 * `npm start` as a user runs it: everything comes up in one process tree, a second start says clearly
 * that one is running, `npm run status` prints the CLI's env lines, and SIGINT sent to the process
 * `npm start` runs (package.json's command line, not a shell or npm around it) leaves nothing behind:
 * the Postgres and Deno processes it started are gone. Runs the real CLI on its own ports (the test
 * stack's offset + 50).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { portInUse, testDataDir, testPorts } from '@scamcheck/local-supabase';
import { ROOT_DIR } from '../project/index.ts';

const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + 50;
const env = { ...process.env, SCAMCHECK_STACK: 'test', STACK_PORT_OFFSET: String(offset) };
const cli = path.join(ROOT_DIR, 'supabase', 'project', 'cli.ts');
const ports = testPorts(offset);
const api = `http://127.0.0.1:${ports.apiPort}`;
const app = `http://localhost:${ports.appPort}`;

/** How long `npm start` may take to come up: 90 s was passed on a 2-core machine with other work on it. */
const START_LIMIT_MS = 180_000;

/** package.json's `start` command line as the argv of the process it starts (node itself: no wrapper). */
function startCommand(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [program, ...args] = pkg.scripts.start.split(/\s+/);
  // A wrapper that runs the stack as its child (the tsx command line) relays signals on a 30 ms
  // clock and SIGKILLs a child that misses it, orphaning the stack's own children.
  expect(program, 'npm start runs node itself').toBe('node');
  expect(args.slice(-2)).toEqual(['supabase/project/cli.ts', 'start']);
  return [...args.slice(0, -2), cli, 'start'];
}

/** The PIDs of the processes whose environment holds `entry` (KEY=value), from /proc. */
function pidsWithEnv(entry: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
      } catch {
        return false; // exited, or another user's
      }
    })
    .map(Number);
}

/** The PIDs of the processes whose command line matches `pattern` (pgrep -f). */
function pidsMatching(pattern: string): number[] {
  return spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

function run(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: ROOT_DIR,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('npm start', () => {
  let child: ChildProcess | undefined;
  let output = '';

  /** If an assertion failed mid-way, still stops the stack the way a user would (Ctrl-C). */
  async function stopStart() {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
  }
  afterAll(stopStart);

  it(
    'starts the stack, refuses a second start, reports status and stops cleanly on Ctrl-C',
    async () => {
      const began = Date.now();
      child = spawn(process.execPath, startCommand(), {
        cwd: ROOT_DIR,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (c) => (output += c));
      child.stderr!.on('data', (c) => (output += c));
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (output.includes('local stack is up')) {
            clearInterval(timer);
            resolve();
          } else if (child!.exitCode !== null || Date.now() - began > START_LIMIT_MS) {
            clearInterval(timer);
            reject(new Error(`npm start did not come up:\n${output}`));
          }
        }, 100);
      });
      expect(output).toContain(app);
      expect(output).toContain(api);

      const fn = await fetch(`${api}/functions/v1/health`, {
        headers: { authorization: `Bearer ${process.env.STACK_ANON_KEY}` },
      });
      expect(fn.status).toBe(200);
      const page = await fetch(app);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');

      const second = run(['start']);
      expect(second.status).toBe(1);
      expect(second.stderr).toMatch(/already in use: a local stack seems to be running already/);

      const status = run(['status']);
      expect(status.status).toBe(0);
      const lines = status.stdout.trim().split('\n');
      for (const key of [
        'API_URL',
        'DB_URL',
        'ANON_KEY',
        'SERVICE_ROLE_KEY',
        'JWT_SECRET',
        'MAILPIT_URL',
        'APP_URL',
      ]) {
        expect(lines.some((l) => new RegExp(`^${key}=".+"$`).test(l))).toBe(true);
      }
      expect(lines).toContain(`API_URL="${api}"`);

      // What the start runs: Postgres (postmaster and its workers) and the Deno worker of the call above.
      const postgres = pidsMatching(`test-${offset}/postgres`);
      const deno = pidsWithEnv(`SUPABASE_URL=${api}`).filter((pid) => pid !== child!.pid);
      expect(postgres.length).toBeGreaterThan(0);
      expect(deno.length).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect([...postgres, ...deno].filter(alive), 'Postgres and Deno processes left running').toEqual([]);
      for (const port of Object.values(ports)) {
        expect(await portInUse('127.0.0.1', port)).toBe(false);
      }
      // The function worker started by the health call above must be gone too (found by its environment).
      const workers = spawnSync('pgrep', ['-f', 'deno/worker.ts'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      const ours = workers.filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`SUPABASE_URL=${api}`);
        } catch {
          return false; // exited between pgrep and the read
        }
      });
      expect(ours).toEqual([]);
      for (const pattern of [`test-${offset}/postgres`, `vite --port ${ports.appPort}`]) {
        const leftovers = spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' });
        expect(leftovers.stdout.trim(), pattern).toBe('');
      }
    },
    START_LIMIT_MS + 120_000,
  );

  it('db:reset rebuilds the database with its seed and removes the stored files', async () => {
    // On its own database: a start the test above left running (it failed) would share it.
    await stopStart();
    const dataDir = testDataDir(offset);
    const orphan = path.join(dataDir, 'storage', 'evidence', 'left-over.png');
    mkdirSync(path.dirname(orphan), { recursive: true });
    writeFileSync(orphan, 'not an image');
    const reset = run(['db-reset']);
    expect(reset.stderr).toBe('');
    expect(reset.status).toBe(0);
    expect(reset.stdout).toContain('Database reset: migrations and seed applied, stored files removed.');
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(path.join(dataDir, 'storage'))).toBe(false);
    // Nothing is left running: the command started and stopped its own database.
    expect(spawnSync('pgrep', ['-f', `test-${offset}/postgres`], { encoding: 'utf8' }).stdout.trim()).toBe(
      '',
    );
  }, 120_000);
});
