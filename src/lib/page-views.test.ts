import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { env } from '@/config/env';
import { FLUSH_DELAY_MS } from './page-views';

// A fresh copy of the module per test: its listeners are added by the first view it records, so with one
// shared copy only the first test would run that code (and Stryker's per-test coverage would credit it alone).
let flushPageViews: () => void;
let recordPageView: (path: string) => void;
let resetPageViews: () => void;
let setPageViewCaller: (next: { accessToken: string | null }) => void;

describe('page views', () => {
  let fetchSpy: ReturnType<typeof vi.fn>;

  beforeEach(async () => {
    vi.resetModules();
    ({ flushPageViews, recordPageView, resetPageViews, setPageViewCaller } = await import('./page-views'));
    vi.useFakeTimers();
    fetchSpy = vi.fn().mockResolvedValue(new Response('{}', { status: 201 }));
    vi.stubGlobal('fetch', fetchSpy);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const sentBodies = () =>
    fetchSpy.mock.calls.map(
      ([, init]) => JSON.parse((init as RequestInit).body as string) as { paths: string[] },
    );

  it('sends the views of a few seconds as one keepalive POST to the visitor function, as the user', () => {
    setPageViewCaller({ accessToken: 'user-token' });
    recordPageView('/');
    recordPageView('/about');
    recordPageView('/news');
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`${env.VITE_SUPABASE_URL}/functions/v1/visitor`);
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer user-token');
    expect(sentBodies()).toEqual([{ paths: ['/', '/about', '/news'] }]);
  });

  it('holds views until the session is known, then files them for an anonymous visitor with the anon key', () => {
    recordPageView('/');
    vi.advanceTimersByTime(FLUSH_DELAY_MS * 3);
    expect(fetchSpy).not.toHaveBeenCalled();
    setPageViewCaller({ accessToken: null });
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sentBodies()).toEqual([{ paths: ['/'] }]);
    expect(new Headers((fetchSpy.mock.calls[0][1] as RequestInit).headers).get('authorization')).toBe(
      `Bearer ${env.VITE_SUPABASE_ANON_KEY}`,
    );
  });

  it('sends a full batch of 20 at once and the rest later; leaving the page sends what is queued', () => {
    setPageViewCaller({ accessToken: null });
    for (let i = 0; i < 21; i++) recordPageView(`/p${i}`);
    expect(sentBodies()).toHaveLength(1);
    expect(sentBodies()[0].paths).toHaveLength(20);
    window.dispatchEvent(new Event('pagehide'));
    expect(sentBodies()).toEqual([
      { paths: Array.from({ length: 20 }, (_, i) => `/p${i}`) },
      { paths: ['/p20'] },
    ]);
    flushPageViews();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
  });
  it('sends with the anon key as apikey and a JSON body', () => {
    setPageViewCaller({ accessToken: 'user-token' });
    recordPageView('/');
    flushPageViews();
    const headers = new Headers((fetchSpy.mock.calls[0][1] as RequestInit).headers);
    expect(headers.get('apikey')).toBe(env.VITE_SUPABASE_ANON_KEY);
    expect(headers.get('content-type')).toBe('application/json');
  });

  it('waits the full delay from the first view, not from when the session became known', () => {
    setPageViewCaller({ accessToken: null });
    vi.advanceTimersByTime(2000);
    recordPageView('/');
    vi.advanceTimersByTime(FLUSH_DELAY_MS - 1);
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(sentBodies()).toEqual([{ paths: ['/'] }]);
  });

  it('starts a new delay for views recorded after the page was hidden', () => {
    setPageViewCaller({ accessToken: null });
    recordPageView('/a');
    vi.advanceTimersByTime(1000);
    window.dispatchEvent(new Event('pagehide'));
    expect(sentBodies()).toEqual([{ paths: ['/a'] }]);
    vi.advanceTimersByTime(1000);
    recordPageView('/b');
    // The first view's timer is gone: /b goes out FLUSH_DELAY_MS after it was recorded.
    vi.advanceTimersByTime(FLUSH_DELAY_MS - 1);
    expect(sentBodies()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sentBodies()).toEqual([{ paths: ['/a'] }, { paths: ['/b'] }]);
  });

  it('sends when the page is hidden, not when it shows again', () => {
    setPageViewCaller({ accessToken: null });
    const visibility = (state: DocumentVisibilityState) => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    };
    recordPageView('/a');
    visibility('visible');
    expect(fetchSpy).not.toHaveBeenCalled();
    visibility('hidden');
    expect(sentBodies()).toEqual([{ paths: ['/a'] }]);
    visibility('visible');
  });

  it('forgets queued views and the caller on reset', () => {
    setPageViewCaller({ accessToken: null });
    recordPageView('/a');
    resetPageViews();
    vi.advanceTimersByTime(FLUSH_DELAY_MS * 2);
    recordPageView('/b');
    vi.advanceTimersByTime(FLUSH_DELAY_MS * 2);
    expect(fetchSpy).not.toHaveBeenCalled();
    setPageViewCaller({ accessToken: null });
    vi.advanceTimersByTime(FLUSH_DELAY_MS);
    expect(sentBodies()).toEqual([{ paths: ['/b'] }]);
  });
});
