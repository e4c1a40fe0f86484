/**
 * JSON answers and errors. Errors carry the legacy API's `msg` field (docs/behaviour.md §8: the client
 * toasts `response.data.msg`), so every function fails the same readable way; a refusal the app shows
 * also carries a stable `code` and its `params` (`{msg, code, params}`), which the app translates
 * instead of the English `msg` (src/lib/server-errors.ts, docs/behaviour.md §7).
 */
import { corsHeaders } from './cors.ts';

/** An error that becomes a JSON answer with its status and `{ msg }` instead of a 500. */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public extra: Record<string, unknown> = {},
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(corsHeaders)) h.set(k, v);
  h.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers: h });
}

export function errorResponse(
  status: number,
  msg: string,
  extra: Record<string, unknown> = {},
  headers: HeadersInit = {},
): Response {
  return json({ msg, ...extra }, status, headers);
}

/**
 * Turns anything thrown by a handler into an answer: HttpErrors keep their status; anything else is
 * logged (with the stack, for the operator) and answered with a generic 500 that leaks nothing.
 */
export function toErrorResponse(e: unknown): Response {
  if (e instanceof HttpError) return errorResponse(e.status, e.message, e.extra, e.headers);
  console.error(e);
  return errorResponse(500, 'Something went wrong, Please try again', { code: 'internal' });
}

/** A refusal's stable code and its parameters, as a function's error answer carries them. */
export type ErrorCode = {
  code: string;
  params?: Record<string, unknown>;
};

/**
 * The code the database gave a refusal: its hint is a JSON object `{"code": "...", ...params}` (the
 * migrations' raises, PostgREST passes the hint on as it is). `{}` when it has none, so the result can
 * be spread into an HttpError's extra.
 */
export function errorCodeOf(error: { hint?: string | null }): ErrorCode | Record<string, never> {
  if (!error.hint?.startsWith('{')) return {};
  try {
    const { code, ...params } = JSON.parse(error.hint) as Record<string, unknown>;
    return typeof code === 'string' ? { code, params } : {};
  } catch {
    return {};
  }
}

/** Seconds an overloaded server asks callers to wait before trying again. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * The database gave up on a statement because the server is overloaded, not because the request was
 * wrong: the role's statement timeout (57014; authenticated has 8 s, as on Supabase) ran out while it
 * queued for a lock or a CPU, or a deadlock (40P01) or serialization failure (40001) rolled it back.
 * Nothing was written, and the same request will most likely succeed a little later: 503 with
 * Retry-After, not a 502 that reads as a broken server.
 */
export function overloaded(error: { code?: string }): HttpError | null {
  if (!['57014', '40P01', '40001', '55P03'].includes(error.code ?? '')) return null;
  return new HttpError(
    503,
    'ScamCheck is busy right now, please try again in a few seconds',
    { retryAfter: BUSY_RETRY_AFTER_SECONDS, code: 'busy' },
    { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  );
}

/**
 * The database's rate limiter (private.rate_limit) answers 429 with code PT429,
 * 'limit=<name>; retry_after=<seconds>' in details and its code (`rate_limited`, with the limit's
 * name, max, per_seconds and retry_after) in the hint; supabase-js hands over the body only, so the
 * wait is read back from there for the Retry-After header.
 */
export function rateLimited(error: {
  code?: string;
  message?: string;
  details?: string | null;
  hint?: string | null;
}): HttpError | null {
  if (error.code !== 'PT429') return null;
  const retryAfter = Number(/retry_after=(\d+)/.exec(error.details ?? '')?.[1] ?? 60);
  return new HttpError(
    429,
    error.message ?? 'Too many requests, please try again later',
    { retryAfter, ...errorCodeOf(error) },
    {
      'Retry-After': String(retryAfter),
    },
  );
}
