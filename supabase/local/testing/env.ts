/** The running test stack's values, as startTestStack (index.ts) puts them in the environment. */
import { readFileSync } from 'node:fs';
import pg from 'pg';

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
