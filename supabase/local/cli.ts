/**
 * The stack's command line: `start`, `status`, `db-reset` and `db-types`, as `supabase start`, `supabase
 * status -o env`, `supabase db reset` and `supabase gen types typescript` (README.md). A project runs it
 * with its adapter and commands of its own (`runCli`); run directly, it serves the project found from the
 * working directory with no adapter.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  ROOT_DIR,
  defaultConfig,
  statusEnv,
  testConfig,
  type LocalProject,
  type StackConfig,
} from './config.ts';
import { MigrationError, prepareDatabase, resetDatabase, startDatabase } from './db.ts';
import { generateTypes } from './gen-types.ts';
import { StackAlreadyRunning, describeStack, portInUse, startStack } from './stack.ts';
import { PostgresStartError } from './postgres.ts';

const log = (line: string) => console.log(line);

export interface CliOptions {
  project?: LocalProject;
  /** The stack's settings (default: the development ports; STACK_MODE=test, the test ports). */
  config?: () => StackConfig;
  /** More commands, by name; each gets the settings and the arguments after its name. */
  commands?: Record<string, (config: StackConfig, args: string[]) => Promise<void>>;
}

let options: CliOptions = {};

/** STACK_MODE=test runs the commands on the test ports (used by the tests of this CLI). */
const currentConfig = (): StackConfig => {
  const config = options.config
    ? options.config()
    : process.env.STACK_MODE === 'test'
      ? testConfig({ withApp: true, verbose: true })
      : defaultConfig();
  return options.project && !config.project ? { ...config, project: options.project } : config;
};

/** The signals that stop a running `start`: Ctrl-C, `kill`, and a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Takes SIGINT, SIGTERM and SIGHUP over for `stop`, from the first moment of a start: a signal while the
 * stack comes up stops what has started once the start settles, not only a signal after the banner.
 * Other listeners go (a library's exit hook that stops only Postgres and exits would orphan the rest),
 * but by `process.listeners`, never `removeAllListeners`: under the `tsx` command line, tsx's own hidden
 * listener tells its parent process the signal arrived; without it the parent SIGKILLs this process
 * 60 ms later, in the middle of the shutdown, and Postgres and the Deno workers outlive it.
 */
function onStopSignals(stop: () => void) {
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, stop);
  }
}

async function start() {
  const config = currentConfig();
  const began = Date.now();
  const pidFile = path.join(config.dataDir, 'stack.pid');
  const starting = startStack(config, log);
  let stopping = false;
  onStopSignals(() => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the local stack...');
    void starting
      .then(
        (stack) => stack.stop(),
        () => undefined,
      ) // a failed start has stopped what it started
      .then(() => fs.rm(pidFile, { force: true }))
      .finally(() => process.exit(0));
  });
  let stack;
  try {
    stack = await starting;
  } catch (e) {
    if (stopping) return;
    if (e instanceof StackAlreadyRunning || e instanceof MigrationError || e instanceof PostgresStartError) {
      console.error(`\n${e.message}\n`);
      process.exit(1);
    }
    const err = e as NodeJS.ErrnoException & { port?: number };
    if (err.code === 'EADDRINUSE') {
      // Taken between the check and the listen (the default ports lie in Linux's range for outgoing connections).
      const names: Record<number, string> = {
        [config.apiPort]: 'gateway',
        [config.mailPort]: 'mail',
        [config.smtpPort]: 'smtp',
        [config.appPort]: 'app',
        [config.dbPort]: 'database',
      };
      console.error(
        `\nPort ${err.port} (${names[err.port ?? 0] ?? 'stack'}) is already in use by another program: stop it or free the port, then start again.\n`,
      );
      process.exit(1);
    }
    throw e;
  }
  if (stopping) return;
  await fs.writeFile(pidFile, String(process.pid));
  // Every function is started now, so one that cannot boot is named here with its cause, not found later as 503s.
  const booted = await stack.functions.boot();
  if (stopping) return;
  const failed = booted.filter((f) => f.error);
  console.log(
    `\nEdge functions: ${
      booted
        .filter((f) => !f.error)
        .map((f) => f.name)
        .join(', ') || 'none'
    } ready.`,
  );
  for (const f of failed) console.error(`  ${f.error}`);
  if (failed.length)
    console.error(
      `  ${failed.length} function(s) cannot start; their calls answer 503 until fixed (files are watched).`,
    );
  console.log(
    `\n${config.project ? `${config.project.name} local stack` : 'The local stack'} is up in ${((Date.now() - began) / 1000).toFixed(1)} s.\n${describeStack(config)}`,
  );
  const banner = await config.project?.banner?.();
  if (banner) console.log('\n' + banner.trimEnd());
  console.log('\nPress Ctrl-C to stop everything.\n');
}

async function status() {
  const config = currentConfig();
  for (const [k, v] of Object.entries(statusEnv(config))) console.log(`${k}="${v}"`);
  if (!(await portInUse(config.host, config.apiPort))) {
    console.error('\nThe local stack is not running: start it with `npm start`.');
  }
}

/** Runs `fn` with a superuser pool: on the running stack's database, or on one started for the call. */
export async function withDatabase(config: StackConfig, fn: (pool: pg.Pool) => Promise<void>) {
  if (config.databaseUrl || (await portInUse(config.host, config.dbPort))) {
    const pool = new pg.Pool({ connectionString: statusEnv(config).DB_URL });
    try {
      await fn(pool);
    } finally {
      await pool.end();
    }
    return;
  }
  const db = await startDatabase({ ...config, verbose: false }, log);
  try {
    await fn(db.pool);
  } finally {
    await db.stop();
  }
}

async function dbReset() {
  const config = currentConfig();
  await withDatabase(config, (pool) => resetDatabase(pool, log, config.project?.schemas));
  // The stored objects' rows are gone with the storage schema; their files go too.
  for (const dir of ['storage', 'storage-uploads'])
    await fs.rm(path.join(config.dataDir, dir), { recursive: true, force: true });
  console.log('Database reset: migrations and seed applied, stored files removed.');
}

/**
 * Regenerates the project's database types (the adapter's typesFile, else printed) with Supabase's
 * generator from @supabase/postgres-meta (gen-types.ts), from a throwaway database built from the
 * migrations on ports and a folder of its own (shifted by STACK_PORT_OFFSET): the types say what the
 * migrations build, whatever a running `start` database holds, and it runs beside one.
 */
async function dbTypes() {
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
  const dataDir = path.join(ROOT_DIR, '.supabase-local', `types-${offset}`);
  await fs.rm(dataDir, { recursive: true, force: true });
  const config = testConfig({ dataDir, dbPort: 25331 + offset, databaseUrl: undefined });
  const typesFile = options.project?.typesFile;
  try {
    await withDatabase(config, async (pool) => {
      await prepareDatabase(pool, typesFile ? log : () => undefined);
      const types = await generateTypes(statusEnv(config).DB_URL);
      if (!typesFile) return void process.stdout.write(types + '\n');
      const file = path.join(ROOT_DIR, typesFile);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, types);
      console.log(`Wrote ${typesFile}.`);
    });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const builtIn: Record<string, () => Promise<void>> = {
  start,
  status,
  'db-reset': dbReset,
  'db-types': dbTypes,
};

/** Runs the command named by the first argument (process.argv[2]) and exits with its outcome. */
export function runCli(cliOptions: CliOptions = {}, argv = process.argv.slice(2)): void {
  options = cliOptions;
  const [name = '', ...args] = argv;
  const extra = cliOptions.commands?.[name];
  const command = extra ? () => extra(currentConfig(), args) : builtIn[name];
  if (!command) {
    console.error(
      `Unknown command. Use one of: ${[...Object.keys(builtIn), ...Object.keys(cliOptions.commands ?? {})].join(', ')}`,
    );
    process.exit(2);
  }
  command().catch((e) => {
    console.error(e instanceof MigrationError ? `\n${e.message}\n` : e);
    process.exit(1);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runCli();
