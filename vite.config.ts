import path from 'node:path';
import { defineConfig, runnerImport, type AliasOptions, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import fs from 'node:fs';
import { OCR_ASSET_BASE, OCR_ASSET_FILES } from './src/features/check/ocr/assets.ts';
import {
  loadAppAfterShell,
  pageShellLanguage,
  showPageShell,
  showResultsShell,
} from './src/lib/page-shell.ts';
import { headlineFacts, identifierSegments } from './src/lib/search-headline.ts';

// The legacy /api/v1 lives in the `api` edge function; the dev server forwards to it (DESIGN.md section 4):
// {APP_URL}/api/v1/x -> {API_URL}/functions/v1/api/v1/x, where the function sees /api/v1/x.
const apiUrl = process.env.SCAMCHECK_API_URL ?? process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321';

/** Deno's pinned `npm:name@version[/path]` specifiers, resolved to the same packages in node_modules. */
export const npmSpecifierAlias = { find: /^npm:((?:@[^/@]+\/)?[^/@]+)@[^/]+(\/.*)?$/, replacement: '$1$2' };

/**
 * The pages people open from outside most (home, and a shared results page) are lazy route chunks, so
 * the browser would learn of them only after the entry chunk ran: one more round trip before the page
 * can paint. In a build, index.html gets a small script that, on those paths, adds modulepreload links
 * for the route's chunks at once, so they download alongside the entry (Lighthouse, docs/benchmarks.md).
 */
/** A results page's address, as index.html's early search recognises it. */
const RESULTS_PATH = '^/search/[^/]+/?$';

export const PRELOADED_ROUTES = [
  { module: 'src/app/routes/home.tsx', path: '^/$' },
  { module: 'src/app/routes/search.tsx', path: RESULTS_PATH },
];

function routePreload(): Plugin {
  let base = '/';
  return {
    name: 'scamcheck-route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks = Object.values(ctx.bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (start: Rolldown.OutputChunk, into = new Set<string>()) => {
          if (!into.has(start.fileName)) {
            into.add(start.fileName);
            for (const name of start.imports) {
              const next = byName.get(name);
              if (next) closure(next, into);
            }
          }
          return into;
        };
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) return html;
        const initial = closure(entry);
        const routes = PRELOADED_ROUTES.map(({ module, path: pattern }) => {
          const chunk = chunks.find((c) => c.facadeModuleId === path.resolve(import.meta.dirname, module));
          if (!chunk) throw new Error(`route preload: no chunk for ${module}`);
          return [pattern, [...closure(chunk)].filter((f) => !initial.has(f)).map((f) => base + f)];
        });
        // Vite's own tags for the entry: the module script and its modulepreload links. They move into the
        // script below, which adds them at once, except on the home page and a results page: there the
        // page shell paints first and then calls window.__scamcheckLoadApp (see pageShell; a results page
        // paints once its early answer is in), so a phone's first paint does not share the connection with
        // ~200 KB of JavaScript, nor wait for it (Lighthouse, docs/benchmarks.md).
        const entryTag = new RegExp(
          `<script type="module" crossorigin src="${base}${entry.fileName}"></script>\\n?\\s*`,
        );
        if (!entryTag.test(html))
          throw new Error(`route preload: no <script> for ${entry.fileName} in index.html`);
        html = html.replace(entryTag, '');
        const preloads: string[] = [];
        html = html.replace(
          /<link rel="modulepreload" crossorigin href="([^"]+)">\n?\s*/g,
          (_, href: string) => {
            preloads.push(href);
            return '';
          },
        );
        const script =
          `(function(){var r=${JSON.stringify(routes)},p=${JSON.stringify(preloads)},e=${JSON.stringify(base + entry.fileName)};` +
          `function add(h){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.appendChild(l)}` +
          `for(var i=0;i<r.length;i++)if(new RegExp(r[i][0]).test(location.pathname)){p=p.concat(r[i][1]);break}` +
          `function load(){window.__scamcheckLoadApp=null;p.forEach(add);var s=document.createElement('script');` +
          `s.type='module';s.crossOrigin='';s.src=e;document.head.appendChild(s)}` +
          `if(location.pathname==='/'||new RegExp(${JSON.stringify(RESULTS_PATH)}).test(location.pathname))window.__scamcheckLoadApp=load;else load()})()`;
        // Right after <meta charset> (which must stay in the first 1024 bytes) and before the stylesheet:
        // an inline script after a stylesheet waits for it to download.
        const charset = /<meta charset="UTF-8" \/>\n/;
        if (!charset.test(html)) throw new Error('route preload: index.html has no <meta charset="UTF-8" />');
        return html.replace(charset, (m) => `${m}    <script>${script}</script>\n`);
      },
    },
  };
}

const alias: AliasOptions = [
  { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
  npmSpecifierAlias,
];

/**
 * A phone's first paint of the home page (issue 12, mobile Lighthouse), in a build:
 * - the page shell (src/lib/page-shell.ts): the home page, rendered with the app's own components in
 *   both languages and themes (src/app/page-shell.tsx, run in Node through Vite's module runner), goes
 *   into index.html as templates, with the script that shows the right one before the app's code runs;
 * - the stylesheet is inlined, so the first paint waits for nothing once the HTML is in.
 */
function pageShell(): Plugin {
  let base = '/';
  return {
    name: 'scamcheck-page-shell',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        let inlined = 0;
        html = html.replace(/<link rel="stylesheet" crossorigin href="([^"]+)">/g, (_, href: string) => {
          const asset = bundle[href.slice(base.length)];
          if (asset?.type !== 'asset') throw new Error(`page shell: no stylesheet ${href} in the build`);
          const css =
            typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          if (css.includes('</style')) throw new Error(`page shell: ${href} cannot be inlined`);
          inlined++;
          // The disabled <link> is never fetched; it is there for Vite's preload helper, which otherwise
          // fetches and applies the same stylesheet again before every lazy chunk that shares a module
          // with the entry (it looks for a stylesheet <link> with this href): 12 KB and a style
          // recalculation of the whole page after the first paint (Lighthouse, docs/benchmarks.md).
          return `<style>${css}</style><link rel="stylesheet" crossorigin href="${href}" disabled>`;
        });
        if (!inlined) throw new Error('page shell: index.html links no stylesheet to inline');

        const { module } = await runnerImport<{ renderPageShells: () => Promise<Record<string, string>> }>(
          '/src/app/page-shell.tsx',
          {
            root: import.meta.dirname,
            configFile: false,
            logLevel: 'error',
            plugins: [react()],
            // The functions' shared code reaches packages through `npm:` aliases, which the runner
            // inlines instead of leaving to Node: it runs ES modules inline, not CommonJS, so tldts (whose
            // `main` is CommonJS and which has no `exports`) is pointed at its ES module build.
            resolve: {
              alias: [
                {
                  find: /^npm:tldts@[^/]+$/,
                  replacement: path.resolve(import.meta.dirname, 'node_modules/tldts/dist/es6/index.js'),
                },
                ...(Array.isArray(alias) ? alias : []),
              ],
              dedupe: ['react', 'react-dom'],
            },
          },
        );
        const shells = await module.renderPageShells();
        const templates = Object.entries(shells).map(
          ([id, markup]) => `<template id="${id}">${markup}</template>`,
        );
        const root = '<div id="root"></div>';
        if (!html.includes(root)) throw new Error(`page shell: index.html has no ${root}`);
        return html.replace(
          root,
          `${root}\n    ${templates.join('\n    ')}\n    <script>(${showPageShell.toString()})(${pageShellLanguage.toString()});` +
            `(${loadAppAfterShell.toString()})();` +
            `(${showResultsShell.toString()})(${headlineFacts.toString()},${identifierSegments.toString()},${pageShellLanguage.toString()})</script>`,
        );
      },
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

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreload(), pageShell(), ocrAssets()],
  build: {
    rolldownOptions: {
      output: {
        // Everything the entry imports statically goes into the entry's chunk, instead of ~15 small shared
        // chunks: each request costs a phone's main thread a few milliseconds to start, and the home page
        // requests them all at once after its first paint (Lighthouse TBT, docs/benchmarks.md).
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
