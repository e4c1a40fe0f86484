import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session, User } from '@supabase/supabase-js';
import { LoadingStatus } from '@/components/loading-status';
import { paths } from '@/config/paths';
import { toLanguage, type Language } from '@/i18n';
import { maySignIn } from '@/boot/session';
import { loadSupabase } from '@/lib/load-supabase';
import { whenSupabaseNeeded } from '@/lib/supabase-loaded';

/**
 * Signed-in state comes only from supabase-js: the session it stores and the events it emits
 * (sign-in, sign-out, token refresh, also from other tabs). Nothing else in the app keeps a copy.
 */
interface AuthState {
  session: Session | null;
  user: User | null;
  /** False until supabase-js has read any stored session, so guards do not bounce a signed-in user. */
  ready: boolean;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // A visitor with no stored session is known to be signed out at once: their pages (a shared results
  // page above all) run without waiting for supabase-js, which loads only once something needs it (a
  // page that uses it, or a sign-in in another tab).
  const [signedOutAtStart] = useState(() => !maySignIn());
  const [state, setState] = useState<AuthState>(() =>
    signedOutAtStart
      ? { session: null, user: null, ready: true }
      : { session: null, user: null, ready: false },
  );

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    const subscribe = () =>
      void loadSupabase().then((supabase) => {
        if (cancelled) return;
        const { data } = supabase.auth.onAuthStateChange((event, session) => {
          // Still signed out (the usual answer for signedOutAtStart): keep the state, re-render nothing.
          setState((prev) =>
            prev.ready && prev.session === session
              ? prev
              : { session, user: session?.user ?? null, ready: true },
          );
          // Whatever was cached belonged to the previous user (or to anon); RLS answers differ now.
          // After a sign-out the previous user's profile and role are dropped, not refetched: their
          // observers still hold the old user until React re-renders, and a refetch then went out
          // without a session (two 401s after every logout, issue 37).
          if (event === 'SIGNED_OUT') {
            void queryClient.cancelQueries({ queryKey: profileKeys.all });
            queryClient.removeQueries({ queryKey: profileKeys.all });
          }
          if (event === 'SIGNED_IN' || event === 'SIGNED_OUT' || event === 'USER_UPDATED') {
            void queryClient.invalidateQueries();
          }
        });
        unsubscribe = () => data.subscription.unsubscribe();
      });
    const cancelWait = signedOutAtStart ? whenSupabaseNeeded(subscribe) : (subscribe(), undefined);
    return () => {
      cancelled = true;
      cancelWait?.();
      unsubscribe?.();
    };
  }, [queryClient, signedOutAtStart]);

  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

export function useUser(): User | null {
  return useAuth().user;
}

export interface Profile {
  id: string;
  name: string;
  email: string;
  /** Object path in the avatars bucket, or null for the default icon. */
  avatarPath: string | null;
  isAdmin: boolean;
  /** The language the user chose ('en' or 'fil'); their e-mails are written in it. */
  language: Language;
}

export const profileKeys = {
  all: ['profile'] as const,
  current: (userId: string | undefined) => [...profileKeys.all, 'current', userId] as const,
};

/**
 * The signed-in user's profile and role. The role is decided in SQL (docs/architecture.md): the app
 * asks the database, never trusts user_metadata.
 */
export async function getCurrentProfile(user: User): Promise<Profile> {
  const supabase = await loadSupabase();
  const [profileResult, rolesResult] = await Promise.all([
    supabase.from('profiles').select('name, email, avatar_path, language').eq('id', user.id).maybeSingle(),
    // RLS lets users read their own rows of user_roles; the role itself is granted only in SQL.
    supabase.from('user_roles').select('role').eq('user_id', user.id),
  ]);
  if (profileResult.error) throw profileResult.error;
  if (rolesResult.error) throw rolesResult.error;
  const row = (profileResult.data ?? {}) as {
    name?: string | null;
    email?: string | null;
    avatar_path?: string | null;
    language?: string | null;
  };
  const roles = (rolesResult.data ?? []) as { role: string }[];
  const metaName = typeof user.user_metadata?.name === 'string' ? user.user_metadata.name : '';
  return {
    id: user.id,
    name: row.name || metaName || user.email || '',
    email: row.email || user.email || '',
    avatarPath: row.avatar_path ?? null,
    isAdmin: roles.some((r) => r.role === 'admin'),
    language: toLanguage(row.language),
  };
}

export function currentProfileQueryOptions(user: User | null) {
  return queryOptions({
    queryKey: profileKeys.current(user?.id),
    queryFn: () => getCurrentProfile(user!),
    enabled: !!user,
  });
}

export function useCurrentProfile() {
  const user = useUser();
  return useQuery(currentProfileQueryOptions(user));
}

/**
 * True while the user logs out of a guarded page: the guard then shows nothing instead of sending
 * them to the login prompt, and the logout takes them home (dashboard-topbar.tsx).
 */
let loggingOut = false;

export function setLoggingOut(value: boolean) {
  loggingOut = value;
}

/** Sends signed-out visitors to /login, remembering where they wanted to go. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, ready } = useAuth();
  const location = useLocation();
  const redirectTo = useMemo(() => `${location.pathname}${location.search}`, [location]);
  if (!ready) return <LoadingStatus />;
  if (!user) return loggingOut ? null : <Navigate to={paths.auth.login.getHref(redirectTo)} replace />;
  return <>{children}</>;
}
