/**
 * Helpers for tests that run against a stack started by a test runner's global setup (`startTestStack`
 * there, these in the tests): the stack's addresses and keys travel as STACK_* environment variables.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { testConfig, type StackConfig } from '../config.ts';
import { startStack, type RunningStack } from '../stack.ts';

export { withRole, type RequestClaims } from '../db.ts';
export type { RunningStack } from '../stack.ts';
export * from './auth.ts';
export { adminPool, stackCa, stackEnv, unique } from './env.ts';
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
