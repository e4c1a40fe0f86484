/**
 * Whether supabase-js has been loaded, for a visitor who started signed out (src/lib/auth.tsx): kept apart
 * from load-supabase.ts, which imports '@/lib/supabase', so that module can announce itself here.
 */
import { isSessionKey } from '@/boot/session';

let loaded = false;
const loadedListeners = new Set<() => void>();

/** Called by '@/lib/supabase' once the client exists, whoever imported it. */
export function announceSupabaseLoaded() {
  loaded = true;
  for (const listener of [...loadedListeners]) listener();
  loadedListeners.clear();
}

/**
 * For a visitor who starts signed out (see maySignIn in src/boot/session.ts): runs `task` once supabase-js is needed after
 * all, that is when any page loads it (a login form, a report form...) or when another tab stores a
 * session (a sign-in there; supabase-js then reads it here). Until then an anonymous visitor's page
 * never downloads or runs supabase-js. Returns a cancel function.
 */
export function whenSupabaseNeeded(task: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    task();
  };
  const onStorage = (event: StorageEvent) => {
    if (isSessionKey(event.key) && event.newValue !== null) run();
  };
  const cancel = () => {
    loadedListeners.delete(run);
    window.removeEventListener('storage', onStorage);
  };
  if (loaded) {
    run();
    return () => undefined;
  }
  loadedListeners.add(run);
  window.addEventListener('storage', onStorage);
  return () => {
    done = true;
    cancel();
  };
}
