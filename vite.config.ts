import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The legacy /api/v1 lives in the `api` edge function; the dev server forwards to it (DESIGN.md section 4).
const apiUrl = process.env.SCAMCHECK_API_URL ?? process.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // @supabase/auth-ui-react pins its own React 18 copy; one React for the whole app avoids "invalid hook call".
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') }, dedupe: ['react', 'react-dom'] },
  server: {
    proxy: {
      '/api/v1': { target: apiUrl, changeOrigin: true, rewrite: (p) => `/functions/v1/api${p}` },
    },
  },
});
