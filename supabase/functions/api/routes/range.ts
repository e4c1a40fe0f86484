/**
 * GET /api/v1/range/{prefix}: the private range lookup (issue 14, section 4; the client side and the
 * rules are in _shared/range.ts). The answer is the same for everyone and changes only when reports
 * do, so it is cacheable: Cache-Control, a strong ETag of the body, and 304 on If-None-Match.
 */
import { HttpError } from '../../_shared/http.ts';
import { corsHeaders } from '../../_shared/cors.ts';
import { serviceClient } from '../../_shared/service.ts';
import { sha256Hex } from '../../_shared/api-keys.ts';
import { padRange, rangeBody, type RangeEntry } from '../../_shared/range.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';

/** How long a client or cache may reuse an answer without asking again. */
export const RANGE_MAX_AGE = 300;

export async function getRange({ req, params }: RouteContext): Promise<Response> {
  if (!/^[0-9a-fA-F]{5}$/.test(params.prefix))
    throw new HttpError(
      400,
      'prefix must be the first 5 hex characters of the SHA-256 of the canonical identifier',
    );
  const prefix = params.prefix.toLowerCase();
  // The service role: the lookup is public data, reached only through this route and its limit.
  const { data, error } = await serviceClient().rpc('range_lookup', { prefix });
  if (error) throw dbError(error, 'look up the range');
  const body = rangeBody(prefix, await padRange(prefix, data as RangeEntry[]));
  const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
  const headers = new Headers(corsHeaders);
  headers.set('Cache-Control', `public, max-age=${RANGE_MAX_AGE}`);
  headers.set('ETag', etag);
  headers.set('Vary', 'Accept-Encoding');
  const match = (req.headers.get('if-none-match') ?? '')
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
  if (match) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(body, { status: 200, headers });
}
