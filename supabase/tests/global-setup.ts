/**
 * Starts one local stack for every test that needs it, on the test ports and data folder
 * (config.testConfig), so `npm test` runs on a fresh clone and beside a running `npm start`.
 * The test database is rebuilt from migrations and seed at every run, and every process the stack
 * started (Postgres, Deno, Vite) is stopped at the end.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { testConfig } from '../local/config.ts';
import { startStack, type RunningStack } from '../local/stack.ts';

let stack: RunningStack | undefined;

export async function setup() {
  const config = testConfig({
    withApp: true,
    appMode: process.env.STACK_APP_MODE === 'dev' ? 'dev' : 'build',
  });
  if (!config.databaseUrl) await fs.rm(config.dataDir, { recursive: true, force: true });
  // The stack's production build writes its chunk graph beside it (vite.config.ts bundleGraph), so
  // tests/bundle-size.test.ts measures that build instead of building the app again.
  const bundleGraph = path.join(config.dataDir, 'app-bundle-graph.json');
  await fs.rm(bundleGraph, { force: true });
  process.env.SCAMCHECK_BUNDLE_GRAPH = bundleGraph;
  // Each step of the start is printed with its time, so a start that stalls shows where (CI's log).
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  stack = await startStack(
    config,
    (line) => {
      if (config.verbose || /error|fail/i.test(line)) console.log(line);
    },
    (step) => console.log(`[stack ${seconds()}] ${step}`),
  );
  delete process.env.SCAMCHECK_BUNDLE_GRAPH;
  console.log(`[stack ${seconds()}] ready`);
  for (const [k, v] of Object.entries(stack.env)) process.env[`STACK_${k}`] = v;
  process.env.STACK_SMTP_PORT = String(config.smtpPort);
  // The app's production build that STACK_APP_URL serves (not set when STACK_APP_MODE=dev), for the
  // tests that would otherwise build the app themselves (page-shell, bundle-size).
  if (stack.appBuildDir) {
    process.env.STACK_APP_BUILD_DIR = stack.appBuildDir;
    process.env.STACK_APP_BUNDLE_GRAPH = bundleGraph;
  }
  process.env.STACK_SMTP_CA_FILE = path.join(config.dataDir, 'tls', 'ca.crt');
}

export async function teardown() {
  await stack?.stop();
}
