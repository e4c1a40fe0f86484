import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig, { npmSpecifierAlias } from './vite.config.ts';

// Three projects: the SPA's component tests in jsdom; unit tests of the edge functions' and local
// stack's own code in Node (tests/units, no stack; the functions' `npm:` imports resolve to
// node_modules); and everything that needs the local stack (database, functions, browser tests, and the
// stack package's own conformance tests in supabase/local/tests), which share one stack started by
// global setup (ScamCheck's stack: supabase/project).
export default defineConfig({
  test: {
    // heartbeat: every two minutes, what the run is waiting for (a silent hang in CI showed nothing).
    reporters: ['default', './tests/reporters/heartbeat.ts'],
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
        resolve: {
          // Deno's pinned `npm:name@version/sub` specifiers, as Node resolves the same packages.
          alias: [npmSpecifierAlias],
        },
        test: {
          name: 'units',
          environment: 'node',
          // image_test.ts: the Deno unit tests of the image checks.
          include: [
            'tests/units/**/*.test.ts',
            'supabase/local/auth/**/*.test.ts',
            'supabase/local/rest/**/*.test.ts',
            'supabase/functions/_shared/image_test.ts',
            // Reading screenshots (issue 35): Chromium renders the test set, Tesseract reads it; no stack.
            'tests/ocr/**/*.test.ts',
          ],
          setupFiles: ['tests/units/deno-shim.ts'],
          // The image checks build a 304 KB deflate bomb; on a loaded 2-core machine that alone passed 5 s.
          testTimeout: 30_000,
        },
      },
      {
        // The functions' shared code (message checking) imports pinned npm: specifiers.
        resolve: { alias: [npmSpecifierAlias] },
        test: {
          name: 'stack',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts', 'supabase/local/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [
            'tests/units/**',
            'tests/ocr/**',
            'supabase/local/auth/**',
            'supabase/local/rest/**',
            '**/node_modules/**',
          ],
          globalSetup: ['supabase/tests/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          teardownTimeout: 60_000,
        },
      },
    ],
  },
});
