import { env } from '@/config/env';

/**
 * Page views for the admin's Visitor Stats (docs/behaviour.md §7): one per route change, for everyone,
 * signed in or not. They never slow a page: views are queued, and a batch goes out a few seconds after
 * the first one (so after the first paint), when the queue is full, or as the page is hidden or left,
 * as one `keepalive` POST to the `visitor` edge function, which resolves the location on the server
 * and applies the database's limits. Only the path is sent (no query string, no address).
 */

/** How long views wait to go out together. */
export const FLUSH_DELAY_MS = 3000;
/** The most views one request carries (the `visitor` function takes at most 20). */
export const MAX_BATCH = 20;

interface Caller {
  /** The user's access token, or null for an anonymous visitor. */
  accessToken: string | null;
}

let queue: string[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** Unknown until supabase-js has read any stored session: views wait, so they are not filed as anonymous. */
let caller: Caller | undefined;
let listening = false;

/** Queues one page view. */
export function recordPageView(path: string) {
  queue.push(path);
  listen();
  if (queue.length >= MAX_BATCH) flushPageViews();
  else timer ??= setTimeout(flushPageViews, FLUSH_DELAY_MS);
}

/** Who the views belong to; called with each change of session. Held views go out once it is known. */
export function setPageViewCaller(next: Caller) {
  const first = caller === undefined;
  caller = next;
  if (first && queue.length > 0 && timer === undefined) timer = setTimeout(flushPageViews, FLUSH_DELAY_MS);
}

/** Sends what is queued now (also on pagehide, so views of a closing tab are not lost). */
export function flushPageViews() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (caller === undefined || queue.length === 0) return;
  while (queue.length > 0) send(queue.splice(0, MAX_BATCH), caller);
}

function send(paths: string[], { accessToken }: Caller) {
  // keepalive lets the request outlive the page; the answer (201, or 429 past the limit) is not needed.
  void fetch(`${env.VITE_SUPABASE_URL}/functions/v1/visitor`, {
    method: 'POST',
    keepalive: true,
    headers: {
      apikey: env.VITE_SUPABASE_ANON_KEY,
      authorization: `Bearer ${accessToken ?? env.VITE_SUPABASE_ANON_KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ paths }),
  }).catch(() => undefined);
}

function listen() {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('pagehide', flushPageViews);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushPageViews();
  });
}

/** For tests: forget queued views and the caller. */
export function resetPageViews() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  queue = [];
  caller = undefined;
}
