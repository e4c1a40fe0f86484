/**
 * The search index.html starts for a signed-out visitor who opens a results page directly: the request
 * runs while the app's JavaScript loads, which takes it off the page's largest-paint chain (Lighthouse,
 * docs/performance.md). The page takes the answer once, for the same search string; anything else (a
 * signed-in visitor, another search, a refetch) asks the function as usual.
 */
import { bootState, type EarlySearch } from './globals.ts';
import type { maySignIn } from './session';

export type { EarlySearch };

/**
 * Starts the early search on a results page (`/search/<value>`) when the visitor cannot be signed in
 * (signed-in visitors search through supabase-js with their session). Inlined into index.html's head by
 * src/boot/build/vite-plugins.ts with the project's address and anon key, so it stands alone (no
 * imports, nothing from outside its body); `mayBeSignedIn` is maySignIn (src/boot/session.ts).
 */
export function startEarlySearch(url: string, key: string, mayBeSignedIn: typeof maySignIn): void {
  try {
    const m = /^\/search\/([^/]+)\/?$/.exec(location.pathname);
    if (!m || !/^https?:/.test(url) || mayBeSignedIn()) return;
    const searchString = decodeURIComponent(m[1]);
    const boot = (window.__scamcheck = window.__scamcheck || {});
    boot.earlySearch = {
      searchString,
      answer: fetch(url + '/functions/v1/search', {
        method: 'POST',
        headers: { apikey: key, authorization: 'Bearer ' + key, 'content-type': 'application/json' },
        body: JSON.stringify({ searchString }),
      }),
    };
  } catch {
    // An address that does not decode, or no fetch: the app searches as usual.
  }
}

/** The early search's answer if it was for `searchString` and nobody took it yet; null otherwise. */
export function takeEarlySearch(searchString: string): Promise<Response> | null {
  const boot = bootState();
  const early = boot.earlySearch;
  if (!early || early.searchString !== searchString) return null;
  delete boot.earlySearch;
  return early.answer;
}
