import { vi } from 'vitest';

/** One request the app's supabase-js client sent, as the fake saw it. */
export interface FakeRequest {
  method: string;
  url: URL;
  /** e.g. '/rest/v1/news' or '/storage/v1/object/news-banners/<path>'. */
  path: string;
  headers: Headers;
  /** JSON bodies parsed; uploads (File, FormData) as sent. */
  body: unknown;
}

/** Answers one request, or returns undefined for 'not mine' (the fake then fails the request loudly). */
export type FakeRoute = (req: FakeRequest) => Response | undefined | Promise<Response | undefined>;

/** A JSON answer, as PostgREST and Storage send them. */
export function json(
  body: unknown,
  { status = 200, headers = {} }: { status?: number; headers?: Record<string, string> } = {},
) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * Fakes the Supabase HTTP API for component tests. The app keeps its real supabase-js client, which
 * builds real requests and reads real answers; only `fetch` is replaced, so a test sees exactly what
 * the app would send (method, path, filters, headers, body) and decides what the server answers.
 * Restore with `vi.restoreAllMocks()`.
 */
export function fakeSupabase(route: FakeRoute) {
  const requests: FakeRequest[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const req: FakeRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url,
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: parseBody(init?.body),
    };
    requests.push(req);
    const res = await route(req);
    if (!res)
      return json(
        { message: `fake Supabase has no answer for ${req.method} ${url.pathname}${url.search}` },
        { status: 501 },
      );
    return res;
  });
  return {
    requests,
    /** The requests with this method whose path starts with `pathPrefix`. */
    sent: (method: string, pathPrefix: string) =>
      requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)),
  };
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return body ?? null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
