import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// Two projects: the SPA's component tests in jsdom, and everything that needs the local stack
// (database, API conformance, functions, browser tests), which share one stack started by global setup.
export default defineConfig({
  test: {
    projects: [
      mergeConfig(viteConfig, {
        test: {
          name: 'app',
          environment: 'jsdom',
          globals: true,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          // Form tests type into many fields; on a loaded 2-core CI machine 5 s is too tight.
          testTimeout: 30_000,
        },
      }),
      {
        test: {
          name: 'stack',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts', 'supabase/local/**/*.test.ts', 'tests/**/*.test.ts'],
          globalSetup: ['supabase/tests/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          teardownTimeout: 60_000,
        },
      },
    ],
  },
});
