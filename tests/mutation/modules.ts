/**
 * The modules `npm run check:mutation` mutates: the files Stryker changes, the tsconfig its
 * TypeScript checker compiles them with, and the only test files that run per mutant (those that
 * test that module; running every component test per mutant would take hours on two cores).
 */
export interface MutationModule {
  tsconfig: string;
  files: string[];
  /**
   * Optional split of `files` into parts (Stryker `mutate` patterns, `file:startLine-endLine` for a
   * range), each run by Stryker on its own with its own incremental file. Stryker writes its
   * incremental file only when a whole run ends, so an interrupted run of a big module keeps nothing;
   * split, it keeps every part that finished. The parts must cover `files` exactly.
   */
  parts?: Record<string, string[]>;
  /** The vitest project the tests run in: 'app' (jsdom, the SPA's aliases) or 'units' (Node). */
  project: 'app' | 'units';
  tests: string[];
}

export const MODULES: Record<string, MutationModule> = {
  // Canonical identifiers, image checks, cookies and request schemas of the edge functions.
  shared: {
    tsconfig: 'tests/units/tsconfig.json',
    files: [
      'supabase/functions/_shared/canonical.ts',
      'supabase/functions/_shared/image.ts',
      'supabase/functions/_shared/cookies.ts',
      'supabase/functions/_shared/schemas.ts',
    ],
    // About 1,400 mutants, two hours or more on a busy machine: five parts, cut between functions (the last
    // range runs to the end of the file).
    parts: {
      canonical: ['supabase/functions/_shared/canonical.ts'],
      'cookies-schemas': ['supabase/functions/_shared/cookies.ts', 'supabase/functions/_shared/schemas.ts'],
      'image-jpeg': ['supabase/functions/_shared/image.ts:1-222'],
      'image-png-gif': ['supabase/functions/_shared/image.ts:223-441'],
      'image-webp': ['supabase/functions/_shared/image.ts:442-99999'],
    },
    project: 'units',
    tests: [
      'tests/units/canonical.test.ts',
      'tests/units/cookies.test.ts',
      'tests/units/schemas.test.ts',
      'supabase/functions/_shared/image_test.ts',
    ],
  },
  // The legacy API's router and the code that shapes its answers and errors (the route handlers
  // call the database through supabase-js and are tested against the stack, not per mutant).
  api: {
    tsconfig: 'tests/units/tsconfig.json',
    files: [
      'supabase/functions/api/router.ts',
      'supabase/functions/api/present.ts',
      'supabase/functions/api/db.ts',
      'supabase/functions/api/otp-id.ts',
    ],
    project: 'units',
    tests: [
      'tests/units/api-router.test.ts',
      'tests/units/api-routes.test.ts',
      'tests/units/api-shapes.test.ts',
    ],
  },
  // The SPA's rules: identifier validation, formatting, image limits, error text (errors.ts words every
  // server message through server-errors.ts, so the known messages' translation is part of it); chart
  // periods, the HTTP status a retry depends on, page views, the early search and the home page's shell.
  // The rest of src/lib re-exports supabase/functions/_shared modules measured under `shared` or
  // tested by the stack (canonical, check-message, range-lookup, search-result) or is glue around a
  // library (supabase, load-supabase, functions, react-query, utils, auth.tsx, theme.tsx).
  lib: {
    tsconfig: 'tsconfig.app.json',
    files: [
      'src/lib/identifiers.ts',
      'src/lib/format.ts',
      'src/lib/image-file.ts',
      'src/lib/errors.ts',
      'src/lib/server-errors.ts',
      'src/lib/text.ts',
      'src/lib/periods.ts',
      'src/lib/http-status.ts',
      'src/lib/page-views.ts',
      'src/boot/early-search.ts',
      'src/boot/page-shell.ts',
    ],
    // `core` keeps the incremental file of the six files measured first; `extra` and `shell` were added later.
    parts: {
      core: [
        'src/lib/identifiers.ts',
        'src/lib/format.ts',
        'src/lib/image-file.ts',
        'src/lib/errors.ts',
        'src/lib/server-errors.ts',
        'src/lib/text.ts',
      ],
      extra: [
        'src/lib/periods.ts',
        'src/lib/http-status.ts',
        'src/lib/page-views.ts',
        'src/boot/early-search.ts',
      ],
      shell: ['src/boot/page-shell.ts'],
    },
    project: 'app',
    tests: [
      'src/lib/identifiers.test.ts',
      'src/lib/format.test.ts',
      'src/lib/image-file.test.ts',
      'src/lib/errors.test.ts',
      'src/lib/server-errors.test.ts',
      'src/lib/periods.test.ts',
      'src/lib/http-status.test.ts',
      // The retry rule built on http-status.ts.
      'src/lib/react-query.test.ts',
      'src/lib/page-views.test.ts',
      'src/boot/early-search.test.ts',
      'src/boot/page-shell.test.ts',
    ],
  },
  // The local Auth's token rules: code hashes, codes, passwords, redirects, the e-mail rate, bearer
  // tokens and JWTs (sessions.ts issues and rotates sessions in the database; the stack's auth suites test it).
  auth: {
    tsconfig: 'tests/mutation/tsconfig.auth.json',
    files: ['supabase/local/auth/context.ts'],
    project: 'units',
    tests: ['supabase/local/auth/context.test.ts'],
  },
};
