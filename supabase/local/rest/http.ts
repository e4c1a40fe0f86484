/**
 * The HTTP side of the REST service: content negotiation (Accept), reading the body, and writing
 * answers and errors as PostgREST writes them, including the `response.headers` and
 * `response.status` settings SQL may set.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RestError, invalidBody } from './errors.ts';
import type { MainResult } from './executor.ts';

export interface Accept {
  /** `application/vnd.pgrst.object+json` (postgrest-js `single()`/`maybeSingle()`). */
  object: boolean;
  stripNulls: boolean;
  /** `text/csv` (postgrest-js `csv()`), offered for reads as PostgREST does. */
  csv?: boolean;
}

const JSON_TYPE =
  /^(\*\/\*|application\/\*|application\/json|application\/vnd\.pgrst\.(object|array)(\+json)?)(;|$)/;
const CSV_TYPE = /^text\/csv(;|$)/;
/** Parsed Accept headers: clients send the same few over and over. Bounded; the values are frozen. */
const accepted = new Map<string, Accept>();

export function parseAccept(header: string | undefined): Accept {
  const value = (header ?? '*/*').toLowerCase();
  const known = accepted.get(value);
  if (known) return known;
  const types = value.split(',').map((t) => t.trim());
  const first = types.find((t) => JSON_TYPE.test(t) || CSV_TYPE.test(t));
  if (!first)
    throw new RestError(
      406,
      'PGRST107',
      `None of these media types are available: ${types.map((t) => t.split(';')[0]).join(', ')}`,
    );
  const accept: Accept = first.startsWith('text/csv')
    ? { object: false, stripNulls: false, csv: true }
    : {
        object: types.some((t) => t.startsWith('application/vnd.pgrst.object')),
        stripNulls: /nulls=stripped/.test(value),
      };
  if (accepted.size < 256) accepted.set(value, Object.freeze(accept));
  return accept;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function parseJson(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString('utf8'));
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
