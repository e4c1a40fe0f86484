/**
 * ScamCheck's adapter to the local stack (@scamcheck/local-supabase, supabase/local): what of the stack's
 * running is this project's and not Supabase's. The stack knows nothing of these names.
 *
 * - Scheduled jobs: the migrations' pg_cron jobs call the functions with pg_net, reading the project URL
 *   and the service-role key from Vault under the names `project_url` and `service_role_key`
 *   (docs/deploying.md stores the same two on a hosted project).
 * - Visitor location data: GeoLite2 address ranges loaded into private.ip_locations (locations.ts) while
 *   the stack starts, as `npm run locations:load` does on a hosted project.
 * - Test stacks: the `ownership` function fetches `.test` websites from a server the tests start
 *   (issue 32, OWNERSHIP_TEST_ORIGIN).
 * - Names: the banner, the demo logins of supabase/seed.sql, the sender of Auth's e-mails, Vite's
 *   SCAMCHECK_* settings and the `private` schema `db:reset` drops.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  defaultConfig,
  testConfig,
  testPorts,
  type LocalProject,
  type StackConfig,
} from '@scamcheck/local-supabase';
import { loadLocations } from './locations.ts';
import { ROOT_DIR } from './root.ts';

export { ROOT_DIR };

/** The project's supabase/ folder: migrations, seed, functions, config.toml. */
export const SUPABASE_DIR = path.join(ROOT_DIR, 'supabase');

/** Where `npm run db:types` writes the generated database types (re-exported by src/types). */
export const TYPES_FILE = 'supabase/functions/_shared/database.types.ts';

/**
 * The port of the web server a test starts to stand for an owner's website (issue 32), beside the test
 * stack's ports (shifted by STACK_PORT_OFFSET). The `ownership` function of a test stack fetches website
 * proofs of `.test` hosts from http://127.0.0.1:<port> and treats that one address and port as public
 * (docs/right-of-reply.md). Unset for `npm start` and never set on hosted Supabase.
 */
export function ownershipTestPort(offset = Number(process.env.STACK_PORT_OFFSET ?? 0)): number {
  return 25329 + offset;
}

/** The ownership test origin of a stack on the test ports (of any offset); none for `npm start`'s. */
function ownershipEnv(config: StackConfig): Record<string, string> {
  const offset = config.apiPort - testPorts(0).apiPort;
  if (config.apiPort === defaultConfig().apiPort || offset < 0) return {};
  return { OWNERSHIP_TEST_ORIGIN: `http://127.0.0.1:${ownershipTestPort(offset)}` };
}

export const scamcheck: LocalProject = {
  name: 'ScamCheck',
  mailFrom: 'ScamCheck <noreply@scamcheck.local>',
  schemas: ['private'],
  typesFile: TYPES_FILE,
  vaultSecrets: (_config, { apiUrl, serviceRoleKey }) => ({
    project_url: apiUrl,
    service_role_key: serviceRoleKey,
  }),
  functionsEnv: ownershipEnv,
  appEnv: (config) => ({
    SCAMCHECK_API_URL: `http://${config.host}:${config.apiPort}`,
    // One pre-bundle folder per app port, so side-by-side stacks do not clobber each other's.
    SCAMCHECK_VITE_CACHE_DIR: path.join(ROOT_DIR, 'node_modules', '.vite', `app-${config.appPort}`),
  }),
  onDatabaseReady: async (pool, log) => {
    await loadLocations(pool, log);
  },
  banner: async () =>
    (await fs.readFile(path.join(import.meta.dirname, 'demo-logins.txt'), 'utf8')).trimEnd(),
};

/** The settings of `npm start` for ScamCheck. */
export function projectDevConfig(overrides: Partial<StackConfig> = {}): StackConfig {
  return defaultConfig({ project: scamcheck, ...overrides });
}

/** The settings of `npm test`'s stack for ScamCheck (its own ports and data folder). */
export function projectTestConfig(overrides: Partial<StackConfig> = {}): StackConfig {
  return testConfig({ project: scamcheck, ...overrides });
}
