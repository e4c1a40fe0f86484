import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The legacy /api/v1 lives in the `api` edge function; the dev server forwards to it (DESIGN.md section 4):
// {APP_URL}/api/v1/x -> {API_URL}/functions/v1/api/v1/x, where the function sees /api/v1/x.
const apiUrl = process.env.SCAMCHECK_API_URL ?? process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321';

/** Deno's pinned `npm:name@version[/path]` specifiers, resolved to the same packages in node_modules. */
export const npmSpecifierAlias = { find: /^npm:((?:@[^/@]+\/)?[^/@]+)@[^/]+(\/.*)?$/, replacement: '$1$2' };

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    proxy: {
      '/api/v1': { target: apiUrl, changeOrigin: true, rewrite: (p) => `/functions/v1${p}` },
    },
  },
});
