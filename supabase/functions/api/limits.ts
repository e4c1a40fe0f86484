/**
 * Keyed limits for /api/v1 (issue 14, section 3). A caller with an API key (`X-API-Key: sck_...` or
 * `Authorization: Bearer sck_...`) spends from the key's bucket (limit `api.key`); anyone else from the
 * bucket of their hashed address (`api.anon`). The database decides (public.api_limit, through the one
 * limiter, private.rate_limit_take), so the counts hold across function instances; the key travels no
 * further than this function, which sends only its SHA-256.
 *
 * Every answer carries RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset and RateLimit-Policy
 * (draft-ietf-httpapi-ratelimit-headers); over the limit the answer is 429 with Retry-After too.
 */
import { HttpError, overloaded } from '../_shared/http.ts';
import { directPool } from '../_shared/postgres.ts';
import { z } from '../_shared/schemas.ts';
import { API_KEY_PREFIX, isApiKey } from '../_shared/api-keys.ts';
import { sha256HexSync } from '../_shared/range.ts';

/** public.api_limit's answer (jsonb), as far as this function reads it. */
export const limitStateSchema = z.object({
  status: z.enum(['ok', 'unknown', 'revoked']),
  allowed: z.boolean().optional(),
  limit: z.number().int().optional(),
  remaining: z.number().int().optional(),
  reset: z.number().optional(),
  retry_after: z.number().optional(),
  window: z.number().int().optional(),
  subject_kind: z.enum(['key', 'address', 'none']).optional(),
  message: z.string().nullable().optional(),
});
export type LimitState = z.infer<typeof limitStateSchema>;

/** The API key a request carries (X-API-Key first, then a Bearer token with the key prefix), or null. */
export function requestApiKey(req: Request): string | null {
  const header = req.headers.get('x-api-key')?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  return bearer?.startsWith(API_KEY_PREFIX) ? bearer : null;
}

/** The RateLimit-* headers of a state (none when the caller is not limited). */
export function limitHeaders(state: LimitState): Record<string, string> {
  if (state.status !== 'ok' || state.subject_kind === 'none' || state.limit === undefined) return {};
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining ?? 0),
    'RateLimit-Reset': String(state.reset ?? 0),
    'RateLimit-Policy': `${state.limit};w=${state.window ?? 60}`,
  };
}

/**
 * The SHA-256 of the request's API key, undefined without one (the SQL argument's default, null);
 * 401 for something that is not a key. The key travels no further than this function.
 */
export function requestKeyHash(req: Request): string | undefined {
  const key = requestApiKey(req);
  if (key !== null && !isApiKey(key))
    throw new HttpError(401, 'That is not a ScamCheck API key: keys are "sck_" and 64 hex characters');
  // Synchronous SHA-256: an await of Web Crypto's digest cost more than the hashing.
  return key ? sha256HexSync(key) : undefined;
}

/**
 * What a limit state (public.api_limit's answer) means for the call: 401 for an unknown or revoked
 * key, 429 (Retry-After, RateLimit-*, and a message saying when to come back) over the limit; else
 * the headers the answer carries.
 */
export function admitted(state: LimitState): Record<string, string> {
  if (state.status === 'unknown') throw new HttpError(401, 'Unknown API key');
  if (state.status === 'revoked') throw new HttpError(401, 'This API key has been revoked');
  const headers = limitHeaders(state);
  if (!state.allowed) {
    const retryAfter = state.retry_after ?? 60;
    const at = new Date(Date.now() + retryAfter * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    throw new HttpError(
      429,
      `${state.message ?? 'Too many requests.'} You can call again at ${at}.`,
      { retryAfter, retryAt: at },
      { ...headers, 'Retry-After': String(retryAfter) },
    );
  }
  return headers;
}

/** Logs a failed limit call and answers 503: without the limiter nothing is served. */
export function limiterUnavailable(error: unknown): HttpError {
  console.error('api_limit failed', error);
  return new HttpError(503, 'Could not check your request limit right now, please try again');
}

/**
 * public.api_limit with the caller's X-Forwarded-For as `request.headers` (set first: the subquery,
 * fenced by offset 0, runs before the outer select; local to the statement's own transaction), where
 * the database reads the address it hashes for anonymous limits, as when the call came through the
 * Data API with that header.
 */
const API_LIMIT_SQL = `select public.api_limit($1, 1) as state
  from (select set_config('request.headers', $2, true) offset 0) settings`;

/**
 * Spends one call of the caller's limit (public.api_limit). Throws 401 for a malformed, unknown or
 * revoked key and 429 over the limit; else returns the headers the answer carries. The call goes
 * straight to Postgres (_shared/postgres.ts, as the range lookup's does), not through the Data API:
 * every /api/v1 call pays it, and the HTTP hop through the gateway and REST cost more than the limiter.
 */
export async function takeApiLimit(req: Request): Promise<Record<string, string>> {
  const keyHash = requestKeyHash(req);
  const xff = req.headers.get('x-forwarded-for');
  let data: unknown;
  try {
    const { rows } = await directPool().query<{ state: unknown }>(API_LIMIT_SQL, [
      keyHash ?? null,
      JSON.stringify(xff ? { 'x-forwarded-for': xff } : {}),
    ]);
    data = rows[0].state;
  } catch (e) {
    // A statement timeout (the pool's, as the Data API's) or a deadlock took nothing: busy, retry.
    throw overloaded(e as { code?: string }) ?? limiterUnavailable(e);
  }
  return admitted(limitStateSchema.parse(data));
}
