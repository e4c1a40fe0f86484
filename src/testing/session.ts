import { env } from '@/config/env';

/**
 * Stores a signed-in session where supabase-js looks for it (localStorage, `sb-<host>-auth-token`),
 * so the app's AuthProvider starts signed in, as after a real login. Far from expiry, so supabase-js
 * does not try to refresh it. Returns the session's user.
 */
export function storeSession(user: { id?: string; email?: string; name?: string } = {}) {
  const id = user.id ?? '5b0a4f1e-2c6d-4e8f-9a1b-3c5d7e9f1a2b';
  const email = user.email ?? 'maria@example.com';
  const key = `sb-${new URL(env.VITE_SUPABASE_URL).hostname.split('.')[0]}-auth-token`;
  const payload = btoa(JSON.stringify({ sub: id, role: 'authenticated', exp: 4102444800 })).replace(
    /=+$/,
    '',
  );
  const sessionUser = {
    id,
    email,
    aud: 'authenticated',
    role: 'authenticated',
    app_metadata: {},
    user_metadata: { name: user.name ?? 'Maria' },
    created_at: '2026-01-01T00:00:00Z',
  };
  localStorage.setItem(
    key,
    JSON.stringify({
      access_token: `eyJhbGciOiJIUzI1NiJ9.${payload}.c2ln`,
      refresh_token: 'refresh-token',
      token_type: 'bearer',
      expires_in: 3600,
      expires_at: 4102444800,
      user: sessionUser,
    }),
  );
  return sessionUser;
}
