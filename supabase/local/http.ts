/** Small HTTP helpers shared by the gateway's services. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    public status: number,
    public body: unknown,
    public headers: Record<string, string> = {},
  ) {
    super(
      typeof body === 'object' && body && 'message' in body
        ? String((body as { message: unknown }).message)
        : String(body),
    );
  }
}

/** Reads the whole request body, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit = 50 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new HttpError(413, {
        statusCode: '413',
        error: 'Payload too large',
        message: 'The object exceeded the maximum allowed size',
      });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text).toString(),
    ...headers,
  });
  res.end(text);
}

/** The CORS headers Supabase's gateway adds to every answer. */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, range-unit, x-upsert, cache-control, x-supabase-api-version, accept, accept-language, content-language, if-none-match, x-source',
  'access-control-expose-headers':
    'content-range, content-location, content-type, x-total-count, etag, location, x-supabase-api-version',
  'access-control-max-age': '3600',
};

/**
 * The deepest JSON a local service takes in a request body. PostgreSQL parses json/jsonb recursively and
 * fails past its stack depth (`54001`, which PostgREST and GoTrue answer with 500); the stack refuses
 * deeper bodies first with a 400, as GoTrue refuses past Go's own limit ("exceeded max depth").
 */
export const MAX_BODY_JSON_DEPTH = 512;

/** Whether JSON text nests arrays/objects deeper than `max`: one linear pass, strings skipped. */
export function jsonTooDeep(text: string, max = MAX_BODY_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
