/**
 * GET /api/v1/range/{prefix}: the private range lookup (issue 14, section 4; the client side and the
 * rules are in _shared/range.ts). The answer is the same for everyone and changes only when reports
 * do, so it is cacheable: Cache-Control, a strong ETag of the body, and 304 on If-None-Match.
 *
 * One database call per request, or per group of requests that arrive together (LookupBatcher):
 * public.range_lookup_limited_many takes each caller's API limit (as every /api/v1 call does, see
 * ../limits.ts) and answers each range in the same transaction, so index.ts leaves the limit of a
 * well-formed range request to this route. The call goes straight to Postgres
 * (_shared/postgres.ts), not through the Data API: at tens of requests a second per client, the
 * extra HTTP hop cost more than the lookup itself.
 */
import { HttpError, overloaded } from '../../_shared/http.ts';
import { corsHeaders } from '../../_shared/cors.ts';
import { POOL_SIZE, directPool } from '../../_shared/postgres.ts';
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

/** The database's answer for one request, and when the call that carried it started and ended. */
interface BatchTiming {
  started: number;
  answered: number;
  /** How many requests the call carried. */
  size: number;
}
type LookupRequest = [prefix: string, keyHash: string | null, forwardedFor: string | null];
interface Waiting {
  request: LookupRequest;
  resolve: (r: { answer: unknown; timing: BatchTiming }) => void;
  reject: (e: unknown) => void;
}

/**
 * Range lookups go to the database together: a request that arrives while a call is running waits for
 * the next, which carries every request waiting by then (at most `batchMax`) to
 * public.range_lookup_limited_many. Each request still takes its own caller's limit there, so the
 * answers are those of one call per request, at a fraction of the database's cost per request: the
 * backend's wake-up, the statement and the commit are shared. When the database keeps up, a request
 * goes alone at once and waits for nothing.
 *
 * One call at a time while calls are quick: what arrives while it runs gathers for the next. Measured
 * in the range bench (50 clients, closed loop, a key each), one call at a time carried 10-16 requests
 * per call and served 3,180-3,390 requests/s at 0.41-0.52 ms of CPU per request in all; two at a time
 * carried 5-7 and served 3,050-3,130 at 0.50-0.58 ms, three 4 and 2,590 at 0.69 ms. But a call that
 * has run for `stallMs` (descheduled, behind a lock, on a slow connection) no longer holds the others
 * back: another starts beside it, up to `callsMax` (the pool's connections). With 50 clients that
 * pause 100 ms between requests, 2 ms kept the slowest 1 % nearer the median than 5 or 50 did.
 */
class LookupBatcher {
  private waiting: Waiting[] = [];
  /** The running calls, each with when it started. */
  private running = new Set<{ started: number }>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly batchMax: number,
    private readonly stallMs: number,
    private readonly callsMax: number,
  ) {}

  ask(request: LookupRequest): Promise<{ answer: unknown; timing: BatchTiming }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.waiting.length > 0) {
      const now = performance.now();
      let youngest = -Infinity;
      for (const r of this.running) youngest = Math.max(youngest, r.started);
      const wait =
        this.running.size > 0 && (this.running.size >= this.callsMax || now - youngest < this.stallMs);
      if (wait) {
        // Look again when the youngest running call would count as stalled (or sooner, when one ends).
        this.timer ??= setTimeout(
          () => {
            this.timer = undefined;
            this.pump();
          },
          Math.max(1, youngest + this.stallMs - now),
        );
        return;
      }
      const batch = this.waiting.splice(0, this.batchMax);
      const call = { started: now };
      this.running.add(call);
      void this.call(batch).finally(() => {
        this.running.delete(call);
        this.pump();
      });
    }
  }

  private async call(batch: Waiting[]) {
    try {
      const client = await directPool().connect();
      const started = performance.now();
      let answers: unknown[];
      try {
        const { rows } = await client.query<{ answers: unknown[] }>(
          'select public.range_lookup_limited_many($1::jsonb) as answers',
          [JSON.stringify(batch.map((w) => w.request))],
        );
        answers = rows[0].answers;
        client.release();
      } catch (e) {
        // As pool.query does: a connection that failed a query is not reused.
        client.release(e as Error);
        throw e;
      }
      const timing = { started, answered: performance.now(), size: batch.length };
      batch.forEach((w, i) => w.resolve({ answer: answers[i], timing }));
    } catch (e) {
      for (const w of batch) w.reject(e);
    }
  }
}

const lookups = new LookupBatcher(256, 2, POOL_SIZE);

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
  let timing: BatchTiming;
  let data: unknown;
  try {
    ({ answer: data, timing } = await lookups.ask([prefix, keyHash, req.headers.get('x-forwarded-for')]));
  } catch (e) {
    // A statement timeout (the pool's, as the Data API's) or a deadlock wrote nothing: busy, retry.
    throw overloaded(e as { code?: string }) ?? limiterUnavailable(e);
  }
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
  // Where the time went (the range bench reads it): the wait until the call this request went with
  // started (for a free connection and for the calls ahead), that call, this handler in all, and how
  // many requests that call carried.
  const ms = (t: number) => t.toFixed(1);
  headers.set(
    'Server-Timing',
    `pool;dur=${ms(timing.started - asked)}, db;dur=${ms(timing.answered - timing.started)}, handler;dur=${ms(performance.now() - started)}, batch;desc="${timing.size}"`,
  );
  if (body === null) return new Response(null, { status: 304, headers });
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(body, { status: 200, headers });
}
