/**
 * Starts one local stack for every test that needs it, on the test ports and data folder
 * (ScamCheck's test settings, supabase/project), so `npm test` runs on a fresh clone and beside a
 * running `npm start`. The test database is rebuilt from migrations and seed at every run, and every
 * process the stack started (Postgres, Deno, Vite) is stopped at the end.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { startTestStack, type RunningStack } from '@scamcheck/local-supabase/testing';
import { projectTestConfig } from '../project/index.ts';

let stack: RunningStack | undefined;

export async function setup() {
  const config = projectTestConfig({
    withApp: true,
    appMode: process.env.STACK_APP_MODE === 'dev' ? 'dev' : 'build',
  });
  // The stack's production build writes its chunk graph beside it (vite.config.ts bundleGraph), so
  // tests/bundle-size.test.ts measures that build instead of building the app again.
  const bundleGraph = path.join(config.dataDir, 'app-bundle-graph.json');
  await fs.rm(bundleGraph, { force: true });
  process.env.SCAMCHECK_BUNDLE_GRAPH = bundleGraph;
  stack = await startTestStack(config);
  delete process.env.SCAMCHECK_BUNDLE_GRAPH;
  // The app's production build that STACK_APP_URL serves (not set when STACK_APP_MODE=dev), for the
  // tests that would otherwise build the app themselves (page-shell, bundle-size).
  if (stack.appBuildDir) {
    process.env.STACK_APP_BUILD_DIR = stack.appBuildDir;
    process.env.STACK_APP_BUNDLE_GRAPH = bundleGraph;
  }
}

export async function teardown() {
  await stack?.stop();
}
