/**
 * Starts one local stack for every test that needs it, on the test ports and data folder
 * (ScamCheck's test settings, supabase/project), so `npm test` runs on a fresh clone and beside a
 * running `npm start`. The test database is rebuilt from migrations and seed at every run, and every
 * process the stack started (Postgres, Deno, Vite) is stopped at the end.
 */
import { startTestStack, type RunningStack } from '@scamcheck/local-supabase/testing';
import { projectTestConfig } from '../project/index.ts';

let stack: RunningStack | undefined;

export async function setup() {
  stack = await startTestStack(
    projectTestConfig({
      withApp: true,
      appMode: process.env.STACK_APP_MODE === 'dev' ? 'dev' : 'build',
    }),
  );
}

export async function teardown() {
  await stack?.stop();
}
