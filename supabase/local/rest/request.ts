/**
 * A REST request as PostgREST reads it, built once when it arrives: the path and its segments, the
 * query string, the schema chosen by the profile headers, the `Prefer` and `Accept` headers, the caller
 * and the body. Handlers take this one object instead of a long list of parameters.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Auth } from './auth.ts';
import { RestError } from './errors.ts';
import type { RequestContext } from './executor.ts';
import { parseAccept, readBody, type Accept } from './http.ts';
import { parseQuery, type ParsedQuery } from './query-parser.ts';
import type { PgrstSettings, SchemaCache } from './schema-cache.ts';

export interface Prefer {
  return?: 'representation' | 'minimal' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  /** `tx=commit|rollback`, only when `db-tx-end` allows an override (else never set). */
  tx?: 'commit' | 'rollback';
  handling?: 'strict' | 'lenient';
  /** `params=single-object`: a function's one json/jsonb parameter takes the whole body. */
  params?: 'single-object';
  maxAffected?: number;
  /** Preferences PostgREST does not know: refused with PGRST122 under `handling=strict`. */
  invalid: string[];
}

const CHOICES = {
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  return: ['representation', 'minimal', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
  params: ['single-object'],
} as const;

/**
 * The `Prefer` header as PostgREST 12 reads it (ApiRequest/Preferences.hs): comma-separated items
 * from every Prefer header, the first item of each kind winning; `tx` only counts when the
 * configuration allows the override; unknown items are kept for `handling=strict`.
 */
export function parsePrefer(header: string | string[] | undefined, allowTxOverride = false): Prefer {
  const out: Prefer = { invalid: [] };
  const items = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    const eq = item.indexOf('=');
    const k = eq < 0 ? item : item.slice(0, eq);
    const v = eq < 0 ? '' : item.slice(eq + 1);
    if (k === 'max-affected') {
      if (out.maxAffected === undefined && /^-?\d+$/.test(v)) out.maxAffected = Number(v);
      continue;
    }
    if (k === 'timezone') continue;
    const choices = (CHOICES as Record<string, readonly string[]>)[k];
    if (!choices?.includes(v)) {
      out.invalid.push(item);
      continue;
    }
    if (k === 'tx' && !allowTxOverride) continue;
    const key = k as keyof typeof CHOICES;
    (out as unknown as Record<string, string>)[key] ??= v;
  }
  return out;
}

/** Preference-Applied in PostgREST's order; max-affected only where it applies and under strict handling. */
export function appliedPreferences(prefer: Prefer, opts: { maxAffected?: boolean } = {}): string | undefined {
  const list = (['resolution', 'missing', 'return', 'count', 'tx', 'handling'] as const)
    .filter((k) => prefer[k] !== undefined)
    .map((k) => `${k}=${prefer[k]}`);
  if (opts.maxAffected && prefer.handling === 'strict' && prefer.maxAffected !== undefined)
    list.push(`max-affected=${prefer.maxAffected}`);
  return list.length ? list.join(', ') : undefined;
}

/** Node joins repeated request headers into one string, except the few it keeps as arrays. */
function headerObjects(req: IncomingMessage): { headersJson: string; cookiesJson: string } {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const cookies: Record<string, string> = {};
  if (headers['cookie']) {
    for (const part of headers['cookie'].split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0) cookies[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
  }
  return { headersJson: JSON.stringify(headers), cookiesJson: JSON.stringify(cookies) };
}

export class RestRequest {
  readonly method: string;
  readonly head: boolean;
  readonly pathname: string;
  readonly search: URLSearchParams;
  /** The path's segments, decoded: `['reports']`, `['rpc', 'fn']`, or none for the OpenAPI root. */
  readonly segments: string[];
  readonly schema: string;
  readonly accept: Accept;
  readonly prefer: Prefer;
  /** The body of a POST, PATCH or PUT, read once (a schema-cache retry must not read it again). */
  body?: Buffer;
  private parsedQuery?: ParsedQuery;

  constructor(
    readonly req: IncomingMessage,
    res: ServerResponse,
    subPath: string,
    readonly auth: Auth,
    schemas: string[],
    settings: PgrstSettings,
  ) {
    const q = subPath.indexOf('?');
    this.pathname = q < 0 ? subPath : subPath.slice(0, q);
    this.search = new URLSearchParams(q < 0 ? '' : subPath.slice(q + 1));
    this.method = req.method ?? 'GET';
    this.head = this.method === 'HEAD';
    try {
      this.segments = this.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    } catch {
      throw new RestError(404, 'PGRST125', 'Invalid path specified in request URL');
    }
    const read = this.method === 'GET' || this.method === 'HEAD';
    const profile = read ? req.headers['accept-profile'] : req.headers['content-profile'];
    const schema = typeof profile === 'string' && profile ? profile : schemas[0];
    if (!schemas.includes(schema))
      throw new RestError(
        406,
        'PGRST106',
        `Invalid schema: ${schema}`,
        null,
        `Only the following schemas are exposed: ${schemas.join(', ')}`,
      );
    this.schema = schema;
    // A schema chosen by profile header is named back, as PostgREST does (errors after this carry it too).
    if (req.headers['accept-profile'] || req.headers['content-profile'])
      res.setHeader('content-profile', schema);
    this.accept = parseAccept(req.headers['accept'], settings.planEnabled);
    this.prefer = parsePrefer(req.headers['prefer'], settings.txEnd.endsWith('-allow-override'));
    if (this.prefer.handling === 'strict' && this.prefer.invalid.length)
      throw new RestError(
        400,
        'PGRST122',
        'Invalid preferences given with handling=strict',
        `Invalid preferences: ${this.prefer.invalid.join(', ')}`,
      );
    // db-tx-end: roll back every request unless `Prefer: tx=commit` may and does override it.
    this.rollback =
      this.prefer.tx === 'rollback' || (settings.txEnd.startsWith('rollback') && this.prefer.tx !== 'commit');
  }

  /** Whether the request's transaction ends in a rollback (`Prefer: tx=rollback`, `db-tx-end`). */
  readonly rollback: boolean;

  get hasBody(): boolean {
    return this.method === 'POST' || this.method === 'PATCH' || this.method === 'PUT';
  }

  async readBody(): Promise<void> {
    if (this.hasBody) this.body = await readBody(this.req);
  }

  /** The query string parsed by PostgREST's grammar (once). */
  get query(): ParsedQuery {
    return (this.parsedQuery ??= parseQuery(this.search));
  }

  /** The root's offset and limit from `offset`/`limit` and the `Range` header, intersected as PostgREST does. */
  range(query: ParsedQuery = this.query): { offset: number; limit?: number } {
    const root = query.nodes.get('')!;
    let start = root.offset ?? 0;
    let end = root.limit !== undefined ? start + root.limit - 1 : undefined;
    const header = this.req.headers['range'];
    const unit = this.req.headers['range-unit'];
    if (typeof header === 'string' && (!unit || unit === 'items')) {
      const m = /^(?:items=)?(\d+)-(\d*)$/.exec(header.trim());
      if (m) {
        const lo = Number(m[1]);
        const hi = m[2] === '' ? undefined : Number(m[2]);
        if (hi !== undefined && lo > hi) {
          throw new RestError(
            416,
            'PGRST103',
            'Requested range not satisfiable',
            'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
          );
        }
        start = Math.max(start, lo);
        if (hi !== undefined) end = end === undefined ? hi : Math.min(end, hi);
      }
    }
    return { offset: start, limit: end === undefined ? undefined : Math.max(0, end - start + 1) };
  }

  /** What the executor sets in Postgres before the request's statement. */
  context(readOnly: boolean, cache: SchemaCache): RequestContext {
    const { headersJson, cookiesJson } = headerObjects(this.req);
    return {
      auth: this.auth,
      schemaCache: cache,
      headersJson,
      cookiesJson,
      method: this.method,
      path: this.pathname,
      readOnly,
      statementTimeout: cache.statementTimeouts.get(this.auth.role),
      preRequest: cache.preRequest,
      explain: this.accept.plan && {
        options: [`format ${this.accept.plan.format}`, ...this.accept.plan.options].join(', '),
        rollback: this.rollback,
        mime: this.accept.plan.mime,
      },
    };
  }
}
