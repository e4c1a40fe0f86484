import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import tseslint from 'typescript-eslint';

/**
 * The app's layers (docs/architecture.md): app -> features -> shared (components, lib, config, types,
 * testing). A feature imports nothing from another feature, and shared code imports no feature and no
 * route: what two features need goes down a layer. The route tree (src/app) composes features.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
// src/testing (test harness) may wrap the app's providers, so it is not in the shared layer.
// src/boot (the first load) is shared too: features take the page shell's hand-over from it. Its entry
// (main.tsx) and its build folder (the page shells rendered at build time) compose the app like src/app.
const shared = ['components', 'lib', 'config', 'types'].map((dir) => `./src/${dir}`);
const bootRuntime = ['./src/boot/*.ts'];

/**
 * The edge functions' shared modules that run unchanged in a browser (no Deno, Node or server-only
 * code; their own imports stay in this list): the only files of supabase/ the SPA may import.
 */
const ISOMORPHIC_SHARED = [
  'api-keys.ts',
  'canonical.ts',
  'check-message.ts',
  'crypto-address.ts',
  'database.ts',
  'database.types.ts',
  'limits.ts',
  'message-shape.ts',
  'owner-statements.ts',
  'platform-hosts.ts',
  'range.ts',
  'search-result.ts',
  'social-bio-platforms.ts',
  'text-signals.ts',
];
const layerZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message:
      'A feature may not import another feature: compose them in src/app, or move the shared part down a layer.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features may not import from src/app (imports only go down: app -> features -> shared).',
  },
  {
    target: [...shared, ...bootRuntime],
    from: ['./src/features', './src/app'],
    message: 'Shared code (components, lib, config, types, boot) may not import features or routes.',
  },
  {
    target: './src',
    from: './supabase',
    except: ISOMORPHIC_SHARED.map((file) => `./functions/_shared/${file}`),
    message:
      'The SPA may import only the isomorphic modules of supabase/functions/_shared (ISOMORPHIC_SHARED in eslint.config.js).',
  },
];

/**
 * The local stack is a package of its own (@scamcheck/local-supabase, in supabase/local): everything
 * else (the app, the product's tests, scripts and its adapter in supabase/project) reaches it only
 * through its public entries, the package name and its `/testing` and `/cli` exports, never by a path
 * into its files. The SPA may not import it at all.
 */
const STACK_INTERNALS = '^(\\.{1,2}/)+(supabase/)?local(/|$)';
const STACK_PRIVATE_ENTRY = '^@scamcheck/local-supabase/(?!(testing|cli)$)';
const STACK_BOUNDARY_MESSAGE =
  "The local stack's files are its own: import '@scamcheck/local-supabase' (or its /testing, /cli entries), or a helper of the product's (supabase/tests/helpers.ts).";

/**
 * Issue 15: every screen is translated, so every component is checked; a new hard-coded text anywhere
 * in src fails lint.
 */
const I18N_CHECKED = ['src/**/*.tsx'];

export default tseslint.config(
  // shadcn components are generated code (STYLE.md); Deno functions are checked by `deno check`.
  {
    ignores: [
      'dist',
      'node_modules',
      '.supabase-local',
      'src/components/ui',
      'supabase/functions',
      'supabase/local/deno',
      'supabase/functions/_shared/database.types.ts',
      'tests/artifacts',
    ],
  },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Parse .ts/.tsx when following imports (no-cycle reads the imported files).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The local stack is publishable on its own: every package its files import is declared in its own
    // package.json (supabase/local/package.json), not only in the repository's. Its tests and test
    // fixtures may use its devDependencies; the rest, dependencies or (optional) peerDependencies.
    files: ['supabase/local/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
    },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          packageDir: [new URL('./supabase/local', import.meta.url).pathname],
          devDependencies: ['supabase/local/**/*.test.ts', 'supabase/local/tests/**'],
          optionalDependencies: false,
          peerDependencies: true,
          includeTypes: true,
        },
      ],
    },
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    ignores: ['supabase/local/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: STACK_INTERNALS, message: STACK_BOUNDARY_MESSAGE },
            { regex: STACK_PRIVATE_ENTRY, message: STACK_BOUNDARY_MESSAGE },
          ],
        },
      ],
      // import() too (no-restricted-imports reads static imports only).
      'no-restricted-syntax': [
        'error',
        {
          // esquery's regular expressions cannot hold a slash: \u002f stands for it.
          selector: `ImportExpression > Literal[value=/${STACK_INTERNALS.replaceAll('/', '\\u002f')}/]`,
          message: STACK_BOUNDARY_MESSAGE,
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: STACK_INTERNALS, message: STACK_BOUNDARY_MESSAGE },
            { regex: '^@scamcheck/local-supabase', message: 'The local stack is no part of the SPA.' },
          ],
        },
      ],
    },
  },
  // Issue 15: every user-facing text goes through the catalogues in src/i18n/locales (English and
  // Filipino). JSX text and the attributes people read or hear (labels, placeholders, titles, alt
  // text) must not be literal; the allow-list below is for what is not language (punctuation,
  // symbols, the brand name).
  {
    files: I18N_CHECKED,
    ignores: ['**/*.test.{ts,tsx}', 'src/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              'aria-label',
              'aria-description',
              'placeholder',
              'title',
              'alt',
              'label',
              'description',
              'lead',
            ],
          },
          words: {
            exclude: ['[0-9!-/:-@[-`{-~\\s—–·…©₱×→←↑↓•]+', 'ScamCheck', 'Scam', 'Check'],
          },
        },
      ],
    },
  },
);
