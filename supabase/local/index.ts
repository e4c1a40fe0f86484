/**
 * @scamcheck/local-supabase: the public entry (README.md). A project imports the stack from here, or
 * from `/testing` (helpers for tests against a running stack) and `/cli` (the command line); every
 * other file of the package is its own and may change without notice.
 */

// Settings, ports and the fixed development keys (the Supabase CLI's).
export {
  ANON_KEY,
  JWT_SECRET,
  LOCAL_SEND_EMAIL_HOOK_SECRET,
  ROOT_DIR as PROJECT_DIR,
  SERVICE_ROLE_KEY,
  apiUrl,
  appUrl,
  dbUrl,
  defaultConfig,
  mailUrl,
  stackEnv,
  statusEnv,
  testConfig,
  testDataDir,
  testPorts,
  type StackConfig,
} from './config.ts';
export type { LocalProject } from './config.ts';

// The whole stack, started and stopped as one.
export { StackAlreadyRunning, describeStack, portInUse, startStack, type RunningStack } from './stack.ts';

// The database: Postgres, the platform schema, the project's migrations and seed, a request's role.
export {
  MigrationError,
  applyMigrations,
  applyPlatform,
  applySeed,
  listMigrations,
  prepareDatabase,
  resetDatabase,
  startDatabase,
  withRole,
  type Database,
  type RequestClaims,
} from './db.ts';
export { LocalPostgres, PostgresStartError, postgresDataDir } from './postgres.ts';
export { SET_REQUEST_SQL, requestSettingValues, type RequestSettings } from './request-settings.ts';
export { generateTypes, POSTGREST_VERSION } from './gen-types.ts';

// supabase/config.toml as the CLI reads it.
export { CONFIG_TOML, configSection, readProjectConfig, table, type TomlTable } from './project-config.ts';

// Edge functions: the Deno runtime with hosted Supabase's limits.
export { FUNCTIONS_DIR, FunctionsRuntime, functionNames } from './functions.ts';
export { HOSTED_LIMITS, staticFileRoot, type EdgeLimits } from './edge-limits.ts';

// pg_cron and pg_net workers.
export { nextDue, startScheduler, storeVaultSecrets, type Scheduler } from './scheduler.ts';

// Tokens and Auth's hook signatures, as GoTrue makes them.
export { signJwt, verifyToken, type Claims } from './jwt.ts';
export { signHook } from './auth/hook.ts';
export { tokenHash } from './auth/context.ts';
export { loadAuthSettings, type AuthSettings } from './auth/settings.ts';
