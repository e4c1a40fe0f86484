/**
 * The Storage API of the local stack (`/storage/v1`), answering storage-js as supabase/storage does:
 * the bucket routes (buckets.ts), the object routes (objects.ts) and Storage's error bodies
 * (errors.ts). Object bytes are kept under `${dataDir}/storage` (files.ts); rows live in
 * storage.objects, whose RLS policies decide every object operation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { configSection, parseFileSize, table } from '../project-config.ts';
import type { ServiceContext, ServiceHandler } from '../gateway.ts';
import { HttpError, readBody } from '../http.ts';
import { authenticate, type Caller } from './auth.ts';
import { listObjectsV2 } from './list-v2.ts';
import { createBucket, deleteBucket, emptyBucket, getBucket, listBuckets, updateBucket } from './buckets.ts';
import { ERRORS, StorageError, sendStorageError } from './errors.ts';
import { ObjectFiles } from './files.ts';
import * as objects from './objects.ts';
import type { StorageContext, StorageRequest } from './context.ts';

/** `[storage] file_size_limit` from config.toml ("50MiB"), the project-wide cap on any upload. */
export function globalFileSizeLimit(): number {
  try {
    return parseFileSize(configSection('storage').file_size_limit) ?? 50 * 1024 * 1024;
  } catch {
    return 50 * 1024 * 1024;
  }
}

/** `[storage.image_transformation] enabled = true` in config.toml, as the Supabase CLI reads it. */
export function imageTransformationEnabled(): boolean {
  try {
    return table(configSection('storage').image_transformation).enabled === true;
  } catch {
    return false;
  }
}

/** `options` stand in for config.toml's settings (tests run a second service with transformations on). */
export function createStorageService(
  service: ServiceContext,
  options: { imageTransformation?: boolean } = {},
): ServiceHandler {
  const ctx: StorageContext = {
    pool: service.pool,
    files: new ObjectFiles(service.config.dataDir),
    globalFileSizeLimit: globalFileSizeLimit(),
    imageTransformation: options.imageTransformation ?? imageTransformationEnabled(),
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

function decode(segment: string, what: 'key' | 'bucket'): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw what === 'key' ? ERRORS.invalidKey(segment) : ERRORS.invalidBucketName();
  }
}

/** A Storage route: its handler gets the request as a StorageRequest (context.ts). */
interface Route {
  methods: string[];
  /** Fixed segments, `:bucket` (one segment) and a final `*key` (one or more, joined by `/`). */
  path: string;
  /**
   * `none`: no JWT (public objects, signed URLs); `optional`: a missing or bad token reads as anon
   * (routes that also serve public buckets); `required`: Storage's JWT check.
   */
  auth: 'none' | 'optional' | 'required';
  /** Storage's name for the operation (upstream's ROUTE_OPERATIONS), which storage.operation() returns. */
  operation?: string;
  /** Segments the first variable segment may not be (they belong to more specific routes). */
  reserved?: string[];
  /** Served only while image transformation is enabled; otherwise the route does not exist. */
  imageTransformation?: boolean;
  handle: (rq: StorageRequest) => Promise<void>;
}

const READ = ['GET', 'HEAD'];
/** Segments after /object/ that name a route of their own rather than a bucket. */
const OBJECT_AREAS = ['authenticated', 'info', 'sign', 'list', 'public'];

/** Storage's routes, in the order upstream registers them where two could match. */
const ROUTES: Route[] = [
  {
    methods: ['GET'],
    path: '/bucket',
    auth: 'required',
    operation: 'bucket.list',
    handle: (r) => listBuckets(r),
  },
  {
    methods: ['POST'],
    path: '/bucket',
    auth: 'required',
    operation: 'bucket.create',
    handle: async (r) => createBucket(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/bucket/:bucket/empty',
    auth: 'required',
    operation: 'bucket.empty',
    handle: (r) => emptyBucket(r),
  },
  {
    methods: ['GET'],
    path: '/bucket/:bucket',
    auth: 'required',
    operation: 'bucket.get',
    handle: (r) => getBucket(r),
  },
  {
    methods: ['PUT'],
    path: '/bucket/:bucket',
    auth: 'required',
    operation: 'bucket.update',
    handle: async (r) => updateBucket(r, await jsonBody(r.req)),
  },
  {
    methods: ['DELETE'],
    path: '/bucket/:bucket',
    auth: 'required',
    operation: 'bucket.delete',
    handle: (r) => deleteBucket(r),
  },
  {
    methods: READ,
    path: '/object/public/:bucket/*key',
    auth: 'none',
    handle: (r) => objects.getPublicObject(r),
  },
  {
    methods: ['PUT'],
    path: '/object/upload/sign/:bucket/*key',
    auth: 'none',
    handle: (r) => objects.uploadToSignedUrl(r),
  },
  {
    methods: ['GET'],
    path: '/object/sign/:bucket/*key',
    auth: 'none',
    handle: (r) => objects.getSignedObject(r),
  },
  {
    methods: ['GET'],
    path: '/object/info/public/:bucket/*key',
    auth: 'optional',
    operation: 'object.info_public',
    handle: (r) => objects.getObjectInfo(r, true),
  },
  {
    methods: READ,
    path: '/object/:bucket/*key',
    auth: 'optional',
    operation: 'object.get_authenticated',
    reserved: OBJECT_AREAS,
    handle: (r) => objects.getObject(r),
  },
  {
    methods: ['GET'],
    path: '/object/info/:bucket/*key',
    auth: 'optional',
    operation: 'object.info_authenticated',
    reserved: ['authenticated'],
    handle: (r) => objects.getObjectInfo(r, false),
  },
  {
    methods: READ,
    path: '/object/authenticated/:bucket/*key',
    auth: 'required',
    operation: 'object.get_authenticated',
    handle: (r) => objects.getObject(r),
  },
  {
    methods: ['GET'],
    path: '/object/info/authenticated/:bucket/*key',
    auth: 'required',
    operation: 'object.info_authenticated',
    handle: (r) => objects.getObjectInfo(r, false),
  },
  {
    methods: ['POST'],
    path: '/object/move',
    auth: 'required',
    operation: 'object.move',
    handle: async (r) => objects.moveObject(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/object/copy',
    auth: 'required',
    operation: 'object.copy',
    handle: async (r) => objects.copyObject(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/object/upload/sign/:bucket/*key',
    auth: 'required',
    operation: 'object.sign_upload_url',
    handle: (r) => objects.signUploadUrl(r),
  },
  {
    methods: READ,
    path: '/render/image/public/:bucket/*key',
    auth: 'none',
    imageTransformation: true,
    operation: 'object.render_public_image',
    handle: (r) => objects.renderPublicImage(r),
  },
  {
    methods: READ,
    path: '/render/image/authenticated/:bucket/*key',
    auth: 'required',
    imageTransformation: true,
    operation: 'object.render_authenticated_image',
    handle: (r) => objects.renderAuthenticatedImage(r),
  },
  {
    methods: READ,
    path: '/render/image/sign/:bucket/*key',
    auth: 'none',
    imageTransformation: true,
    operation: 'object.render_signed_image',
    handle: (r) => objects.renderSignedImage(r),
  },
  {
    methods: ['POST'],
    path: '/object/list-v2/:bucket',
    auth: 'required',
    operation: 'object.list_v2',
    handle: async (r) => listObjectsV2(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/object/list/:bucket',
    auth: 'required',
    operation: 'object.list',
    handle: async (r) => objects.listObjects(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/object/sign/:bucket',
    auth: 'required',
    operation: 'object.sign_many',
    handle: async (r) => objects.signUrls(r, await jsonBody(r.req)),
  },
  {
    methods: ['POST'],
    path: '/object/sign/:bucket/*key',
    auth: 'required',
    operation: 'object.sign',
    handle: async (r) => objects.signUrl(r, await jsonBody(r.req)),
  },
  {
    methods: ['DELETE'],
    path: '/object/:bucket',
    auth: 'required',
    operation: 'object.delete_many',
    handle: async (r) => objects.removeObjects(r, await jsonBody(r.req)),
  },
  {
    methods: ['DELETE'],
    path: '/object/:bucket/*key',
    auth: 'required',
    operation: 'object.delete',
    handle: (r) => objects.removeObject(r),
  },
  {
    methods: ['POST'],
    path: '/object/:bucket/*key',
    auth: 'required',
    operation: 'object.upload',
    handle: (r) => objects.uploadObject(r, r.req.headers['x-upsert'] === 'true'),
  },
  {
    methods: ['PUT'],
    path: '/object/:bucket/*key',
    auth: 'required',
    operation: 'object.upload_update',
    handle: (r) => objects.uploadObject(r, true),
  },
];

/** `:bucket` and `*key` of `parts` if they fit `pattern`, else null. */
function match(
  pattern: string[],
  parts: string[],
  reserved?: string[],
): { bucket?: string; key?: string } | null {
  const out: { bucket?: string; key?: string } = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p === '*key') {
      if (parts.length <= i) return null;
      out.key = decode(parts.slice(i).join('/'), 'key');
      return out;
    }
    if (i >= parts.length) return null;
    if (p === ':bucket') {
      if (!parts[i] || reserved?.includes(parts[i])) return null;
      out.bucket = decode(parts[i], 'bucket');
    } else if (p !== parts[i]) return null;
  }
  return parts.length === pattern.length ? out : null;
}

const COMPILED = ROUTES.map((r) => ({ ...r, pattern: r.path.split('/').slice(1) }));

async function route(ctx: StorageContext, req: IncomingMessage, res: ServerResponse, subPath: string) {
  const method = req.method ?? 'GET';
  const q = subPath.indexOf('?');
  const pathname = q >= 0 ? subPath.slice(0, q) : subPath;
  const query = new URLSearchParams(q >= 0 ? subPath.slice(q + 1) : '');
  let parts = pathname.split('/').slice(1);
  // `/bucket/` lists buckets as `/bucket` does.
  if (parts.length === 2 && parts[0] === 'bucket' && parts[1] === '') parts = ['bucket'];
  for (const r of COMPILED) {
    if (!r.methods.includes(method) || (r.imageTransformation && !ctx.imageTransformation)) continue;
    const found = match(r.pattern, parts, r.reserved);
    if (!found) continue;
    const caller: Caller =
      r.auth === 'none'
        ? { claims: { role: 'anon' }, isAuthenticated: false }
        : await authenticate(req, r.auth === 'optional');
    if (r.operation) caller.operation = `storage.${r.operation}`;
    return r.handle({ ctx, req, res, caller, bucket: found.bucket ?? '', key: found.key ?? '', query });
  }
  throw ERRORS.notFoundRoute(method, subPath);
}
