/**
 * The bucket routes of Storage (`/bucket...`). They run as the caller, so RLS on storage.buckets
 * decides; with no bucket policies (the usual set-up: buckets are declared in migrations) only the
 * service role may list, create, change or delete buckets. Emptying a bucket is service-role only.
 */
import { parseFileSize } from '../project-config.ts';
import { ERRORS, StorageError } from './errors.ts';
import { isValidBucketName } from './files.ts';
import {
  asCaller,
  iso,
  sendOk,
  superTransaction,
  type StorageContext,
  type StorageRequest,
} from './context.ts';

interface BucketRow {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  type?: string;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

const BUCKET_COLUMNS = 'id, name, owner, public, file_size_limit, allowed_mime_types, created_at, updated_at';
const MIME_TYPE = /^([a-zA-Z0-9\-+.]+)\/([a-zA-Z0-9\-+.]+)(;\s*charset=[a-zA-Z0-9-]+)?$|\*$/;

function bucketJson(row: BucketRow) {
  return {
    id: row.id,
    name: row.name,
    owner: row.owner ?? '',
    public: row.public,
    ...(row.type !== undefined ? { type: row.type } : {}),
    file_size_limit: row.file_size_limit,
    allowed_mime_types: row.allowed_mime_types,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** Storage's size strings ("20MB", "1.5GB"), in decimal units as upstream parses them. */
function bucketFileSize(value: number | string): number {
  const bytes = parseFileSize(value, false);
  if (bytes === undefined) throw ERRORS.invalidFileSizeLimit();
  return bytes;
}

/** The columns a create or update sets, validated as upstream does. */
function bucketSettings(ctx: StorageContext, body: Record<string, unknown>) {
  const out: { public?: boolean; file_size_limit?: number | null; allowed_mime_types?: string[] | null } = {};
  if (body.public !== undefined) {
    if (typeof body.public !== 'boolean') throw ERRORS.validation('body/public must be boolean');
    out.public = body.public;
  }
  const limit = body.file_size_limit;
  if (limit === null) out.file_size_limit = null;
  else if (typeof limit === 'number' || typeof limit === 'string') {
    const bytes = bucketFileSize(limit);
    if (bytes > ctx.globalFileSizeLimit) throw ERRORS.entityTooLarge();
    out.file_size_limit = bytes;
  } else if (limit !== undefined) throw ERRORS.validation('body/file_size_limit must be integer or string');
  const types = body.allowed_mime_types;
  if (types === null) out.allowed_mime_types = null;
  else if (Array.isArray(types)) {
    const list = types.filter((t): t is string => typeof t === 'string' && t.length > 0);
    for (const t of list) if (t.length > 1000 || !MIME_TYPE.test(t)) throw ERRORS.invalidMimeType(t);
    out.allowed_mime_types = list;
  } else if (types !== undefined) throw ERRORS.validation('body/allowed_mime_types must be array');
  return out;
}

export async function listBuckets(rq: StorageRequest) {
  const { res, query } = rq;
  const values: unknown[] = [];
  let sql = `select ${BUCKET_COLUMNS}, type from storage.buckets`;
  const search = query.get('search');
  if (search) {
    values.push(`%${search.replace(/[\\%_]/g, '\\$&')}%`);
    sql += ` where name ilike $${values.length}`;
  }
  const sortColumn = query.get('sortColumn');
  if (sortColumn) {
    if (!['id', 'name', 'created_at', 'updated_at'].includes(sortColumn)) {
      throw ERRORS.validation('querystring/sortColumn must be equal to one of the allowed values');
    }
    sql += ` order by ${sortColumn} ${query.get('sortOrder') === 'desc' ? 'desc' : 'asc'}`;
  }
  for (const key of ['limit', 'offset'] as const) {
    const raw = query.get(key);
    if (raw === null) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < (key === 'limit' ? 1 : 0))
      throw ERRORS.validation(`querystring/${key} must be integer`);
    values.push(n);
    sql += ` ${key} $${values.length}`;
  }
  const rows = await asCaller(rq, async (c) => (await c.query<BucketRow>(sql, values)).rows);
  sendOk(res, rows.map(bucketJson));
}

export async function getBucket(rq: StorageRequest) {
  const { res, bucket: id } = rq;
  const rows = await asCaller(
    rq,
    async (c) =>
      (await c.query<BucketRow>(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows,
  );
  if (!rows[0]) throw ERRORS.noSuchBucket();
  sendOk(res, bucketJson(rows[0]));
}

export async function createBucket(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, res, caller } = rq;
  if (typeof body.name !== 'string') throw ERRORS.validation("body must have required property 'name'");
  const name = body.name;
  if (name.trim() !== name || !isValidBucketName(name)) throw ERRORS.invalidBucketName();
  const id = typeof body.id === 'string' && body.id ? body.id : name;
  if (body.type === 'ANALYTICS') {
    throw new StorageError(
      'FeatureNotEnabled',
      409,
      'The feature iceberg_catalog is not enabled for this resource',
    );
  }
  const settings = bucketSettings(ctx, body);
  const owner = caller.owner;
  try {
    await asCaller(rq, (c) =>
      c.query(
        `insert into storage.buckets (id, name, owner, owner_id, public, file_size_limit, allowed_mime_types)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          name,
          owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null,
          owner ?? null,
          settings.public ?? false,
          settings.file_size_limit ?? null,
          settings.allowed_mime_types ?? null,
        ],
      ),
    );
  } catch (e) {
    throw e instanceof StorageError && e.code === 'ResourceAlreadyExists' ? ERRORS.bucketAlreadyExists() : e;
  }
  sendOk(res, { name });
}

export async function updateBucket(rq: StorageRequest, body: Record<string, unknown>) {
  const { ctx, res, bucket: id } = rq;
  if (!isValidBucketName(id)) throw ERRORS.invalidBucketName();
  const settings = bucketSettings(ctx, body);
  const entries = Object.entries(settings);
  if (!entries.length) throw ERRORS.noContentProvided();
  const sets = entries.map(([column], i) => `${column} = $${i + 2}`).join(', ');
  const count = await asCaller(rq, async (c) => {
    const result = await c.query(`update storage.buckets set ${sets}, updated_at = now() where id = $1`, [
      id,
      ...entries.map(([, v]) => v),
    ]);
    return result.rowCount ?? 0;
  });
  if (!count) throw ERRORS.noSuchBucket();
  sendOk(res, { message: 'Successfully updated' });
}

export async function deleteBucket(rq: StorageRequest) {
  const { ctx, res, bucket: id } = rq;
  const { rows } = await ctx.pool.query('select id from storage.buckets where id = $1', [id]);
  if (!rows[0]) throw ERRORS.noSuchBucket();
  const { rowCount: objects } = await ctx.pool.query(
    'select 1 from storage.objects where bucket_id = $1 limit 1',
    [id],
  );
  if (objects) throw ERRORS.bucketNotEmpty();
  const deleted = await asCaller(
    rq,
    async (c) => (await c.query('delete from storage.buckets where id = $1', [id])).rowCount ?? 0,
  );
  if (!deleted) throw ERRORS.noSuchBucket();
  sendOk(res, { message: 'Successfully deleted' });
}

/** Upstream queues the deletion; here it happens at once, with upstream's answer. */
export async function emptyBucket(rq: StorageRequest) {
  const { ctx, res, caller, bucket: id } = rq;
  if (caller.claims.role !== 'service_role') {
    throw new StorageError('AccessDenied', 403, 'Access denied: Invalid role', 'Unauthorized', 403);
  }
  const found = await asCaller(
    rq,
    async (c) => (await c.query('select id from storage.buckets where id = $1', [id])).rowCount ?? 0,
  );
  if (!found) throw ERRORS.noSuchBucket();
  const rows = await superTransaction(
    ctx,
    async (c) =>
      (
        await c.query<{ name: string; version: string | null }>(
          'delete from storage.objects where bucket_id = $1 returning name, version',
          [id],
        )
      ).rows,
  );
  for (const row of rows) await ctx.files.remove(id, row.name, row.version);
  sendOk(res, { message: 'Empty bucket has been queued. Completion may take up to an hour.' });
}
