import path from 'node:path';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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
export const PRELOADED_ROUTES = [
  { module: 'src/app/routes/home.tsx', path: '^/$' },
  { module: 'src/app/routes/search.tsx', path: '^/search/[^/]+/?$' },
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
        const script =
          `(function(){var r=${JSON.stringify(routes)};for(var i=0;i<r.length;i++)` +
          `if(new RegExp(r[i][0]).test(location.pathname)){r[i][1].forEach(function(h){` +
          `var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)});break}})()`;
        // Right after <meta charset> (which must stay in the first 1024 bytes) and before the stylesheet:
        // an inline script after a stylesheet waits for it to download.
        const charset = /<meta charset="UTF-8" \/>\n/;
        if (!charset.test(html)) throw new Error('route preload: index.html has no <meta charset="UTF-8" />');
        return html.replace(charset, (m) => `${m}    <script>${script}</script>\n`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), routePreload()],
  // @supabase/auth-ui-react pins its own React 18 copy; one React for the whole app avoids "invalid hook call".
  // The functions' shared code imports pinned `npm:name@version[/path]` specifiers (Deno); the app
  // resolves them to the same packages in node_modules (src/types/npm-specifiers.d.ts types them).
  resolve: {
    alias: [{ find: '@', replacement: path.resolve(import.meta.dirname, 'src') }, npmSpecifierAlias],
    dedupe: ['react', 'react-dom'],
  },
  // Pages are lazy chunks, so Vite would find their dependencies only when a page first opens and
  // then reload the browser mid-session ("Outdated Optimize Dep"). Scanning every page at start-up
  // pre-bundles them all at once.
  optimizeDeps: { entries: ['index.html', 'src/**/*.tsx', '!src/**/*.test.tsx', '!src/testing/**'] },
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
