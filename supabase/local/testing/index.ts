/**
 * Helpers for tests that run against a stack started by a test runner's global setup (`startTestStack`
 * there, these in the tests): the stack's addresses and keys travel as STACK_* environment variables.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { testConfig, type StackConfig } from '../config.ts';
import { startStack, type RunningStack } from '../stack.ts';

export { withRole, type RequestClaims } from '../db.ts';
export type { RunningStack } from '../stack.ts';
export * from './auth.ts';
export { signJwt } from '../jwt.ts';

/**
 * Starts a stack for a test run (a fresh database on the test ports and data folder) and puts its
 * addresses and keys in process.env as STACK_<NAME>, which the workers inherit. Each step is printed
 * with its time, so a start that stalls shows where.
 */
export async function startTestStack(config: StackConfig = testConfig()): Promise<RunningStack> {
  if (!config.databaseUrl) await fs.rm(config.dataDir, { recursive: true, force: true });
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const stack = await startStack(
    config,
    (line) => {
      if (config.verbose || /error|fail/i.test(line)) console.log(line);
    },
    (step) => console.log(`[stack ${seconds()}] ${step}`),
  );
  console.log(`[stack ${seconds()}] ready`);
  for (const [k, v] of Object.entries(stack.env)) process.env[`STACK_${k}`] = v;
  process.env.STACK_SMTP_PORT = String(config.smtpPort);
  process.env.STACK_SMTP_CA_FILE = path.join(config.dataDir, 'tls', 'ca.crt');
  return stack;
}

/** One of the running test stack's values (`supabase status -o env` names), set by startTestStack. */
export function stackEnv(
  name: 'API_URL' | 'DB_URL' | 'ANON_KEY' | 'SERVICE_ROLE_KEY' | 'JWT_SECRET' | 'MAILPIT_URL' | 'APP_URL',
): string {
  const v = process.env[`STACK_${name}`];
  if (!v)
    throw new Error(`STACK_${name} is not set: run the tests through vitest (global-setup starts the stack)`);
  return v;
}

/** The CA of the stack's mail sink certificate (SMTP with implicit TLS), for tests that send to it. */
export function stackCa(): string {
  const file = process.env.STACK_SMTP_CA_FILE;
  if (!file) throw new Error('STACK_SMTP_CA_FILE is not set: run the tests through vitest (global-setup)');
  return readFileSync(file, 'utf8');
}

let pool: pg.Pool | undefined;

/** A superuser pool on the test database, for arranging data and reading what the API wrote. */
export function adminPool(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: stackEnv('DB_URL'), max: 5 });
  return pool;
}

/** A unique suffix so that tests running in parallel never share rows. */
export function unique(prefix = 't'): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
