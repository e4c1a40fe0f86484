/**
 * storage-js `listV2` (POST /storage/v1/object/list-v2/{bucket}) against the local stack, written from
 * Supabase Storage's route schema and `listObjectsV2` (src/storage/object.ts) with its `search_v2`
 * listing: flat and delimited listings, prefixes, bytewise name order, time sorts, cursors across pages,
 * RLS, and the body checks.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signJwt } from '../jwt.ts';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const bucket = `${unique('lv2')}-files`;
const owner = randomUUID();

function storage(key = stackEnv('SERVICE_ROLE_KEY'), token?: string) {
  return createClient(stackEnv('API_URL'), key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    ...(token ? { accessToken: async () => token } : {}),
  }).storage.from(bucket);
}

// name -> minutes after a fixed start (created_at = updated_at)
const OBJECTS: [string, number][] = [
  ['a.txt', 5],
  ['b/one.txt', 3],
  ['b/two.txt', 1],
  ['b-c.txt', 4],
  ['b/deep/x.txt', 2],
  ['c/z.txt', 0],
  ['top.txt', 6],
];

beforeAll(async () => {
  await adminPool().query(`insert into storage.buckets (id, name) values ($1, $1)`, [bucket]);
  for (const [name, minutes] of OBJECTS) {
    await adminPool().query(
      `insert into storage.objects (bucket_id, name, owner_id, metadata, created_at, updated_at)
       values ($1, $2, $3, '{"size": 1}', '2026-01-01T00:00:00Z'::timestamptz + make_interval(mins => $4),
               '2026-01-01T00:00:00Z'::timestamptz + make_interval(mins => $4))`,
      [bucket, name, owner, minutes],
    );
  }
  await adminPool().query(
    `create policy "${bucket} owner reads" on storage.objects for select to authenticated
     using (bucket_id = '${bucket}' and owner_id = (select auth.uid())::text)`,
  );
});

afterAll(async () => {
  await adminPool().query(`drop policy "${bucket} owner reads" on storage.objects`);
  // Storage refuses plain SQL deletes (as Supabase does) unless the deleting transaction allows them.
  await adminPool().query(`begin;
    set local storage.allow_delete_query = 'true';
    delete from storage.objects where bucket_id = '${bucket}';
    delete from storage.buckets where id = '${bucket}';
    commit;`);
});

const names = (list: { name: string }[]) => list.map((o) => o.name);

describe('listV2', () => {
  it('lists every object under the bucket flat, bytewise by name, with no folders', async () => {
    const { data, error } = await storage().listV2();
    expect(error).toBeNull();
    expect(data!.hasNext).toBe(false);
    expect(data!.folders).toEqual([]);
    expect(names(data!.objects)).toEqual([
      'a.txt',
      'b-c.txt',
      'b/deep/x.txt',
      'b/one.txt',
      'b/two.txt',
      'c/z.txt',
      'top.txt',
    ]);
    expect(data!.objects[0]).toMatchObject({
      name: 'a.txt',
      created_at: '2026-01-01T00:05:00.000Z',
      metadata: { size: 1 },
    });
    expect(data!.objects[0].id).toMatch(/^[0-9a-f-]{36}$/);
    const { data: under } = await storage().listV2({ prefix: 'b/' });
    expect(names(under!.objects)).toEqual(['b/deep/x.txt', 'b/one.txt', 'b/two.txt']);
  });

  it('groups deeper objects into folders with with_delimiter, placed where their objects sort', async () => {
    const { data } = await storage().listV2({ with_delimiter: true });
    expect(data!.folders).toEqual([
      {
        key: 'b',
        name: 'b/',
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      },
      {
        key: 'c',
        name: 'c/',
        id: null,
        updated_at: null,
        created_at: null,
        last_accessed_at: null,
        metadata: null,
      },
    ]);
    expect(names(data!.objects)).toEqual(['a.txt', 'b-c.txt', 'top.txt']);
    expect(data!.objects[0]).toMatchObject({ key: 'a.txt', name: 'a.txt' });
    const { data: b } = await storage().listV2({ prefix: 'b/', with_delimiter: true });
    expect(b!.folders.map((f) => [f.key, f.name])).toEqual([['deep', 'b/deep/']]);
    expect(b!.objects.map((o) => [o.key, o.name])).toEqual([
      ['one.txt', 'b/one.txt'],
      ['two.txt', 'b/two.txt'],
    ]);
  });

  it('pages with limit and nextCursor, a folder counting once, in both orders', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data, error } = await storage().listV2({ with_delimiter: true, limit: 2, cursor });
      expect(error).toBeNull();
      seen.push(...[...data!.folders, ...data!.objects].map((e) => e.name));
      cursor = data!.nextCursor;
      expect(data!.hasNext).toBe(cursor !== undefined);
      pages++;
    } while (cursor && pages < 10);
    expect(seen.sort()).toEqual(['a.txt', 'b-c.txt', 'b/', 'c/', 'top.txt']);
    expect(pages).toBe(3);
    // The cursor is Storage's continuation token: the last name, and the sort it belongs to.
    const { data: first } = await storage().listV2({
      limit: 3,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(names(first!.objects)).toEqual(['top.txt', 'c/z.txt', 'b/two.txt']);
    expect(Buffer.from(first!.nextCursor!, 'base64').toString()).toBe('l:b/two.txt\no:desc\nc:name');
    const { data: rest } = await storage().listV2({ limit: 10, cursor: first!.nextCursor });
    expect(names(rest!.objects)).toEqual(['b/one.txt', 'b/deep/x.txt', 'b-c.txt', 'a.txt']);
  });

  it('sorts by created_at or updated_at, then name, with folders at their earliest object', async () => {
    const { data } = await storage().listV2({ sortBy: { column: 'created_at', order: 'asc' }, limit: 4 });
    expect(names(data!.objects)).toEqual(['c/z.txt', 'b/two.txt', 'b/deep/x.txt', 'b/one.txt']);
    const { data: next } = await storage().listV2({ cursor: data!.nextCursor });
    expect(names(next!.objects)).toEqual(['b-c.txt', 'a.txt', 'top.txt']);
    const { data: tree } = await storage().listV2({
      with_delimiter: true,
      sortBy: { column: 'updated_at', order: 'desc' },
    });
    // storage-js types folders without timestamps; Storage sends them (null under a name sort).
    const entries = [...tree!.folders, ...tree!.objects] as { name: string; created_at?: string }[];
    expect(entries.map((e) => [e.name, e.created_at])).toEqual([
      ['b/', '2026-01-01T00:01:00.000Z'],
      ['c/', '2026-01-01T00:00:00.000Z'],
      ['top.txt', '2026-01-01T00:06:00.000Z'],
      ['a.txt', '2026-01-01T00:05:00.000Z'],
      ['b-c.txt', '2026-01-01T00:04:00.000Z'],
    ]);
  });

  it('shows only what RLS lets the caller select', async () => {
    const mine = await signJwt({
      role: 'authenticated',
      sub: owner,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const other = await signJwt({
      role: 'authenticated',
      sub: randomUUID(),
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await storage(stackEnv('ANON_KEY'), mine).listV2()).data!.objects).toHaveLength(7);
    expect((await storage(stackEnv('ANON_KEY'), other).listV2()).data).toEqual({
      hasNext: false,
      folders: [],
      objects: [],
    });
  });

  it('refuses a bad body as Storage’s schema does, and a cursor that is not its token', async () => {
    const res = (body: unknown) =>
      fetch(`${stackEnv('API_URL')}/storage/v1/object/list-v2/${bucket}`, {
        method: 'POST',
        headers: {
          apikey: stackEnv('SERVICE_ROLE_KEY'),
          authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message: string } }));
    expect(await res({ limit: 0 })).toMatchObject({
      status: 400,
      body: { message: 'body/limit must be >= 1' },
    });
    expect(await res({ sortBy: { column: 'size' } })).toMatchObject({
      status: 400,
      body: { message: 'body/sortBy/column must be equal to one of the allowed values' },
    });
    expect(await res({ cursor: Buffer.from('nonsense').toString('base64') })).toMatchObject({
      status: 400,
      body: { message: 'Invalid Parameter continuation token' },
    });
  });
});
