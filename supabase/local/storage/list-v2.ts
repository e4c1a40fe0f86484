/**
 * POST `/object/list-v2/{bucket}` (storage-js `listV2`), as Supabase Storage answers it
 * (`src/storage/object.ts:listObjectsV2` over its `search_v2` / flat listing): the objects under a
 * prefix, flat or with `with_delimiter` one level deep with the deeper ones grouped into folders, sorted
 * by name (bytewise) or by `created_at` / `updated_at`, at most `limit` (up to 1000) a page, and a
 * `nextCursor` that continues after the last entry. The caller sees only what RLS lets it select.
 */
import { asCaller, iso, sendOk, type StorageRequest } from './context.ts';
import { ERRORS } from './errors.ts';

type SortColumn = 'name' | 'created_at' | 'updated_at';

/** What a cursor carries: Storage's continuation token, `k:value` lines in base64. */
interface Cursor {
  startAfter: string;
  sortOrder?: string;
  sortColumn?: string;
  sortColumnAfter?: string;
}

const CURSOR_PARTS: [string, keyof Cursor][] = [
  ['l', 'startAfter'],
  ['o', 'sortOrder'],
  ['c', 'sortColumn'],
  ['a', 'sortColumnAfter'],
];

function encodeCursor(c: Cursor): string {
  const lines = CURSOR_PARTS.filter(([, k]) => c[k]).map(([p, k]) => `${p}:${c[k]}`);
  return Buffer.from(lines.join('\n')).toString('base64');
}

function decodeCursor(token: string): Cursor {
  const out: Cursor = { startAfter: '', sortOrder: 'asc' };
  for (const line of Buffer.from(token, 'base64').toString().split('\n')) {
    const m = /^(\S):(.*)/.exec(line);
    const part = m && CURSOR_PARTS.find(([p]) => p === m[1]);
    if (!part) throw ERRORS.invalidParameter('continuation token');
    out[part[1]] = m[2];
  }
  return out;
}

interface Row {
  key?: string;
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: unknown;
}

/** The body as Storage's route schema checks it (ajv's messages). */
function readOptions(body: Record<string, unknown>) {
  const { prefix, limit, cursor, with_delimiter: withDelimiter, sortBy } = body;
  if (prefix !== undefined && typeof prefix !== 'string')
    throw ERRORS.validation('body/prefix must be string');
  if (cursor !== undefined && typeof cursor !== 'string')
    throw ERRORS.validation('body/cursor must be string');
  if (withDelimiter !== undefined && typeof withDelimiter !== 'boolean')
    throw ERRORS.validation('body/with_delimiter must be boolean');
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isInteger(limit))
      throw ERRORS.validation('body/limit must be integer');
    if (limit < 1) throw ERRORS.validation('body/limit must be >= 1');
  }
  let column: SortColumn | undefined;
  let order: string | undefined;
  if (sortBy !== undefined) {
    if (sortBy === null || typeof sortBy !== 'object') throw ERRORS.validation('body/sortBy must be object');
    const s = sortBy as { column?: unknown; order?: unknown };
    if (s.column === undefined) throw ERRORS.validation("body/sortBy must have required property 'column'");
    if (!['name', 'updated_at', 'created_at'].includes(s.column as string))
      throw ERRORS.validation('body/sortBy/column must be equal to one of the allowed values');
    if (s.order !== undefined && !['asc', 'desc'].includes(s.order as string))
      throw ERRORS.validation('body/sortBy/order must be equal to one of the allowed values');
    column = s.column as SortColumn;
    order = s.order as string | undefined;
  }
  return {
    prefix: (prefix as string | undefined) ?? '',
    limit: Math.min((limit as number | undefined) || 1000, 1000),
    cursor: cursor ? decodeCursor(cursor as string) : undefined,
    delimited: withDelimiter === true,
    column,
    order,
  };
}

/**
 * One level under `prefix`: each deeper object counts once, as its folder (the first `/`-ended part
 * after the prefix), which takes the earliest `created_at` of its objects as both timestamps (the
 * time sorts do; name sorting gives folders no timestamps). Name order is bytewise on the folder's
 * `/`-ended prefix, so a folder sits where its objects would; a cursor naming a folder continues
 * after everything in it.
 */
function delimitedSql(dir: 'asc' | 'desc'): string {
  return `
with raw as (
  select o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata,
    case when position('/' in substring(o.name from length($1) + 1)) > 0
      then left(o.name, length($1) + position('/' in substring(o.name from length($1) + 1))) end as folder
  from storage.objects o
  where o.bucket_id = $2 and o.name collate "C" like replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'
), entries as (
  select rtrim(folder, '/') as name, null::uuid as id,
    case when $6 = 'name' then null else min(created_at) end as updated_at,
    case when $6 = 'name' then null else min(created_at) end as created_at,
    null::timestamptz as last_accessed_at, null::jsonb as metadata, folder as sort_key
  from raw where folder is not null group by folder
  union all
  select name, id, updated_at, created_at, last_accessed_at, metadata, name as sort_key
  from raw where folder is null
), cursor as (
  select case when $4 = '' then null
    when exists (select 1 from raw where left(raw.name, length($4) + 1) = $4 || '/') then $4 || '/'
    else $4 end as key
)
select split_part(e.name, '/', $3) as key, e.name, e.id, e.updated_at, e.created_at, e.last_accessed_at, e.metadata
from entries e, cursor c
where c.key is null or case
  when $6 = 'name' and $5 = 'asc' then e.sort_key collate "C" > c.key
  when $6 = 'name' then e.sort_key collate "C" < c.key
  when $5 = 'asc' then (date_trunc('milliseconds', case when $6 = 'created_at' then e.created_at else e.updated_at end), e.name collate "C")
    > (coalesce(nullif($8, '')::timestamptz, 'epoch'::timestamptz), $4)
  else (date_trunc('milliseconds', case when $6 = 'created_at' then e.created_at else e.updated_at end), e.name collate "C")
    < (coalesce(nullif($8, '')::timestamptz, 'epoch'::timestamptz), $4) end
order by
  case when $6 = 'name' then null else coalesce(date_trunc('milliseconds', case when $6 = 'created_at' then e.created_at else e.updated_at end), 'epoch') end
    ${dir},
  case when $6 = 'name' then e.sort_key else e.name end collate "C" ${dir}
limit $7`;
}

/** Every object under `prefix`, sorted by name or by a timestamp then name. */
function flatSql(column: SortColumn, dir: 'asc' | 'desc', after: 'none' | 'name' | 'time'): string {
  const op = dir === 'asc' ? '>' : '<';
  const where =
    after === 'name'
      ? ` and o.name collate "C" ${op} $4`
      : after === 'time'
        ? ` and (date_trunc('milliseconds', o.${column}), o.name collate "C") ${op} (coalesce(nullif($5, '')::timestamptz, 'epoch'::timestamptz), $4)`
        : '';
  return (
    `select o.id, o.name, o.metadata, o.updated_at, o.created_at, o.last_accessed_at from storage.objects o ` +
    `where o.bucket_id = $1 and o.name collate "C" like replace(replace(replace($2, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'${where} ` +
    `order by ${column === 'name' ? '' : `o.${column} ${dir}, `}o.name collate "C" ${dir} limit $3`
  );
}

export async function listObjectsV2(rq: StorageRequest, body: Record<string, unknown>) {
  const { res, bucket: bucketId } = rq;
  const o = readOptions(body);
  const column = ((o.cursor?.sortColumn || o.column) as SortColumn | undefined) ?? 'name';
  const dir = (o.cursor?.sortOrder || o.order) === 'desc' ? 'desc' : 'asc';
  const startAfter = o.cursor?.startAfter ?? '';
  const timeAfter = o.cursor?.sortColumnAfter ?? '';
  const rows = await asCaller(rq, async (client) => {
    if (o.delimited) {
      const levels = o.prefix ? o.prefix.split('/').length : 1;
      const params = [o.prefix, bucketId, levels, startAfter, dir, column, o.limit + 1, timeAfter];
      return (await client.query(delimitedSql(dir), params)).rows as Row[];
    }
    const after = !startAfter ? 'none' : column !== 'name' && timeAfter ? 'time' : 'name';
    const params: unknown[] = [bucketId, o.prefix, o.limit + 1];
    if (after !== 'none') params.push(startAfter);
    if (after === 'time') params.push(timeAfter);
    return (await client.query(flatSql(column, dir, after), params)).rows as Row[];
  });
  const hasNext = rows.length > o.limit;
  const page = rows.slice(0, o.limit);
  const folders: object[] = [];
  const objects: object[] = [];
  for (const r of page) {
    const entry = {
      ...(r.key !== undefined ? { key: r.key } : {}),
      name: r.id === null && !r.name.endsWith('/') ? `${r.name}/` : r.name,
      id: r.id,
      updated_at: iso(r.updated_at),
      created_at: iso(r.created_at),
      last_accessed_at: iso(r.last_accessed_at),
      metadata: r.metadata ?? null,
    };
    (r.id === null ? folders : objects).push(entry);
  }
  let nextCursor: string | undefined;
  let nextCursorKey: string | undefined;
  if (hasNext) {
    const last = page[page.length - 1];
    const sortColumn = o.cursor?.sortColumn || o.column;
    const lastTime =
      sortColumn && sortColumn !== 'name' ? last[sortColumn as 'created_at' | 'updated_at'] : null;
    nextCursor = encodeCursor({
      startAfter: last.name,
      sortOrder: o.cursor?.sortOrder || o.order,
      sortColumn,
      sortColumnAfter: lastTime ? new Date(lastTime).toISOString() : undefined,
    });
    nextCursorKey = last.name;
  }
  sendOk(res, { hasNext, nextCursor, nextCursorKey, folders, objects });
}
