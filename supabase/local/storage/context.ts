/**
 * What every Storage route shares: the service's context (pool, stored files, the project-wide size
 * limit), running SQL as the caller (RLS decides) or as Storage's superuser with the settings Storage
 * adds to each transaction, and the JSON answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { withRole } from '../db.ts';
import { Statements, sendBatch, type Step } from '../rest/batch.ts';
import type { Caller } from './auth.ts';
import { fromPgError } from './errors.ts';
import type { ObjectFiles } from './files.ts';

export interface StorageContext {
  pool: pg.Pool;
  files: ObjectFiles;
  /** The project-wide upload limit (`[storage] file_size_limit` in config.toml). */
  globalFileSizeLimit: number;
  /** `[storage.image_transformation] enabled` in config.toml: the /render/image routes exist. */
  imageTransformation: boolean;
}

/**
 * One request to a Storage route, as the REST stand-in has its RestRequest: the service's context, the
 * HTTP request and answer, the caller (anon on routes that need no JWT), the `:bucket` and `*key` of
 * the path (decoded; a key may hold slashes; empty where the route has none) and the query string.
 * Every route handler takes it, plus the parsed body where the route has one.
 */
export interface StorageRequest {
  ctx: StorageContext;
  req: IncomingMessage;
  res: ServerResponse;
  caller: Caller;
  bucket: string;
  key: string;
  query: URLSearchParams;
}

/** What running SQL as the caller needs of a request. */
export type CallerRequest = Pick<StorageRequest, 'ctx' | 'req' | 'caller'>;

/** What sending an object's bytes needs of a request. */
export type ResponseRequest = Pick<StorageRequest, 'ctx' | 'req' | 'res'>;

/** Timestamps leave as ISO strings, as Storage's JSON shows them. */
export function iso(value: string | null | undefined): string | null {
  return value ? new Date(value).toISOString() : null;
}

/** Runs `fn` as the caller, mapping Postgres errors (RLS denial, duplicates) to Storage's. */
export async function asCaller<T>(
  { ctx, caller, req }: CallerRequest,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  try {
    return await withRole(ctx.pool, caller.claims, fn, {
      headers: req.headers,
      method: req.method,
      path: req.url,
      settings: [storageSettings(caller.operation, caller.jwt)],
    });
  } catch (e) {
    throw fromPgError(e);
  }
}

/**
 * The settings Storage adds to each transaction: the operation name policies may read through
 * storage.operation(), the raw JWT, and the flag that lets the API (only) delete storage rows.
 */
function storageSettings(operation = '', jwt = ''): Step {
  return {
    text: `select set_config('storage.operation', $1, true), set_config('request.jwt', $2, true),
            set_config('storage.allow_delete_query', 'true', true)`,
    values: [operation, jwt],
  };
}

/** Runs `fn` in a superuser transaction (Storage's `asSuperUser`). */
export async function superTransaction<T>(
  ctx: StorageContext,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await ctx.pool.connect();
  try {
    // begin and the settings in one round trip
    await sendBatch(client, [{ text: 'begin', values: [] }, storageSettings()], new Statements());
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw fromPgError(e);
  } finally {
    client.release();
  }
}

export function sendOk(
  res: ServerResponse,
  body: unknown,
  headers: Record<string, string> = {},
  status = 200,
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/**
 * The headers an object's answer takes from its stored metadata and the request's options, the same
 * for its bytes and for a transformed image: ETag, Last-Modified, caching (a signed URL's expiry wins)
 * and the download name.
 */
export function objectMetadataHeaders(
  headers: Record<string, string>,
  m: { eTag?: string; cacheControl?: string; lastModified?: string } | null | undefined,
  options: { download?: string; expires?: string },
): Record<string, string> {
  if (m?.eTag) headers.etag = m.eTag;
  if (m?.lastModified) headers['last-modified'] = new Date(m.lastModified).toUTCString();
  if (options.expires) headers.expires = options.expires;
  else if (m?.cacheControl) headers['cache-control'] = m.cacheControl;
  if (options.download !== undefined) headers['content-disposition'] = contentDisposition(options.download);
  return headers;
}

/** Content-Disposition for `?download` (an empty value downloads under the object's own name). */
export function contentDisposition(download: string): string {
  if (download === '') return 'attachment;';
  const encoded = encodeURIComponent(download);
  return `attachment; filename=${encoded}; filename*=UTF-8''${encoded}`;
}
