/**
 * GET /api/v1/range/{prefix}: the private range lookup (issue 14, section 4; the client side and the
 * rules are in _shared/range.ts). The answer is the same for everyone and changes only when reports
 * do, so it is cacheable: Cache-Control, a strong ETag of the body, and 304 on If-None-Match.
 *
 * One database call per request: public.range_lookup_limited takes the caller's API limit (as every
 * /api/v1 call does, see ../limits.ts) and answers the range in the same transaction, so index.ts
 * leaves the limit of a well-formed range request to this route.
 */
import { HttpError } from '../../_shared/http.ts';
import { corsHeaders } from '../../_shared/cors.ts';
import { serviceClient } from '../../_shared/service.ts';
import { padRange, rangeBody, sha256HexSync, type RangeEntry } from '../../_shared/range.ts';
import {
  admitted,
  forwardedFor,
  limiterUnavailable,
  requestKeyHash,
  takeApiLimit,
  limitStateSchema,
} from '../limits.ts';
import { z } from '../../_shared/schemas.ts';
import type { RouteContext } from '../router.ts';

/** How long a client or cache may reuse an answer without asking again. */
export const RANGE_MAX_AGE = 300;

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
  // The service role: the lookup is public data, reached only through this route and its limit.
  let rpc = serviceClient().rpc('range_lookup_limited', {
    prefix,
    key_hash: await requestKeyHash(req),
    cost: 1,
  });
  for (const [k, v] of Object.entries(forwardedFor(req))) rpc = rpc.setHeader(k, v);
  const asked = performance.now();
  const { data, error } = await rpc;
  const answered = performance.now();
  if (error) throw limiterUnavailable(error);
  const answer = rangeAnswerSchema.parse(data);
  const limits = admitted(answer.limit);
  const body = rangeBody(prefix, padRange(prefix, answer.entries ?? []));
  const etag = `"${sha256HexSync(body).slice(0, 32)}"`;
  const headers = new Headers(corsHeaders);
  for (const [k, v] of Object.entries(limits)) headers.set(k, v);
  headers.set('Cache-Control', `public, max-age=${RANGE_MAX_AGE}`);
  headers.set('ETag', etag);
  headers.set('Vary', 'Accept-Encoding');
  // Where the time went (the range bench reads it): the database call, and this handler in all.
  const ms = (t: number) => t.toFixed(1);
  headers.set(
    'Server-Timing',
    `db;dur=${ms(answered - asked)}, handler;dur=${ms(performance.now() - started)}`,
  );
  const match = (req.headers.get('if-none-match') ?? '')
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
  if (match) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(body, { status: 200, headers });
}
