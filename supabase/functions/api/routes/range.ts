/**
 * GET /api/v1/range/{prefix}: the private range lookup (issue 14, section 4; the client side and the
 * rules are in _shared/range.ts). The answer is the same for everyone and changes only when reports
 * do, so it is cacheable: Cache-Control, a strong ETag of the body, and 304 on If-None-Match.
 *
 * One database call per request: public.range_lookup_limited takes the caller's API limit (as every
 * /api/v1 call does, see ../limits.ts) and answers the range in the same transaction, so index.ts
 * leaves the limit of a well-formed range request to this route. The call goes straight to Postgres
 * (_shared/postgres.ts), not through the Data API: at tens of requests a second per client, the
 * extra HTTP hop cost more than the lookup itself.
 */
import { HttpError, overloaded } from '../../_shared/http.ts';
import { corsHeaders } from '../../_shared/cors.ts';
import { directPool } from '../../_shared/postgres.ts';
import { padRange, rangeBody, sha256HexSync, type RangeEntry } from '../../_shared/range.ts';
import { admitted, limiterUnavailable, requestKeyHash, takeApiLimit, limitStateSchema } from '../limits.ts';
import { z } from '../../_shared/schemas.ts';
import type { RouteContext } from '../router.ts';

/** How long a client or cache may reuse an answer without asking again. */
export const RANGE_MAX_AGE = 300;

/**
 * The answer's format (page size, entry width, decoy derivation), part of the ETag's input: a change
 * of format must change every ETag, since the body changes while the data does not.
 */
const RANGE_FORMAT = 3;

/** A range request index.ts leaves to this route, limit included (anything else is limited there). */
export const RANGE_REQUEST = /^\/api\/v1\/range\/[0-9a-fA-F]{5}$/;

/** The reported identifiers of a range, before padding: the entries of the shared RangeEntry shape. */
const rangeEntriesSchema: z.ZodType<RangeEntry[]> = z.array(
  z.object({
    suffix: z.string().regex(/^[0-9a-f]{59}$/),
    count: z.number().int().min(0),
    risk_level: z.number().int().min(0).max(100),
    risk_label: z.enum(['low', 'medium', 'high']),
  }),
);

/** public.range_lookup_limited's answer (jsonb): the limit's state, and the range when admitted. */
const rangeAnswerSchema = z.object({ limit: limitStateSchema, entries: rangeEntriesSchema.optional() });

export async function getRange({ req, params }: RouteContext): Promise<Response> {
  const started = performance.now();
  if (!/^[0-9a-fA-F]{5}$/.test(params.prefix)) {
    // Limited like any call (index.ts left it here only when the prefix looked right).
    if (RANGE_REQUEST.test(new URL(req.url).pathname)) await takeApiLimit(req);
    throw new HttpError(
      400,
      'prefix must be the first 5 hex characters of the SHA-256 of the canonical identifier',
    );
  }
  const prefix = params.prefix.toLowerCase();
  // A service-role entry point: the lookup is public data, reached only through this route and its
  // limit (per key, else per the caller's address, which the database hashes).
  const keyHash = requestKeyHash(req) ?? null;
  const asked = performance.now();
  let connected = asked;
  let data: unknown;
  try {
    // As pool.query, in two steps so the wait for a free connection shows apart (Server-Timing).
    const client = await directPool().connect();
    connected = performance.now();
    try {
      const { rows } = await client.query<{ answer: unknown }>(
        'select public.range_lookup_limited($1, $2, 1, $3) as answer',
        [prefix, keyHash, req.headers.get('x-forwarded-for')],
      );
      data = rows[0].answer;
      client.release();
    } catch (e) {
      // As pool.query does: a connection that failed a query is not reused.
      client.release(e as Error);
      throw e;
    }
  } catch (e) {
    // A statement timeout (the pool's, as the Data API's) or a deadlock wrote nothing: busy, retry.
    throw overloaded(e as { code?: string }) ?? limiterUnavailable(e);
  }
  const answered = performance.now();
  const answer = rangeAnswerSchema.parse(data);
  const limits = admitted(answer.limit);
  const entries = answer.entries ?? [];
  // The body is a function of the prefix and the real entries alone (decoys derive from the prefix),
  // so the ETag is taken from those: a few bytes to hash instead of the padded body, and a 304 needs
  // no padding at all.
  const etag = `"${sha256HexSync(JSON.stringify([RANGE_FORMAT, prefix, entries])).slice(0, 32)}"`;
  const headers = new Headers(corsHeaders);
  for (const [k, v] of Object.entries(limits)) headers.set(k, v);
  headers.set('Cache-Control', `public, max-age=${RANGE_MAX_AGE}`);
  headers.set('ETag', etag);
  headers.set('Vary', 'Accept-Encoding');
  const match = (req.headers.get('if-none-match') ?? '')
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
  const body = match ? null : rangeBody(prefix, padRange(prefix, entries));
  // Where the time went (the range bench reads it): the wait for a pooled connection, the database
  // call on it, and this handler in all.
  const ms = (t: number) => t.toFixed(1);
  headers.set(
    'Server-Timing',
    `pool;dur=${ms(connected - asked)}, db;dur=${ms(answered - connected)}, handler;dur=${ms(performance.now() - started)}`,
  );
  if (body === null) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(body, { status: 200, headers });
}
