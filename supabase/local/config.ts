/**
 * Settings of the local Supabase stand-in (docs/architecture.md).
 *
 * Ports are the Supabase CLI's defaults so that `.env` files and tests work against either stack.
 * The keys are fixed development keys, the same kind the CLI prints for `supabase start`: they sign
 * nothing outside this machine and production keys never appear in the repository.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * The project the stack runs: the folder holding `supabase/config.toml`, found as the Supabase CLI finds
 * it (SUPABASE_WORKDIR, else the nearest folder upwards from the working directory that has one), else
 * upwards from this package (installed in the project's node_modules, or a workspace inside it).
 */
function findProjectRoot(): string {
  const fromEnv = process.env.SUPABASE_WORKDIR;
  if (fromEnv) return path.resolve(fromEnv);
  for (const start of [process.cwd(), path.dirname(fileURLToPath(import.meta.url))]) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, 'supabase', 'config.toml'))) return dir;
      if (path.dirname(dir) === dir) break;
    }
  }
  return process.cwd();
}

export const ROOT_DIR = findProjectRoot();
export const SUPABASE_DIR = path.join(ROOT_DIR, 'supabase');

/** The CLI's development JWT secret; anon and service_role keys below are signed with it. */
export const JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';
export const SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

export interface StackConfig {
  /** Gateway: /auth/v1, /rest/v1, /storage/v1, /functions/v1. */
  apiPort: number;
  dbPort: number;
  /** Mailpit-compatible web page and JSON API. */
  mailPort: number;
  smtpPort: number;
  appPort: number;
  /** Where Postgres data, stored objects and stack state live (git-ignored). */
  dataDir: string;
  /** Use this server instead of starting embedded Postgres. */
  databaseUrl?: string;
  host: string;
  /** Start the Vite dev server too (`npm start`); tests use a built app or none. */
  withApp: boolean;
  /**
   * How the app is served when `withApp`: `dev`, Vite's dev server (`npm start`: edits show at once), or
   * `build`, a production build served by `vite preview` (the browser tests: what users get, and each
   * fresh browser context loads a few bundled files instead of hundreds of modules).
   */
  appMode?: 'dev' | 'build';
  /** Watch supabase/functions and restart a function when its files change. */
  watchFunctions: boolean;
  /** Print function and database logs to the console. */
  verbose: boolean;
  /**
   * Postgres with fsync, synchronous commit and full-page writes: `npm start`, whose data people keep.
   * Test stacks are thrown away and run without them (faster).
   */
  durable: boolean;
  /**
   * For the local Auth's per-client limits (GoTrue's `[auth.rate_limit]` buckets): how many trusted
   * proxies in front of the gateway append the client's address to X-Forwarded-For
   * (`STACK_TRUSTED_PROXIES`, default 0: the header is the client's own and is ignored, and the limits key
   * on the connection's address). The test stack says 1: tests stand in for that proxy and name their
   * client address in the header. (The Postgres rate limiter has its own setting, docs/limits.md.)
   */
  trustedProxies: number;
  /** What is the project's and not the stack's (LocalProject): names, jobs' secrets, extra environment. */
  project?: LocalProject;
}

export function defaultConfig(overrides: Partial<StackConfig> = {}): StackConfig {
  const base: StackConfig = {
    apiPort: 54321,
    dbPort: 54322,
    mailPort: 54324,
    smtpPort: 54325,
    appPort: 5173,
    dataDir: path.join(ROOT_DIR, '.supabase-local', 'dev'),
    databaseUrl: process.env.DATABASE_URL || undefined,
    host: '127.0.0.1',
    withApp: true,
    watchFunctions: true,
    verbose: true,
    durable: true,
    trustedProxies: Number(process.env.STACK_TRUSTED_PROXIES ?? 0) || 0,
  };
  return { ...base, ...overrides };
}

/**
 * The ports `npm test` listens on, shifted by `offset`. They sit below Linux's ephemeral range
 * (32768-60999 by default): a port in that range can be taken at any moment by the local end of an
 * outgoing connection (a test's own client to Postgres, say), and the next server to bind it fails.
 */
export function testPorts(offset = Number(process.env.STACK_PORT_OFFSET ?? 0)) {
  return {
    apiPort: 25321 + offset,
    dbPort: 25322 + offset,
    mailPort: 25324 + offset,
    smtpPort: 25325 + offset,
    appPort: 25173 + offset,
  };
}

/** The data folder of the test stack on `offset`'s ports. */
export function testDataDir(offset = Number(process.env.STACK_PORT_OFFSET ?? 0)): string {
  return path.join(ROOT_DIR, '.supabase-local', offset ? `test-${offset}` : 'test');
}

/** The configuration `npm test` uses: its own ports and data folder, so it runs beside `npm start`. */
export function testConfig(overrides: Partial<StackConfig> = {}): StackConfig {
  // STACK_PORT_OFFSET lets several test runs share a machine (each on its own ports and data folder).
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
  return defaultConfig({
    ...testPorts(offset),
    dataDir: testDataDir(offset),
    databaseUrl: process.env.TEST_DATABASE_URL || undefined,
    withApp: false,
    watchFunctions: false,
    verbose: !!process.env.STACK_VERBOSE,
    durable: false,
    trustedProxies: 1,
    ...overrides,
  });
}

export function dbUrl(config: StackConfig, database = 'postgres'): string {
  if (config.databaseUrl) return config.databaseUrl;
  return `postgresql://postgres:postgres@${config.host}:${config.dbPort}/${database}`;
}

export function apiUrl(config: StackConfig): string {
  return `http://${config.host}:${config.apiPort}`;
}

export function mailUrl(config: StackConfig): string {
  return `http://${config.host}:${config.mailPort}`;
}

export function appUrl(config: StackConfig): string {
  return `http://localhost:${config.appPort}`;
}

/**
 * The stack's own development secret of Auth's Send Email hook (Standard Webhooks, "v1,whsec_<base64>"),
 * as JWT_SECRET is the CLI's development JWT secret: used when SEND_EMAIL_HOOK_SECRET is unset.
 */
export const LOCAL_SEND_EMAIL_HOOK_SECRET =
  'v1,whsec_' + Buffer.from('local-supabase-dev-send-email-hook-secret').toString('base64');

/**
 * What config.toml's `env(...)` values resolve to on this stack: the process environment, else the
 * stack's own values (the hook's URI is this stack's send-email function).
 */
export function stackEnv(config: StackConfig): Record<string, string> {
  return {
    SEND_EMAIL_HOOK_URI: `${apiUrl(config)}/functions/v1/send-email`,
    SEND_EMAIL_HOOK_SECRET: LOCAL_SEND_EMAIL_HOOK_SECRET,
    ...Object.fromEntries(
      ['SEND_EMAIL_HOOK_URI', 'SEND_EMAIL_HOOK_SECRET']
        .filter((k) => process.env[k])
        .map((k) => [k, process.env[k]!]),
    ),
  };
}

/** The lines `supabase status -o env` prints, plus APP_URL. */
export function statusEnv(config: StackConfig): Record<string, string> {
  const api = apiUrl(config);
  return {
    ANON_KEY,
    API_URL: api,
    APP_URL: appUrl(config),
    DB_URL: dbUrl(config),
    FUNCTIONS_URL: `${api}/functions/v1`,
    GRAPHQL_URL: `${api}/graphql/v1`,
    INBUCKET_URL: mailUrl(config),
    JWT_SECRET,
    MAILPIT_URL: mailUrl(config),
    REST_URL: `${api}/rest/v1`,
    SERVICE_ROLE_KEY,
    STORAGE_S3_URL: `${api}/storage/v1/s3`,
    STUDIO_URL: '',
  };
}

/**
 * What the stack needs to know of the project it runs, and nothing else: the stack itself holds no
 * project's names, schemas, secrets or data (README.md, "The project adapter"). Everything here is
 * optional; a stack without an adapter runs the project's migrations, seed, config.toml and functions
 * as the Supabase CLI does and nothing more.
 */
export interface LocalProject {
  /** The name people read: the CLI's banner and the default sender of Auth's e-mails. */
  name: string;
  /** The sender of e-mails that name none (Auth's, as GoTrue's SMTP_ADMIN_EMAIL and SENDER_NAME). */
  mailFrom?: string;
  /**
   * The project's own schemas besides `public` (created by its migrations), dropped by `db reset`
   * before the migrations run again. The platform's schemas are the stack's to drop.
   */
  schemas?: string[];
  /**
   * Vault secrets the migrations' scheduled jobs read (pg_cron + pg_net + Vault, as on Supabase):
   * stored once the database is ready, as an operator does once on a hosted project.
   */
  vaultSecrets?(
    config: StackConfig,
    keys: { apiUrl: string; serviceRoleKey: string },
  ): Record<string, string>;
  /** More environment for the edge functions (after the stack's own: SUPABASE_URL, keys, SMTP). */
  functionsEnv?(config: StackConfig): Record<string, string>;
  /** More environment for the app's Vite server or build (after VITE_SUPABASE_URL and _ANON_KEY). */
  appEnv?(config: StackConfig): Record<string, string>;
  /**
   * Work that needs the migrated database (loading reference data, say), started while the services
   * start; the stack is ready when it is done.
   */
  onDatabaseReady?(pool: pg.Pool, log: (line: string) => void, config: StackConfig): Promise<void>;
  /** Text the CLI prints once the stack is up (demo logins, a first thing to try). */
  banner?(): Promise<string> | string;
  /** Where `db-types` writes the generated types, from the project folder (else they are printed). */
  typesFile?: string;
}
