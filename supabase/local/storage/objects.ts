/**
 * The object routes of Storage (`/object/...`) as storage-js calls them. Each permission question is
 * asked of Postgres as the caller (withRole with the JWT's claims), so the RLS policies on
 * storage.objects decide: select for download, list and sign; insert for upload; insert or update for
 * upsert; update for move; delete for remove. Work that upstream does as its superuser after such a
 * check (writing the final row of an upload, serving a public bucket) is done on the superuser pool.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Caller } from './auth.ts';
import { signObjectUrlToken, verifyObjectUrlToken } from './auth.ts';
import { ERRORS, StorageError, fromPgError } from './errors.ts';
import { mustBeValidKey } from './files.ts';
import { fileFromRequest, isEmptyFolder, writeToTemp } from './upload.ts';
import {
  asCaller,
  objectMetadataHeaders,
  iso,
  sendOk,
  superTransaction,
  type CallerRequest,
  type ResponseRequest,
  type StorageContext,
  type StorageRequest,
} from './context.ts';
import {
  renderImage,
  transformFromBody,
  transformFromQuery,
  transformFromString,
  transformToString,
} from './render-image.ts';

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

interface ObjectRow {
  id: string;
  name: string;
  bucket_id: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  created_at: string | null;
  updated_at: string | null;
  last_accessed_at: string | null;
  metadata: ObjectMetadata | null;
  user_metadata: Record<string, unknown> | null;
}

interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

const MAX_OBJECTS_PER_REQUEST = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An object row in the shape of Storage's objectSchema (used by remove and copy). */
function objectJson(row: Partial<ObjectRow>) {
  return {
    name: row.name,
    bucket_id: row.bucket_id,
    owner: row.owner ?? '',
    owner_id: row.owner_id ?? '',
    version: row.version ?? '',
    id: row.id ?? null,
    updated_at: iso(row.updated_at),
    created_at: iso(row.created_at),
    last_accessed_at: iso(row.last_accessed_at),
    metadata: row.metadata ?? null,
    user_metadata: row.user_metadata ?? null,
  };
}

const ROLLBACK = Symbol('rollback');

/** Asks whether `fn` would succeed as the caller, then undoes it (Storage's testPermission). */
async function testPermission(
  rq: CallerRequest,
  fn: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  try {
    await asCaller(rq, async (client) => {
      await fn(client);
      throw ROLLBACK;
    });
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  }
}

async function findBucket(ctx: StorageContext, bucketId: string): Promise<BucketRow | undefined> {
  const { rows } = await ctx.pool.query<BucketRow>(
    'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [bucketId],
  );
  return rows[0];
}

async function findObject(
  client: pg.Pool | pg.PoolClient,
  bucketId: string,
  name: string,
  forUpdate = false,
): Promise<ObjectRow> {
  mustBeValidKey(name);
  const { rows } = await client.query<ObjectRow>(
    `select * from storage.objects where name = $1 and bucket_id = $2 limit 1${forUpdate ? ' for update' : ''}`,
    [name, bucketId],
  );
  if (!rows[0]) throw ERRORS.noSuchKey();
  return rows[0];
}

function ownerColumns(owner: string | undefined) {
  return { owner: owner && UUID.test(owner) ? owner : null, owner_id: owner ?? null };
}

/** Serialises concurrent writers of one key within a transaction, as upstream's object lock does. */
async function lockKey(client: pg.PoolClient, bucketId: string, name: string) {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`${bucketId}/${name}`]);
}

/**
 * Whether the caller may create (or, with upsert, create or replace) the object: Storage's canUpload,
 * an insert as the caller that is always rolled back.
 */
async function canUpload(
  rq: CallerRequest,
  o: { bucketId: string; name: string; isUpsert: boolean; metadata: unknown; userMetadata: unknown },
) {
  const { caller } = rq;
  const owner = ownerColumns(caller.owner);
  await testPermission(rq, async (client) => {
    await client
      .query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, '1')
         ${o.isUpsert ? 'on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata, version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id' : ''}`,
        [o.bucketId, o.name, owner.owner, owner.owner_id, o.metadata, o.userMetadata],
      )
      .catch((e: unknown) => {
        const mapped = fromPgError(e);
        throw mapped instanceof StorageError && mapped.code === 'ResourceAlreadyExists'
          ? ERRORS.keyAlreadyExists()
          : e;
      });
  });
}

/** Upstream's lifetime of a signed upload URL (UPLOAD_SIGNED_URL_EXPIRATION_TIME): two hours. */
const SIGNED_UPLOAD_URL_EXPIRES_IN = 7200;

/** POST `/object/upload/sign/{bucket}/{key}`: a URL that lets whoever holds it upload this one object (for two hours). */
export async function signUploadUrl(rq: StorageRequest) {
  const { req, res, caller, bucket: bucketId, key: name } = rq;
  mustBeValidKey(name);
  const isUpsert = req.headers['x-upsert'] === 'true';
  const xMetadata = req.headers['x-metadata'];
  let userMetadata: unknown;
  if (typeof xMetadata === 'string') {
    try {
      userMetadata = JSON.parse(Buffer.from(xMetadata, 'base64').toString('utf8'));
    } catch {
      userMetadata = undefined;
    }
  }
  const contentLength = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
  await canUpload(rq, {
    bucketId,
    name,
    isUpsert,
    metadata: { mimetype: req.headers['content-type'], contentLength },
    userMetadata,
  });
  const url = `${bucketId}/${name}`;
  const token = await signObjectUrlToken(url, SIGNED_UPLOAD_URL_EXPIRES_IN, 'upload', {
    owner: caller.owner,
    upsert: isUpsert,
  });
  sendOk(res, { url: `/object/upload/sign/${url}?token=${token}`, token });
}

/** A signed URL's `token`, verified for this object and purpose (Storage's 400 when it is missing). */
function signedUrlToken(
  rq: Pick<StorageRequest, 'query' | 'bucket' | 'key'>,
  purpose: Parameters<typeof verifyObjectUrlToken>[2],
) {
  const token = rq.query.get('token');
  if (!token) throw ERRORS.validation("querystring must have required property 'token'");
  return verifyObjectUrlToken(token, `${rq.bucket}/${rq.key}`, purpose);
}

/**
 * PUT `/object/upload/sign/{bucket}/{key}?token=`: the token stands in for the JWT. The upload is made
 * with the rights of the user who signed it (checked then), so RLS is not asked again, as upstream.
 */
export async function uploadToSignedUrl(rq: StorageRequest) {
  const signed = await signedUrlToken(rq, 'upload');
  const signer: Caller = {
    claims: { role: 'service_role' },
    isAuthenticated: true,
    owner: signed.owner,
    operation: 'storage.object.upload_signed',
  };
  await uploadObject({ ...rq, caller: signer }, !!signed.upsert, { keyOnly: true });
}

/** POST (upload, `x-upsert`) and PUT (update: always an upsert) of `/object/{bucket}/{key}`. */
export async function uploadObject(
  rq: StorageRequest,
  isUpsert: boolean,
  /** Signed uploads answer with the key only, as upstream. */
  options: { keyOnly?: boolean } = {},
) {
  const { ctx, req, res, caller, bucket: bucketId, key: name } = rq;
  const bucket = await findBucket(ctx, bucketId);
  if (!bucket) throw ERRORS.noSuchBucket();
  const maxFileSize = isEmptyFolder(name)
    ? 0
    : Math.min(bucket.file_size_limit ?? Infinity, ctx.globalFileSizeLimit);
  const file = await fileFromRequest(req, {
    objectName: name,
    maxFileSize,
    allowedMimeTypes: bucket.allowed_mime_types,
  });
  mustBeValidKey(name);
  const owner = ownerColumns(caller.owner);
  const userMetadata = { ...file.userMetadata };

  // RLS first, so a refused upload never stores a byte.
  await canUpload(rq, {
    bucketId,
    name,
    isUpsert,
    metadata: { mimetype: file.mimeType, contentLength: file.declaredLength },
    userMetadata,
  });

  const written = await writeToTemp(file, ctx.files, maxFileSize);
  const version = randomUUID();
  const metadata: ObjectMetadata = {
    eTag: written.eTag,
    size: written.size,
    mimetype: file.mimeType,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: written.size,
    httpStatusCode: 200,
  };
  let placed = false;
  let done: { id: string; previous: string | null };
  try {
    done = await superTransaction(ctx, async (client) => {
      await lockKey(client, bucketId, name);
      const { rows: current } = await client.query<{ version: string | null }>(
        'select version from storage.objects where bucket_id = $1 and name = $2 for update',
        [bucketId, name],
      );
      const { rows } = await client.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
           version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id
         returning id`,
        [bucketId, name, owner.owner, owner.owner_id, metadata, userMetadata, version],
      );
      // The bytes go into place inside the transaction: if the commit fails they are removed below.
      await ctx.files.place(written.tempFile, bucketId, name, version);
      placed = true;
      return { id: rows[0].id, previous: current[0]?.version ?? null };
    });
  } catch (e) {
    if (placed) await ctx.files.remove(bucketId, name, version);
    else await ctx.files.removeTemp(written.tempFile);
    throw e;
  }
  await ctx.files.remove(bucketId, name, done.previous);
  sendOk(res, options.keyOnly ? { Key: `${bucketId}/${name}` } : { Id: done.id, Key: `${bucketId}/${name}` });
}

/** GET/HEAD of `/object/{bucket}/{key}` and `/object/authenticated/...`: RLS decides for private buckets. */
export async function getObject(rq: StorageRequest) {
  const { query } = rq;
  const obj = await findReadable(rq);
  await render(rq, obj, { download: query.get('download') ?? undefined });
}

/** The object a caller may read: any object of a public bucket, otherwise what RLS lets them select. */
async function findReadable(rq: StorageRequest) {
  const { ctx, caller, bucket: bucketId, key: name } = rq;
  const bucket = await findBucket(ctx, bucketId);
  if (!bucket || (!caller.isAuthenticated && !bucket.public)) throw ERRORS.noSuchBucket();
  if (bucket.public) return findObject(ctx.pool, bucketId, name);
  return asCaller(rq, (client) => findObject(client, bucketId, name));
}

/** GET `/object/public/{bucket}/{key}`: no token needed, and only for public buckets. */
export async function getPublicObject(rq: StorageRequest) {
  const { ctx, bucket: bucketId, key: name, query } = rq;
  const bucket = await findBucket(ctx, bucketId);
  if (!bucket?.public) throw ERRORS.noSuchBucket();
  const obj = await findObject(ctx.pool, bucketId, name);
  await render(rq, obj, { download: query.get('download') ?? undefined });
}

/** GET `/object/info/...`: the object's details as storage-js `info()` reads them. */
export async function getObjectInfo(rq: StorageRequest, publicRoute: boolean) {
  const { ctx, res, bucket: bucketId, key: name } = rq;
  let obj: ObjectRow;
  if (publicRoute) {
    // The public route answers for public buckets only, whoever asks.
    if (!(await findBucket(ctx, bucketId))?.public) throw ERRORS.noSuchBucket();
    obj = await findObject(ctx.pool, bucketId, name);
  } else {
    obj = await findReadable(rq);
  }
  const m = obj.metadata;
  sendOk(
    res,
    {
      id: obj.id,
      name: obj.name,
      version: obj.version,
      bucket_id: obj.bucket_id,
      size: m?.size ?? null,
      content_type: m?.mimetype ?? null,
      cache_control: m?.cacheControl ?? null,
      etag: m?.eTag ?? null,
      metadata: obj.user_metadata,
      last_modified: iso(obj.updated_at),
      created_at: iso(obj.created_at),
    },
    m
      ? {
          etag: m.eTag,
          'cache-control': m.cacheControl,
          'last-modified': new Date(m.lastModified).toUTCString(),
        }
      : {},
  );
}

/** POST `/object/sign/{bucket}/{key}`: a download URL for an object the caller can select. */
export async function signUrl(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, res, bucket: bucketId, key: name } = rq;
  const expiresIn = mustBeExpiresIn(body.expiresIn);
  // With image transformation on, `transform` travels in the token and the URL renders the image.
  const transform = ctx.imageTransformation ? transformFromBody(body.transform) : undefined;
  const transformations = transform ? transformToString(transform) : '';
  await asCaller(rq, (client) => findObject(client, bucketId, name));
  const url = `${bucketId}/${name}`;
  const token = await signObjectUrlToken(url, expiresIn, 'download', undefined, transformations);
  const area = transformations ? 'render/image' : 'object';
  sendOk(res, { signedURL: `/${area}/sign/${url}?token=${token}` });
}

/** GET `/render/image/public/{bucket}/{key}`: a public bucket's image, transformed. */
export async function renderPublicImage(rq: StorageRequest) {
  const { ctx, bucket: bucketId, key: name, query } = rq;
  const transform = transformFromQuery(query);
  const bucket = await findBucket(ctx, bucketId);
  if (!bucket?.public) throw ERRORS.noSuchBucket();
  const obj = await findObject(ctx.pool, bucketId, name);
  await renderImage(rq, obj, transform, { download: query.get('download') ?? undefined });
}

/** GET `/render/image/authenticated/{bucket}/{key}`: an image the caller may read, transformed. */
export async function renderAuthenticatedImage(rq: StorageRequest) {
  const { bucket: bucketId, key: name, query } = rq;
  const transform = transformFromQuery(query);
  const obj = await asCaller(rq, (client) => findObject(client, bucketId, name));
  await renderImage(rq, obj, transform, { download: query.get('download') ?? undefined });
}

/** GET `/render/image/sign/{bucket}/{key}?token=`: the token grants the read and fixes the transformation. */
export async function renderSignedImage(rq: StorageRequest) {
  const { ctx, bucket: bucketId, key: name, query } = rq;
  const { exp, transformations } = await signedUrlToken(rq, 'download');
  const obj = await findObject(ctx.pool, bucketId, name);
  await renderImage(rq, obj, transformFromString(transformations ?? ''), {
    download: query.get('download') ?? undefined,
    expires: new Date(exp * 1000).toUTCString(),
  });
}

/** POST `/object/sign/{bucket}`: one entry per path, with an error for paths RLS hides or that do not exist. */
export async function signUrls(rq: StorageRequest, body: Record<string, unknown>) {
  const { res, bucket: bucketId } = rq;
  const expiresIn = mustBeExpiresIn(body.expiresIn);
  const paths = mustBeStringArray(body.paths, 'paths');
  const visible = await asCaller(rq, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      'select name from storage.objects where bucket_id = $1 and name = any($2::text[])',
      [bucketId, paths],
    );
    return new Set(rows.map((r) => r.name));
  });
  const result = await Promise.all(
    paths.map(async (path) => {
      if (!visible.has(path)) {
        return {
          error: 'Either the object does not exist or you do not have access to it',
          path,
          signedURL: null,
        };
      }
      const url = `${bucketId}/${path}`;
      return {
        error: null,
        path,
        signedURL: `/object/sign/${url}?token=${await signObjectUrlToken(url, expiresIn)}`,
      };
    }),
  );
  sendOk(res, result);
}

/** GET `/object/sign/{bucket}/{key}?token=`: the token alone grants the read. */
export async function getSignedObject(rq: StorageRequest) {
  const { ctx, bucket: bucketId, key: name, query } = rq;
  const { exp } = await signedUrlToken(rq, 'download');
  const obj = await findObject(ctx.pool, bucketId, name);
  await render(rq, obj, {
    download: query.get('download') ?? undefined,
    expires: new Date(exp * 1000).toUTCString(),
  });
}

/** POST `/object/list/{bucket}`: one folder level under `prefix`, folders as entries with a null id. */
export async function listObjects(rq: StorageRequest, body: Record<string, unknown>) {
  const { res, bucket: bucketId } = rq;
  if (typeof body.prefix !== 'string') throw ERRORS.validation("body must have required property 'prefix'");
  const limit = optionalInteger(body.limit, 'limit', 1);
  const offset = optionalInteger(body.offset, 'offset', 0);
  const search = body.search === undefined ? '' : body.search;
  if (typeof search !== 'string') throw ERRORS.validation('body/search must be string');
  const sortBy = (body.sortBy ?? {}) as { column?: unknown; order?: unknown };
  const column = sortBy.column ?? 'name';
  const order = sortBy.order ?? 'asc';
  if (!['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(column as string)) {
    throw ERRORS.validation('body/sortBy/column must be equal to one of the allowed values');
  }
  if (!['asc', 'desc'].includes(order as string)) {
    throw ERRORS.validation('body/sortBy/order must be equal to one of the allowed values');
  }
  let prefix = body.prefix;
  if (prefix.length > 0 && !prefix.endsWith('/')) prefix += '/';
  const rows = await asCaller(rq, async (client) => {
    const result = await client.query('select * from storage.search($1, $2, $3, $4, $5, $6, $7, $8)', [
      prefix,
      bucketId,
      limit ?? 100,
      (prefix + search).split('/').length,
      offset ?? 0,
      search,
      column,
      order,
    ]);
    return result.rows as Partial<ObjectRow>[];
  });
  sendOk(
    res,
    rows.map((r) => ({
      name: r.name,
      id: r.id ?? null,
      updated_at: iso(r.updated_at),
      created_at: iso(r.created_at),
      last_accessed_at: iso(r.last_accessed_at),
      metadata: r.metadata ?? null,
    })),
  );
}

/** DELETE `/object/{bucket}` with `{prefixes}`: removes what RLS lets the caller delete, returns those rows. */
export async function removeObjects(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, res, bucket: bucketId } = rq;
  const prefixes = mustBeStringArray(body.prefixes, 'prefixes');
  if (prefixes.length > MAX_OBJECTS_PER_REQUEST) {
    throw new StorageError(
      'InvalidRequest',
      400,
      `Bulk object requests are limited to ${MAX_OBJECTS_PER_REQUEST} objects per request.`,
    );
  }
  const deleted = await asCaller(rq, async (client) => {
    const { rows } = await client.query<ObjectRow>(
      'delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *',
      [bucketId, prefixes],
    );
    return rows;
  });
  for (const row of deleted) await ctx.files.remove(bucketId, row.name, row.version);
  sendOk(res, deleted.map(objectJson));
}

/** DELETE `/object/{bucket}/{key}`. */
export async function removeObject(rq: StorageRequest) {
  const { ctx, res, bucket: bucketId, key: name } = rq;
  await findObject(ctx.pool, bucketId, name);
  const deleted = await asCaller(rq, async (client) => {
    const { rows } = await client.query<ObjectRow>(
      'delete from storage.objects where bucket_id = $1 and name = $2 returning *',
      [bucketId, name],
    );
    return rows[0];
  });
  if (!deleted) throw ERRORS.accessDenied('Access denied');
  await ctx.files.remove(bucketId, deleted.name, deleted.version);
  sendOk(res, { message: 'Successfully deleted' });
}

/** The source and destination of a move or copy; the destination bucket defaults to the source's. */
function transferTarget(body: Record<string, unknown>) {
  const { bucketId, sourceKey, destinationKey } = requireStrings(body, [
    'bucketId',
    'sourceKey',
    'destinationKey',
  ]);
  mustBeValidKey(destinationKey);
  const destinationBucket =
    typeof body.destinationBucket === 'string' && body.destinationBucket ? body.destinationBucket : bucketId;
  return { bucketId, sourceKey, destinationKey, destinationBucket };
}

/** POST `/object/move`: the caller must be able to select the source and update it into the destination. */
export async function moveObject(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, res, caller } = rq;
  const { bucketId, sourceKey, destinationKey, destinationBucket } = transferTarget(body);
  const owner = ownerColumns(caller.owner);
  const version = randomUUID();

  await testPermission(rq, async (client) => {
    await findObject(client, bucketId, sourceKey);
    const { rowCount } = await client.query(
      `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6, owner_id = $7
       where bucket_id = $1 and name = $2`,
      [bucketId, sourceKey, destinationKey, destinationBucket, version, owner.owner, owner.owner_id],
    );
    if (!rowCount) throw ERRORS.noSuchKey();
  });

  const source = await findObject(ctx.pool, bucketId, sourceKey);
  if (bucketId === destinationBucket && sourceKey === destinationKey) {
    return sendOk(res, { message: 'Successfully moved', Id: source.id, Key: destinationKey });
  }
  const temp = await ctx.files.copyToTemp(bucketId, sourceKey, source.version ?? '');
  let placed = false;
  let moved: { row: ObjectRow; oldVersion: string | null };
  try {
    moved = await superTransaction(ctx, async (client) => {
      await lockKey(client, destinationBucket, destinationKey);
      const current = await findObject(client, bucketId, sourceKey, true);
      const metadata = current.metadata
        ? { ...current.metadata, lastModified: new Date().toISOString() }
        : null;
      const { rows } = await client.query<ObjectRow>(
        `update storage.objects set name = $3, bucket_id = $4, version = $5, owner = $6, owner_id = $7, metadata = $8
         where bucket_id = $1 and name = $2 returning *`,
        [
          bucketId,
          sourceKey,
          destinationKey,
          destinationBucket,
          version,
          owner.owner,
          owner.owner_id,
          metadata,
        ],
      );
      await ctx.files.place(temp, destinationBucket, destinationKey, version);
      placed = true;
      return { row: rows[0], oldVersion: current.version };
    });
  } catch (e) {
    if (placed) await ctx.files.remove(destinationBucket, destinationKey, version);
    else await ctx.files.removeTemp(temp);
    throw e;
  }
  await ctx.files.remove(bucketId, sourceKey, moved.oldVersion);
  sendOk(res, { message: 'Successfully moved', Id: moved.row.id, Key: moved.row.name });
}

/** POST `/object/copy`: select on the source, insert (or upsert with `x-upsert`) on the destination. */
export async function copyObject(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, req, res, caller } = rq;
  const { bucketId, sourceKey, destinationKey, destinationBucket } = transferTarget(body);
  const isUpsert = req.headers['x-upsert'] === 'true';
  const owner = ownerColumns(caller.owner);

  const source = await asCaller(rq, (client) => findObject(client, bucketId, sourceKey));
  await testPermission(rq, async (client) => {
    await client
      .query(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, '1')
         ${isUpsert ? 'on conflict (name, bucket_id) do update set metadata = excluded.metadata, version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id' : ''}`,
        [
          destinationBucket,
          destinationKey,
          owner.owner,
          owner.owner_id,
          source.metadata,
          source.user_metadata,
        ],
      )
      .catch((e: unknown) => {
        const mapped = fromPgError(e);
        throw mapped instanceof StorageError && mapped.code === 'ResourceAlreadyExists'
          ? ERRORS.keyAlreadyExists()
          : e;
      });
  });

  const version = randomUUID();
  const temp = await ctx.files.copyToTemp(bucketId, sourceKey, source.version ?? '');
  let placed = false;
  let copied: { row: ObjectRow; previous: string | null };
  try {
    copied = await superTransaction(ctx, async (client) => {
      await lockKey(client, destinationBucket, destinationKey);
      const { rows: existing } = await client.query<{ version: string | null }>(
        'select version from storage.objects where bucket_id = $1 and name = $2 for update',
        [destinationBucket, destinationKey],
      );
      const metadata = source.metadata
        ? { ...source.metadata, lastModified: new Date().toISOString() }
        : null;
      const { rows } = await client.query<ObjectRow>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (name, bucket_id) do update set metadata = excluded.metadata, user_metadata = excluded.user_metadata,
           version = excluded.version, owner = excluded.owner, owner_id = excluded.owner_id
         returning *`,
        [
          destinationBucket,
          destinationKey,
          owner.owner,
          owner.owner_id,
          metadata,
          source.user_metadata,
          version,
        ],
      );
      await ctx.files.place(temp, destinationBucket, destinationKey, version);
      placed = true;
      return { row: rows[0], previous: existing[0]?.version ?? null };
    });
  } catch (e) {
    if (placed) await ctx.files.remove(destinationBucket, destinationKey, version);
    else await ctx.files.removeTemp(temp);
    throw e;
  }
  await ctx.files.remove(destinationBucket, destinationKey, copied.previous);
  sendOk(res, {
    Id: copied.row.id,
    Key: `${destinationBucket}/${destinationKey}`,
    ...objectJson(copied.row),
  });
}

/** Sends an object's bytes with the headers Storage's renderer sets (ETag, caching, ranges, download). */
async function render(rq: ResponseRequest, obj: ObjectRow, options: { download?: string; expires?: string }) {
  const { ctx, req, res } = rq;
  const m = obj.metadata;
  const size = m?.size ?? 0;
  if (!obj.version || !(await ctx.files.exists(obj.bucket_id, obj.name, obj.version))) {
    return sendJson400NotFound(res);
  }
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'content-type': normalizeContentType(m?.mimetype ?? 'application/octet-stream'),
    'x-robots-tag': 'none',
    // Browsers must take the stored type as given: an image whose bytes look like a page is never run.
    'x-content-type-options': 'nosniff',
  };
  objectMetadataHeaders(headers, m, options);
  if (m?.eTag && req.headers['if-none-match'] === m.eTag) {
    res.writeHead(304, headers);
    return res.end();
  }
  let status = 200;
  let range: { start: number; end: number } | undefined;
  if (req.headers.range) {
    range = parseRange(req.headers.range, size);
    status = 206;
    headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  }
  headers['content-length'] = String(range ? range.end - range.start + 1 : size);
  res.writeHead(status, headers);
  if (req.method === 'HEAD' || size === 0) return res.end();
  const stream = ctx.files.open(obj.bucket_id, obj.name, obj.version, range);
  await new Promise<void>((resolve) => {
    stream.on('error', () => {
      res.destroy();
      resolve();
    });
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}

/** Upstream answers a row whose bytes are gone with this body, not the usual NoSuchKey one. */
function sendJson400NotFound(res: ServerResponse) {
  sendOk(
    res,
    { error: 'Not found', message: 'The resource was not found', statusCode: '404', code: 'NoSuchKey' },
    { 'cache-control': 'no-store' },
    400,
  );
}

/** HTML is never served as HTML from a bucket, as upstream does, so uploads cannot script the API origin. */
function normalizeContentType(contentType: string): string {
  return contentType.includes('text/html') ? 'text/plain' : contentType;
}

function parseRange(header: string, size: number): { start: number; end: number } {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) throw ERRORS.invalidRange();
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) throw ERRORS.invalidRange();
  return { start, end };
}

function mustBeExpiresIn(value: unknown): number {
  if (value === undefined) throw ERRORS.validation("body must have required property 'expiresIn'");
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw ERRORS.validation('body/expiresIn must be integer');
  if (value < 1) throw ERRORS.validation('body/expiresIn must be >= 1');
  if (value > Math.floor(Number.MAX_SAFE_INTEGER / 1000) - Math.floor(Date.now() / 1000)) {
    throw ERRORS.invalidParameter('expiresIn');
  }
  return value;
}

function mustBeStringArray(value: unknown, name: string): string[] {
  if (value === undefined) throw ERRORS.validation(`body must have required property '${name}'`);
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw ERRORS.validation(`body/${name} must be array`);
  }
  if (value.length < 1) throw ERRORS.validation(`body/${name} must NOT have fewer than 1 items`);
  return value as string[];
}

function optionalInteger(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw ERRORS.validation(`body/${name} must be integer`);
  if (value < min) throw ERRORS.validation(`body/${name} must be >= ${min}`);
  return value;
}

function requireStrings<K extends string>(body: Record<string, unknown>, keys: K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) {
    if (typeof body[key] !== 'string') throw ERRORS.validation(`body must have required property '${key}'`);
    out[key] = body[key] as string;
  }
  return out;
}
