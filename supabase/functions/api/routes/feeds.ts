/**
 * The threat-intelligence feeds served by the API (issue 34, docs/feeds.md):
 *
 * TAXII 2.1, read-only, one API root (`scamcheck`) with one collection of the public (TLP:CLEAR)
 * indicators, straight from the database (public.taxii_page over private.feed_items, which the hourly
 * open-data job keeps):
 *   GET /taxii2/                                            discovery
 *   GET /taxii2/scamcheck/                                  API root
 *   GET /taxii2/scamcheck/collections/                      the collection
 *   GET /taxii2/scamcheck/collections/{id}/                 the collection
 *   GET /taxii2/scamcheck/collections/{id}/objects/         objects, paged (added_after, limit, next, match[id], match[type])
 *   GET /taxii2/scamcheck/collections/{id}/objects/{obj}/   one object
 *   GET /taxii2/scamcheck/collections/{id}/manifest/        the objects' manifest, paged the same way
 * Answers are application/taxii+json;version=2.1 with an ETag (304 on If-None-Match); an Accept the
 * server cannot answer gets 406; errors are TAXII error messages.
 *
 * The partner feed (TLP:AMBER): GET /feeds/partner/{file}, the files the job writes to the private
 * feeds-partner bucket, only for API keys an admin marked as a partner's; every download is logged
 * (public.partner_feed_access).
 */
import { HttpError, overloaded } from '../../_shared/http.ts';
import { corsHeaders } from '../../_shared/cors.ts';
import { directPool } from '../../_shared/postgres.ts';
import { serviceClient } from '../../_shared/service.ts';
import { siteUrl } from '../../_shared/env.ts';
import {
  BUCKET,
  fixedObjects,
  indicatorObject,
  sha256Bytes,
  type FeedItem,
} from '../../_shared/feeds/formats.ts';
import { admitted, limitStateSchema, limiterUnavailable, requestKeyHash, takeApiLimit } from '../limits.ts';
import type { RouteContext } from '../router.ts';

export const TAXII_MEDIA_TYPE = 'application/taxii+json;version=2.1';
export const STIX_MEDIA_TYPE = 'application/stix+json;version=2.1';
export const TAXII_API_ROOT = 'scamcheck';
export const TAXII_COLLECTION_ID = '0d5e2a8c-6f1b-4c8e-9a37-2b6f1e4d9c51';
export const TAXII_DEFAULT_LIMIT = 100;
export const TAXII_MAX_LIMIT = 1000;
/** When the fixed objects (identity, marking, extension definition) were added to the collection. */
const FIXED_ADDED = '2026-11-27T00:00:00.000Z';

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const PAGE_COLUMNS = `id::int as id, kind, canonical, 'clear' as tlp, indicator_type, value, written,
  ${iso('first_reported')} as first_reported, ${iso('last_reported')} as last_reported, reports, reporters,
  scam_type, brand, stix_id::text as stix_id, '' as event_day, ${iso('added_at')} as added_at,
  ${iso('version_at')} as version_at, ${iso('withdrawn_at')} as withdrawn_at`;
const PAGE_SQL = `select ${PAGE_COLUMNS} from public.taxii_page('clear', $1, $2, $3, $4, $5, $6)`;
/**
 * The caller's API limit (public.api_limit, as limits.ts takes it, with the caller's X-Forwarded-For
 * as request.headers) and the page in one round trip: the page is read only when the limit allowed
 * the call. The first row carries the limit's state; without a page, that row alone (id null).
 */
const LIMITED_PAGE_SQL = `with lim as materialized (
    select public.api_limit($1, 1) as state
    from (select set_config('request.headers', $2, true) offset 0) settings)
  select lim.state::text as limit_state, p.*
  from lim
  left join lateral (
    select ${PAGE_COLUMNS} from public.taxii_page('clear', $3, $4, $5, $6, $7, $8)
    where (lim.state ->> 'allowed')::boolean) p on true`;

/** The objects, object and manifest calls: their page's query takes the API limit (index.ts leaves it here). */
const TAXII_PAGE_PATH = new RegExp(
  `^/api/v1/taxii2/${TAXII_API_ROOT}/collections/[^/]+/(?:objects(?:/[^/]+)?|manifest)/?$`,
);

/** True when this module, not index.ts, takes the call's API limit (GET of a page of the collection). */
export function taxiiPageLimitedHere(req: Request, pathname: string): boolean {
  return req.method === 'GET' && TAXII_PAGE_PATH.test(pathname);
}

/**
 * The API limit of a page call: taken with the page's query when there is one, else on its own
 * (take), once, before the answer (an error answer included) leaves. Calls index.ts limited are done.
 */
class PageLimit {
  headers: Record<string, string> = {};
  private taken: boolean;
  constructor(
    private readonly req: Request,
    here: boolean,
  ) {
    this.taken = !here;
  }
  get pending(): boolean {
    return !this.taken;
  }
  async take(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    this.headers = await takeApiLimit(this.req);
  }
  /** The state the page's query answered: 401 or 429 as limits.ts says, else its headers kept. */
  admit(state: unknown): void {
    this.taken = true;
    this.headers = admitted(limitStateSchema.parse(state));
  }
}

/** A TAXII error message (section 3.6.1) with its status. */
class TaxiiError extends HttpError {}

function taxiiError(status: number, title: string, description?: string): TaxiiError {
  return new TaxiiError(status, title, description ? { description } : {});
}

/** The API's base address as clients reach it. */
function apiBase(url: URL): string {
  const base = Deno.env.get('SUPABASE_URL');
  return base ? `${base}/functions/v1/api/v1` : `${url.origin}/api/v1`;
}

/**
 * True when the Accept header allows a TAXII 2.1 answer: absent, any type, or
 * application/taxii+json with no version or version 2.1 (section 1.6.8.1).
 */
export function acceptsTaxii(accept: string | null): boolean {
  if (!accept || !accept.trim()) return true;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type === '*/*' || type === 'application/*') return true;
    if (type !== 'application/taxii+json') return false;
    const version = params.find((p) => p.startsWith('version='))?.slice(8);
    return version === undefined || version === '2.1';
  });
}

/**
 * An answer in TAXII's media type, with a strong ETag of its body and 304 when the client has it. The
 * body is hashed with the runtime's native SHA-256 (crypto.subtle): a page of 1000 objects is close to
 * a megabyte, which the JavaScript SHA-256 took 75 to 360 ms to hash on the loaded test machine, more
 * than the whole page's budget (docs/benchmarks.md#feeds).
 */
async function taxiiAnswer(
  req: Request,
  body: unknown,
  extra: Record<string, string> = {},
): Promise<Response> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const etag = `"${await sha256Bytes(bytes)}"`;
  const headers = new Headers({ ...corsHeaders, ...extra });
  headers.set('Content-Type', TAXII_MEDIA_TYPE);
  headers.set('ETag', etag);
  headers.set('Cache-Control', 'public, max-age=60');
  headers.set('Vary', 'Accept');
  if (
    req.headers
      .get('if-none-match')
      ?.split(',')
      .some((t) => t.trim().replace(/^W\//, '') === etag)
  )
    return new Response(null, { status: 304, headers });
  return new Response(req.method === 'HEAD' ? null : bytes, { status: 200, headers });
}

/**
 * TAXII errors as TAXII error messages in the TAXII media type; others as the API's usual answers.
 * The page calls take their API limit here (PageLimit), error answers included.
 */
function taxii(handler: (ctx: RouteContext, limit: PageLimit) => Promise<Response>) {
  return async (ctx: RouteContext): Promise<Response> => {
    const limit = new PageLimit(ctx.req, taxiiPageLimitedHere(ctx.req, ctx.url.pathname));
    try {
      let res: Response;
      try {
        if (!acceptsTaxii(ctx.req.headers.get('accept')))
          throw taxiiError(406, 'Not Acceptable', `This server answers ${TAXII_MEDIA_TYPE}`);
        res = await handler(ctx, limit);
      } catch (e) {
        // Limited like any call: a refused key or an exhausted limit is answered first.
        if (e instanceof HttpError) await limit.take();
        throw e;
      }
      await limit.take();
      for (const [k, v] of Object.entries(limit.headers)) if (!res.headers.has(k)) res.headers.set(k, v);
      return res;
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      const headers = new Headers({ ...limit.headers, ...corsHeaders, ...e.headers });
      headers.set('Content-Type', TAXII_MEDIA_TYPE);
      const body = {
        title: e.message,
        http_status: String(e.status),
        ...(typeof e.extra.description === 'string' ? { description: e.extra.description } : {}),
      };
      return new Response(JSON.stringify(body), { status: e.status, headers });
    }
  };
}

function collection() {
  return {
    id: TAXII_COLLECTION_ID,
    title: 'ScamCheck verified scam indicators (TLP:CLEAR)',
    description:
      'Indicators of scam links, domains and cryptocurrency addresses that ScamCheck moderators verified, one per identifier, revoked when no longer listed. TLP:CLEAR, CC BY 4.0.',
    can_read: true,
    can_write: false,
    media_types: [STIX_MEDIA_TYPE],
  };
}

function requireCollection(id: string): void {
  if (id !== TAXII_COLLECTION_ID)
    throw taxiiError(404, 'No such collection', `The collection is ${TAXII_COLLECTION_ID}`);
}

export const taxiiDiscovery = taxii(async ({ req, url }) => {
  const root = `${apiBase(url)}/taxii2/${TAXII_API_ROOT}/`;
  return taxiiAnswer(req, {
    title: 'ScamCheck TAXII 2.1',
    description: 'Read-only TAXII 2.1 server of verified scam indicators from ScamCheck (Philippines).',
    contact: 'abuse@scamcheck.ph',
    default: root,
    api_roots: [root],
  });
});

export const taxiiApiRoot = taxii(async ({ req }) =>
  taxiiAnswer(req, {
    title: 'ScamCheck',
    description: 'Verified scam indicators: one collection, read-only.',
    versions: [TAXII_MEDIA_TYPE],
    max_content_length: 0,
  }),
);

export const taxiiCollections = taxii(async ({ req }) => taxiiAnswer(req, { collections: [collection()] }));

export const taxiiCollection = taxii(async ({ req, params }) => {
  requireCollection(params.id);
  return taxiiAnswer(req, collection());
});

/** A timestamp parameter (RFC 3339, UTC), or a 400. */
function timestampParam(value: string, name: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(value) || Number.isNaN(Date.parse(value)))
    throw taxiiError(
      400,
      `${name} is not a timestamp`,
      'Use RFC 3339 in UTC, for example 2026-11-27T15:00:00.000Z',
    );
  return value;
}

/** The `next` cursor: the version time and id of the last object of the page before. */
function encodeNext(versionAt: string, id: number): string {
  return btoa(`${versionAt}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeNext(next: string): { versionAt: string; id: number } {
  try {
    const [versionAt, id] = atob(next.replace(/-/g, '+').replace(/_/g, '/')).split('|');
    if (!versionAt || !/^-?\d+$/.test(id ?? '')) throw new Error('bad');
    return { versionAt: timestampParam(versionAt, 'next'), id: Number(id) };
  } catch {
    throw taxiiError(
      400,
      'next is not a cursor this server gave',
      'Use the next value of the page before, unchanged',
    );
  }
}

/** The filters of an objects or manifest request (section 3.4): added_after, limit, next, match[id], match[type], match[version], match[spec_version]. */
function pageFilters(url: URL) {
  const q = url.searchParams;
  const known = [
    'added_after',
    'limit',
    'next',
    'match[id]',
    'match[type]',
    'match[version]',
    'match[spec_version]',
  ];
  for (const key of q.keys())
    if (!known.includes(key))
      throw taxiiError(400, `Unknown parameter ${key}`, `Parameters: ${known.join(', ')}`);
  const addedAfter = q.get('added_after') ? timestampParam(q.get('added_after')!, 'added_after') : null;
  const limitText = q.get('limit');
  if (limitText !== null && !/^[1-9]\d{0,6}$/.test(limitText))
    throw taxiiError(400, 'limit is a whole number from 1', `At most ${TAXII_MAX_LIMIT} objects a page`);
  const limit = Math.min(Number(limitText ?? TAXII_DEFAULT_LIMIT), TAXII_MAX_LIMIT);
  const next = q.get('next') ? decodeNext(q.get('next')!) : null;
  const list = (name: string) =>
    q.get(name) === null
      ? null
      : q
          .get(name)!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const ids = list('match[id]');
  const types = list('match[type]');
  const versions = list('match[version]');
  if (versions && versions.some((v) => !['last', 'first', 'all'].includes(v) && Number.isNaN(Date.parse(v))))
    throw taxiiError(400, 'match[version] is last, first, all or a timestamp');
  const specVersions = list('match[spec_version]');
  return { addedAfter, limit, next, ids, types, versions, specVersions };
}

interface PageObject {
  object: Record<string, unknown>;
  dateAdded: string;
  version: string;
}

/** One page of the collection: the fixed objects first (first page only), then indicators oldest first. */
async function collectionPage(req: Request, url: URL, limit: PageLimit, objectId?: string) {
  const f = pageFilters(url);
  const site = siteUrl();
  const ids = objectId ? [objectId, ...(f.ids ?? [])].slice(0, 1) : f.ids;
  const wantsType = (t: string) => !f.types || f.types.includes(t);
  const wantsId = (id: string) => !ids || ids.includes(id);
  const wantsSpec = !f.specVersions || f.specVersions.includes('2.1');
  const out: PageObject[] = [];
  let more = false;
  let next: string | undefined;

  // The fixed objects come first; a cursor with a negative id counts how many of them were served.
  const fixed =
    wantsSpec && (!f.addedAfter || f.addedAfter < FIXED_ADDED)
      ? fixedObjects('clear', site).filter(
          (o) =>
            wantsType(String(o.type)) &&
            wantsId(String(o.id)) &&
            (!f.versions ||
              f.versions.some(
                (v) => ['last', 'first', 'all'].includes(v) || v === (o.modified ?? o.created),
              )),
        )
      : [];
  const fixedFrom = !f.next ? 0 : f.next.id < 0 ? -f.next.id : fixed.length;
  const fixedPage = fixed.slice(fixedFrom, fixedFrom + f.limit);
  for (const o of fixedPage)
    out.push({ object: o, dateAdded: FIXED_ADDED, version: String(o.modified ?? o.created) });
  const cursor = f.next && f.next.id >= 0 ? f.next : null;
  const room = f.limit - out.length;
  const indicatorIds =
    ids?.flatMap(
      (i) => /^indicator--([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(i)?.[1] ?? [],
    ) ?? null;
  const wantsIndicators =
    wantsType('indicator') && wantsSpec && (indicatorIds === null || indicatorIds.length > 0);

  if (fixedFrom + fixedPage.length < fixed.length) {
    more = true;
    next = encodeNext(FIXED_ADDED, -(fixedFrom + fixedPage.length));
  } else if (wantsIndicators && room <= 0) {
    // The fixed objects filled the page: the indicators start on the next one (if there are any).
    more = true;
    next = encodeNext('1970-01-01T00:00:00.000Z', 0);
  } else if (wantsIndicators) {
    type Row = FeedItem & { withdrawn_at: string | null };
    const pageParams = [
      f.addedAfter,
      cursor?.versionAt ?? null,
      cursor?.id ?? null,
      room,
      indicatorIds,
      null,
    ];
    let rows: Row[];
    if (limit.pending) {
      // The limit and the page in one round trip.
      const keyHash = requestKeyHash(req) ?? null;
      const xff = req.headers.get('x-forwarded-for');
      let answer: (Row & { limit_state: string })[];
      try {
        answer = (
          await directPool().query(LIMITED_PAGE_SQL, [
            keyHash,
            JSON.stringify(xff ? { 'x-forwarded-for': xff } : {}),
            ...pageParams,
          ])
        ).rows as (Row & { limit_state: string })[];
      } catch (e) {
        throw overloaded(e as { code?: string }) ?? limiterUnavailable(e);
      }
      limit.admit(JSON.parse(answer[0].limit_state));
      rows = answer[0].id === null ? [] : answer;
    } else {
      try {
        rows = (await directPool().query(PAGE_SQL, pageParams)).rows as Row[];
      } catch (e) {
        throw overloaded(e as { code?: string }) ?? e;
      }
    }
    more = rows.length > room;
    const page = rows.slice(0, room);
    for (const item of page) {
      if (
        f.versions &&
        !f.versions.some((v) => ['last', 'first', 'all'].includes(v) || v === item.version_at)
      )
        continue;
      out.push({ object: indicatorObject(item, site), dateAdded: item.version_at, version: item.version_at });
    }
    if (more) next = encodeNext(page[page.length - 1].version_at, page[page.length - 1].id);
  }
  const headers: Record<string, string> = {};
  if (out.length) {
    headers['X-TAXII-Date-Added-First'] = out[0].dateAdded;
    headers['X-TAXII-Date-Added-Last'] = out[out.length - 1].dateAdded;
  }
  return { out, more, next, headers };
}

export const taxiiObjects = taxii(async ({ req, url, params }, limit) => {
  requireCollection(params.id);
  const page = await collectionPage(req, url, limit);
  return taxiiAnswer(
    req,
    {
      more: page.more,
      ...(page.next ? { next: page.next } : {}),
      ...(page.out.length ? { objects: page.out.map((o) => o.object) } : {}),
    },
    page.headers,
  );
});

export const taxiiObject = taxii(async ({ req, url, params }, limit) => {
  requireCollection(params.id);
  if (!/^[a-z][a-z0-9-]+--[0-9a-f-]{36}$/.test(params.objectId))
    throw taxiiError(404, 'No such object', 'Object ids look like indicator--<uuid>');
  const page = await collectionPage(req, url, limit, params.objectId);
  if (!page.out.length) throw taxiiError(404, 'No such object in this collection');
  return taxiiAnswer(req, { more: false, objects: page.out.map((o) => o.object) }, page.headers);
});

export const taxiiManifest = taxii(async ({ req, url, params }, limit) => {
  requireCollection(params.id);
  const page = await collectionPage(req, url, limit);
  return taxiiAnswer(
    req,
    {
      more: page.more,
      ...(page.next ? { next: page.next } : {}),
      ...(page.out.length
        ? {
            objects: page.out.map((o) => ({
              id: o.object.id,
              date_added: o.dateAdded,
              version: o.version,
              media_type: STIX_MEDIA_TYPE,
            })),
          }
        : {}),
    },
    page.headers,
  );
});

// ---------------------------------------------------------------------------------------------
// Partner feed
// ---------------------------------------------------------------------------------------------
/** The files of the partner feed, as they sit in the bucket below amber/. */
export const PARTNER_FILE =
  /^(indicators\.csv|indicators\.json|list\.txt|misp\/manifest\.json|misp\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json|stix\/index\.json|stix\/\d{4}-\d{2}\.json)$/;

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

interface PartnerAccess {
  status: 'unknown' | 'revoked' | 'not_partner' | 'no_file' | 'ok';
  organisation?: string;
  items?: number;
  sha256?: string;
  not_modified?: boolean;
}

async function partnerFile(req: Request, path: string): Promise<Response> {
  if (!PARTNER_FILE.test(path)) throw new HttpError(404, `No partner feed file ${path}`);
  const keyHash = requestKeyHash(req);
  if (!keyHash)
    throw new HttpError(
      401,
      'The partner feed needs a partner API key (X-API-Key or Authorization: Bearer sck_...)',
    );
  let access: PartnerAccess;
  try {
    const { rows } = await directPool().query('select public.partner_feed_access($1, $2, $3) as access', [
      keyHash,
      `amber/${path}`,
      req.headers.get('if-none-match'),
    ]);
    access = (rows[0] as { access: PartnerAccess }).access;
  } catch (e) {
    throw overloaded(e as { code?: string }) ?? e;
  }
  if (access.status === 'unknown') throw new HttpError(401, 'Unknown API key');
  if (access.status === 'revoked') throw new HttpError(401, 'This API key has been revoked');
  if (access.status === 'not_partner')
    throw new HttpError(
      403,
      'This API key is not a partner key. The partner feed (TLP:AMBER) is for banks, e-wallets, telcos and CERTs; write to us to become a partner.',
    );
  if (access.status === 'no_file') throw new HttpError(404, `No partner feed file ${path} yet`);
  const headers = new Headers(corsHeaders);
  headers.set('ETag', `"${access.sha256}"`);
  headers.set('Cache-Control', 'private, no-cache');
  headers.set('X-Feed-Items', String(access.items ?? 0));
  headers.set('X-TLP', 'AMBER');
  if (access.not_modified) return new Response(null, { status: 304, headers });
  const { data, error } = await serviceClient().storage.from(BUCKET.amber).download(`amber/${path}`);
  if (error || !data) throw new HttpError(404, `No partner feed file ${path} yet`);
  headers.set('Content-Type', CONTENT_TYPES[path.split('.').pop() ?? 'json'] ?? 'application/octet-stream');
  return new Response(req.method === 'HEAD' ? null : data, { status: 200, headers });
}

export async function getPartnerFile({ req, params }: RouteContext): Promise<Response> {
  return partnerFile(req, params.file);
}

export async function getPartnerDirFile({ req, params }: RouteContext): Promise<Response> {
  return partnerFile(req, `${params.dir}/${params.file}`);
}
