/**
 * The Storage API of the local stack (`/storage/v1`), answering storage-js as supabase/storage does:
 * the bucket routes (buckets.ts), the object routes (objects.ts) and Storage's error bodies
 * (errors.ts). Object bytes are kept under `${dataDir}/storage` (files.ts); rows live in
 * storage.objects, whose RLS policies decide every object operation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { configSection, parseFileSize } from '../project-config.ts';
import type { ServiceContext, ServiceHandler } from '../gateway.ts';
import { HttpError, readBody } from '../http.ts';
import { authenticate, type Caller } from './auth.ts';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets.ts';
import { ERRORS, StorageError, sendStorageError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import * as objects from './objects.ts';
import type { StorageContext } from './objects.ts';

/** `[storage] file_size_limit` from config.toml ("50MiB"), the project-wide cap on any upload. */
export function globalFileSizeLimit(): number {
  try {
    return parseFileSize(configSection('storage').file_size_limit) ?? 50 * 1024 * 1024;
  } catch {
    return 50 * 1024 * 1024;
  }
}

export function createStorageService(service: ServiceContext): ServiceHandler {
  const ctx: StorageContext = {
    pool: service.pool,
    files: new ObjectFiles(service.config.dataDir),
    globalFileSizeLimit: globalFileSizeLimit(),
  };
  return async (req, res, subPath) => {
    try {
      await route(ctx, req, res, subPath);
    } catch (e) {
      if (res.headersSent) return void res.end();
      const error = e instanceof StorageError ? e : ERRORS.internal();
      if (!(e instanceof StorageError))
        service.log(`[storage] ${req.method} ${subPath}: ${(e as Error).stack ?? e}`);
      await drain(req);
      sendStorageError(res, error);
    }
  };
}

/** Reads and drops the rest of a refused upload, so the client gets the answer instead of a reset. */
async function drain(req: IncomingMessage) {
  if (req.readableEnded || req.destroyed) return;
  req.unpipe();
  await new Promise<void>((resolve) => {
    req.on('end', resolve).on('error', resolve).on('close', resolve);
    req.resume();
  });
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, 10 * 1024 * 1024).catch((e: unknown) => {
    throw e instanceof HttpError ? ERRORS.entityTooLarge() : e;
  });
  if (!raw.length) return {};
  try {
    const value = JSON.parse(raw.toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw ERRORS.validation('body must be object');
}

/** Names the request's operation as upstream's ROUTE_OPERATIONS do, for storage.operation(). */
function op(caller: Caller, operation: string): Caller {
  caller.operation = `storage.${operation}`;
  return caller;
}

function decode(segment: string, what: 'key' | 'bucket'): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw what === 'key' ? ERRORS.invalidKey(segment) : ERRORS.invalidBucketName();
  }
}

async function route(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, subPath: string) {
  const method = req.method ?? 'GET';
  const q = subPath.indexOf('?');
  const pathname = q >= 0 ? subPath.slice(0, q) : subPath;
  const query = new URLSearchParams(q >= 0 ? subPath.slice(q + 1) : '');
  const parts = pathname.split('/').slice(1);
  const [area, ...rest] = parts;
  const notFound = () => {
    throw ERRORS.notFoundRoute(method, subPath);
  };
  // `{bucket}/{key...}` from the segments after a route's fixed part; keys may contain slashes.
  const target = (segs: string[]) => {
    if (segs.length < 2 || !segs[0]) notFound();
    return { bucket: decode(segs[0], 'bucket'), key: decode(segs.slice(1).join('/'), 'key') };
  };

  if (area === 'bucket') {
    const caller = await authenticate(req);
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
      if (method === 'GET') return listBuckets(ctx, req, res, op(caller, 'bucket.list'), query);
      if (method === 'POST')
        return createBucket(ctx, req, res, op(caller, 'bucket.create'), await jsonBody(req));
      return notFound();
    }
    const id = decode(rest[0], 'bucket');
    if (rest.length === 2 && rest[1] === 'empty' && method === 'POST') {
      return emptyBucket(ctx, req, res, op(caller, 'bucket.empty'), id);
    }
    if (rest.length !== 1) return notFound();
    if (method === 'GET') return getBucket(ctx, req, res, op(caller, 'bucket.get'), id);
    if (method === 'PUT')
      return updateBucket(ctx, req, res, op(caller, 'bucket.update'), id, await jsonBody(req));
    if (method === 'DELETE') return deleteBucket(ctx, req, res, op(caller, 'bucket.delete'), id);
    return notFound();
  }

  if (area !== 'object' || rest.length === 0) return notFound();
  const [first, ...after] = rest;
  const isRead = method === 'GET' || method === 'HEAD';

  // Routes that need no JWT: public buckets and signed URLs.
  if (first === 'public' && isRead) {
    const t = target(after);
    return objects.getPublicObject(ctx, req, res, t.bucket, t.key, query);
  }
  if (first === 'upload' && after[0] === 'sign' && method === 'PUT') {
    const t = target(after.slice(1));
    return objects.uploadToSignedUrl(ctx, req, res, t.bucket, t.key, query);
  }
  if (first === 'sign' && method === 'GET') {
    const t = target(after);
    return objects.getSignedObject(ctx, req, res, t.bucket, t.key, query);
  }
  if (first === 'info' && after[0] === 'public' && method === 'GET') {
    const t = target(after.slice(1));
    return objects.getObjectInfo(
      ctx,
      req,
      res,
      op(await authenticate(req, true), 'object.info_public'),
      t.bucket,
      t.key,
      true,
    );
  }
  // Reads of `/object/{bucket}/{key}` also serve public buckets to callers without a valid token.
  if (isRead && !['authenticated', 'info', 'sign', 'list', 'public'].includes(first)) {
    const t = target(rest);
    return objects.getObject(
      ctx,
      req,
      res,
      op(await authenticate(req, true), 'object.get_authenticated'),
      t.bucket,
      t.key,
      query,
    );
  }
  if (first === 'info' && method === 'GET' && after[0] !== 'authenticated') {
    const t = target(after);
    return objects.getObjectInfo(
      ctx,
      req,
      res,
      op(await authenticate(req, true), 'object.info_authenticated'),
      t.bucket,
      t.key,
      false,
    );
  }

  const caller = await authenticate(req);
  if (first === 'authenticated' && isRead) {
    const t = target(after);
    return objects.getObject(ctx, req, res, op(caller, 'object.get_authenticated'), t.bucket, t.key, query);
  }
  if (first === 'info' && after[0] === 'authenticated' && method === 'GET') {
    const t = target(after.slice(1));
    return objects.getObjectInfo(
      ctx,
      req,
      res,
      op(caller, 'object.info_authenticated'),
      t.bucket,
      t.key,
      false,
    );
  }
  if (method === 'POST' && rest.length === 1 && first === 'move') {
    return objects.moveObject(ctx, req, res, op(caller, 'object.move'), await jsonBody(req));
  }
  if (method === 'POST' && rest.length === 1 && first === 'copy') {
    return objects.copyObject(ctx, req, res, op(caller, 'object.copy'), await jsonBody(req));
  }
  if (method === 'POST' && first === 'upload' && after[0] === 'sign') {
    const t = target(after.slice(1));
    return objects.signUploadUrl(ctx, req, res, op(caller, 'object.sign_upload_url'), t.bucket, t.key);
  }
  if (method === 'POST' && first === 'list' && after.length === 1) {
    return objects.listObjects(
      ctx,
      req,
      res,
      op(caller, 'object.list'),
      decode(after[0], 'bucket'),
      await jsonBody(req),
    );
  }
  if (method === 'POST' && first === 'sign') {
    if (after.length === 1) {
      return objects.signUrls(
        ctx,
        req,
        res,
        op(caller, 'object.sign_many'),
        decode(after[0], 'bucket'),
        await jsonBody(req),
      );
    }
    const t = target(after);
    return objects.signUrl(ctx, req, res, op(caller, 'object.sign'), t.bucket, t.key, await jsonBody(req));
  }
  if (method === 'DELETE' && rest.length === 1) {
    return objects.removeObjects(
      ctx,
      req,
      res,
      op(caller, 'object.delete_many'),
      decode(first, 'bucket'),
      await jsonBody(req),
    );
  }
  if (method === 'DELETE') {
    const t = target(rest);
    return objects.removeObject(ctx, req, res, op(caller, 'object.delete'), t.bucket, t.key);
  }
  if (method === 'POST' || method === 'PUT') {
    const t = target(rest);
    const isUpsert = method === 'PUT' || req.headers['x-upsert'] === 'true';
    const operation = method === 'PUT' ? 'object.upload_update' : 'object.upload';
    return objects.uploadObject(ctx, req, res, op(caller, operation), t.bucket, t.key, isUpsert);
  }
  return notFound();
}
