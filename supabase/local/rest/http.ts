/**
 * The HTTP side of the REST service: content negotiation (Accept), reading the body, and writing
 * answers and errors as PostgREST writes them, including the `response.headers` and
 * `response.status` settings SQL may set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_JSON_DEPTH, jsonTooDeep } from '../http.ts';
import { RestError, invalidBody } from './errors.ts';
import type { MainResult } from './executor.ts';

export interface Accept {
  /** `application/vnd.pgrst.object+json` (postgrest-js `single()`/`maybeSingle()`). */
  object: boolean;
  stripNulls: boolean;
  /** `text/csv` (postgrest-js `csv()`), offered for reads as PostgREST does. */
  csv?: boolean;
  /**
   * `application/vnd.pgrst.plan[+json|+text]; for="..."; options=analyze|...` (postgrest-js
   * `explain()`), only offered while `db-plan-enabled`: EXPLAIN's output instead of the body that
   * `for` names (the other fields describe that body).
   */
  plan?: { format: 'json' | 'text'; options: string[]; mime: string };
}

const JSON_TYPE =
  /^(\*\/\*|application\/\*|application\/json|application\/vnd\.pgrst\.(object|array)(\+json)?)(;|$)/;
const CSV_TYPE = /^text\/csv(;|$)/;
/** Parsed Accept headers: clients send the same few over and over. Bounded; the values are frozen. */
const accepted = new Map<string, Accept>();

const PLAN_TYPE = /^application\/vnd\.pgrst\.plan(\+json|\+text)?$/;
const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal'];

/** A media type and its parameters (names lower-cased, quotes removed). */
function mediaType(raw: string): { type: string; params: Map<string, string> } {
  const [type, ...rest] = raw.split(';');
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0)
      params.set(
        p.slice(0, eq).trim().toLowerCase(),
        p
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
  }
  return { type: type.trim().toLowerCase(), params };
}

/** The body a JSON or CSV media type asks for. */
function bodyAccept(type: string, whole: string): Accept {
  return type.startsWith('text/csv')
    ? { object: false, stripNulls: false, csv: true }
    : {
        object: type.startsWith('application/vnd.pgrst.object'),
        stripNulls: /nulls=stripped/.test(whole),
      };
}

/**
 * The first acceptable media type of an Accept header, as PostgREST negotiates: JSON (array or
 * object), CSV, or while `db-plan-enabled` an execution plan; else 406 PGRST107 naming them.
 */
export function parseAccept(header: string | undefined, planEnabled = false): Accept {
  const value = (header ?? '*/*').toLowerCase();
  const cacheKey = `${planEnabled ? 'plan' : ''}\u0000${value}`;
  const known = accepted.get(cacheKey);
  if (known) return known;
  const types = value.split(',').map((t) => t.trim());
  let accept: Accept | undefined;
  for (const t of types) {
    const { type, params } = mediaType(t);
    if (PLAN_TYPE.test(type)) {
      if (!planEnabled) continue;
      const format = type.endsWith('+json') ? 'json' : 'text';
      const forType = params.get('for') ?? 'application/json';
      if (!JSON_TYPE.test(forType) && !CSV_TYPE.test(forType)) continue;
      const given = (params.get('options') ?? '').split('|');
      const options = PLAN_OPTIONS.filter((o) => given.includes(o));
      accept = {
        ...bodyAccept(forType, forType),
        plan: { format, options, mime: planMime(format, forType, options) },
      };
      break;
    }
    if (JSON_TYPE.test(t) || CSV_TYPE.test(t)) {
      accept = bodyAccept(t, value);
      break;
    }
  }
  if (!accept)
    throw new RestError(
      406,
      'PGRST107',
      `None of these media types are available: ${types
        .map((t) => {
          const { type, params } = mediaType(t);
          if (!PLAN_TYPE.test(type)) return t.split(';')[0];
          const format = type.endsWith('+json') ? 'json' : 'text';
          const given = (params.get('options') ?? '').split('|');
          return planMime(
            format,
            params.get('for') ?? 'application/json',
            PLAN_OPTIONS.filter((o) => given.includes(o)),
          );
        })
        .join(', ')}`,
    );
  if (accepted.size < 256) accepted.set(cacheKey, Object.freeze(accept));
  return accept;
}

/** The plan's media type as PostgREST writes it back (Content-Type, and PGRST107's list). */
function planMime(format: string, forType: string, options: string[]): string {
  return `application/vnd.pgrst.plan+${format}; for="${forType}"${options.length ? `; options=${options.join('|')}` : ''}`;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function parseJson(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) return {};
  const text = raw.toString('utf8');
  // PostgreSQL would fail on it with 54001 (a 500); refused first, naming the limit.
  if (jsonTooDeep(text)) throw invalidBody(`Invalid json: nested deeper than ${MAX_BODY_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
}

/** Writes the answer; `headers` is the caller's own object and gains the content length. */
export function send(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string>,
  contentLength?: number,
) {
  headers['content-length'] = String(contentLength ?? Buffer.byteLength(text));
  res.writeHead(status, headers);
  res.end(text);
}

export function sendError(res: ServerResponse, e: RestError) {
  const text = JSON.stringify(e.body());
  res.writeHead(e.status, {
    'content-type': 'application/json; charset=utf-8',
    'proxy-status': `PostgREST; error=${e.code}`,
    ...e.headers,
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** Applies `response.status`/`response.headers` set by SQL, then writes the answer. */
export function finish(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string>,
  main: MainResult,
  accept: Accept,
  head = false,
) {
  if (main.responseHeaders) {
    let list: unknown;
    try {
      list = JSON.parse(main.responseHeaders);
    } catch {
      list = null;
    }
    if (!Array.isArray(list))
      throw new RestError(
        500,
        'PGRST111',
        'response.headers guc must be a JSON array composed of objects with a single key and a string value',
      );
    for (const h of list as Record<string, string>[])
      for (const [k, v] of Object.entries(h)) headers[k.toLowerCase()] = String(v);
  }
  if (main.responseStatus) {
    const s = Number(main.responseStatus);
    if (!Number.isInteger(s) || s < 100 || s > 599)
      throw new RestError(500, 'PGRST112', 'response.status guc must be a valid status code');
    status = s;
  }
  headers['content-type'] ??=
    `${accept.csv ? 'text/csv' : accept.object ? 'application/vnd.pgrst.object+json' : 'application/json'}; charset=utf-8`;
  if (accept.stripNulls && text)
    text = JSON.stringify(JSON.parse(text), (_k, v) => (v === null ? undefined : v));
  send(res, status, head ? '' : text, headers, head ? Buffer.byteLength(text) : undefined);
}
