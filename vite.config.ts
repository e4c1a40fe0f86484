import path from 'node:path';
import { defineConfig, loadEnv, type AliasOptions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import fs from 'node:fs';
import { OCR_ASSET_BASE, OCR_ASSET_FILES } from './src/features/check/ocr/assets.ts';
import { firstLoad } from './src/boot/build/vite-plugins.ts';
import { parseEnv } from './src/config/env-schema.ts';

// The legacy /api/v1 lives in the `api` edge function; the dev server forwards to it (DESIGN.md section 4):
// {APP_URL}/api/v1/x -> {API_URL}/functions/v1/api/v1/x, where the function sees /api/v1/x.
const apiUrl = process.env.SCAMCHECK_API_URL ?? process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321';

/** Deno's pinned `npm:name@version[/path]` specifiers, resolved to the same packages in node_modules. */
export const npmSpecifierAlias = { find: /^npm:((?:@[^/@]+\/)?[^/@]+)@[^/]+(\/.*)?$/, replacement: '$1$2' };

const alias: AliasOptions = [
  { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
  npmSpecifierAlias,
];

/**
 * The app's VITE_* settings, checked here in Node (src/config/env-schema.ts: a wrong value stops the
 * build or the dev server) and written into the app as one constant that src/config/env.ts reads, so
 * the first load carries neither the validator nor its work (docs/performance.md).
 */
function appEnv(): Plugin {
  return {
    name: 'scamcheck-app-env',
    config(config, { mode }) {
      // Where Vite itself reads .env files: envDir, relative to the root, which defaults to the folder of
      // this file (the project's); `false` reads none (process.env's VITE_* variables still count).
      const envDir =
        config.envDir === false
          ? false
          : path.resolve(config.root ?? import.meta.dirname, config.envDir ?? '');
      const env = loadEnv(mode, envDir, config.envPrefix ?? 'VITE_');
      return { define: { __SCAMCHECK_ENV__: JSON.stringify(parseEnv(env)) } };
    },
  };
}

/**
 * The OCR engine's files (/check reads screenshots on the device, issue 35): Tesseract's worker, its
 * WebAssembly core and the English model, served from the npm packages by the dev server and copied
 * into the build under OCR_ASSET_BASE. Nothing is fetched from a CDN.
 */
function ocrAssets(): Plugin {
  const source = (file: string) => path.join(import.meta.dirname, 'node_modules', OCR_ASSET_FILES[file]);
  return {
    name: 'scamcheck-ocr-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url?.split('?')[0] ?? '';
        if (!url.startsWith(`${OCR_ASSET_BASE}/`)) return next();
        const file = url.slice(OCR_ASSET_BASE.length + 1);
        if (!Object.hasOwn(OCR_ASSET_FILES, file)) return next();
        res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream');
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        fs.createReadStream(source(file)).pipe(res);
      });
    },
    generateBundle() {
      for (const file of Object.keys(OCR_ASSET_FILES))
        this.emitFile({
          type: 'asset',
          fileName: `${OCR_ASSET_BASE.slice(1)}/${file}`,
          source: fs.readFileSync(source(file)),
        });
    },
  };
}

/**
 * With SCAMCHECK_BUNDLE_GRAPH=<file> (the test stack's build, supabase/tests/global-setup.ts), a build
 * writes its chunk graph to that file, outside the output folder: each chunk's file, static imports and
 * modules, which tests/bundle-size.test.ts needs to measure this build instead of building the app again.
 */
function bundleGraph(): Plugin {
  return {
    name: 'scamcheck-bundle-graph',
    apply: 'build',
    writeBundle(options, bundle) {
      const file = process.env.SCAMCHECK_BUNDLE_GRAPH;
      if (!file) return;
      const chunks = Object.values(bundle).flatMap((c) =>
        c.type === 'chunk'
          ? [
              {
                fileName: c.fileName,
                imports: c.imports,
                isEntry: c.isEntry,
                facadeModuleId: c.facadeModuleId,
                moduleIds: c.moduleIds,
              },
            ]
          : [],
      );
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ outDir: options.dir, chunks }));
    },
  };
}

export default defineConfig({
  plugins: [
    appEnv(),
    react(),
    tailwindcss(),
    ...firstLoad(import.meta.dirname, alias),
    ocrAssets(),
    bundleGraph(),
  ],
  build: {
    rolldownOptions: {
      output: {
        // Everything the entry imports statically goes into the entry's chunk, instead of ~15 small shared
        // chunks: each request costs a phone's main thread a few milliseconds to start, and the home page
        // requests them all at once after its first paint (Lighthouse TBT, docs/performance.md).
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  // @supabase/auth-ui-react pins its own React 18 copy; one React for the whole app avoids "invalid hook call".
  // The functions' shared code imports pinned `npm:name@version[/path]` specifiers (Deno); the app
  // resolves them to the same packages in node_modules (src/types/npm-specifiers.d.ts types them).
  resolve: {
    alias,
    dedupe: ['react', 'react-dom'],
  },
  // Pages are lazy chunks, so Vite would find their dependencies only when a page first opens and
  // then reload the browser mid-session ("Outdated Optimize Dep"). Scanning every page at start-up
  // pre-bundles them all at once.
  // tesseract.js and pdf-lib are imported only by lazily imported .ts modules (/check's screenshot reader,
  // the complaint pack's PDF), which the scan does not reach: without `include`, the first image read or
  // PDF re-optimises and reloads every open page.
  optimizeDeps: {
    entries: ['index.html', 'src/**/*.tsx', '!src/**/*.test.tsx', '!src/testing/**'],
    include: ['tesseract.js', 'pdf-lib'],
  },
  // Dev servers running side by side (npm start, test stacks on their own ports) would otherwise share
  // one pre-bundle folder and keep invalidating each other's bundles (504 Outdated Optimize Dep).
  cacheDir: process.env.SCAMCHECK_VITE_CACHE_DIR || 'node_modules/.vite',
  server: {
    // The local stack keeps Postgres's data and stored files under .supabase-local/ (and test runs
    // write their own there): the dev server watched every WAL and object write, which cost `npm start`
    // seconds of CPU per minute under load. Mutation testing's sandboxes and test artifacts likewise.
    watch: {
      ignored: [
        '**/.supabase-local/**',
        '**/.stryker-tmp/**',
        '**/tests/artifacts/**',
        '**/reports/mutation/**',
      ],
    },
    proxy: {
      '/api/v1': { target: apiUrl, changeOrigin: true, rewrite: (p) => `/functions/v1${p}` },
    },
  },
});
