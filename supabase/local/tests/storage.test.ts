/**
 * Storage conformance: storage-js (through @supabase/supabase-js) against the local stack's
 * /storage/v1, acting as owner, stranger, anonymous visitor and service role. Buckets and policies
 * are created here the way a migration would; users get their JWTs signed directly, so these tests
 * do not depend on the Auth service.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testConfig } from '../config.ts';
import { signJwt } from '../jwt.ts';
import { adminPool, stackEnv, unique } from '../testing/index.ts';

const tag = unique('st');
const privateBucket = `${tag}-private`;
const publicBucket = `${tag}-public`;
const imageBucket = `${tag}-images`;
const opsBucket = `${tag}-ops`;
const owner = { id: randomUUID(), jwt: '' };
const stranger = { id: randomUUID(), jwt: '' };
const storageDir = path.join(testConfig().dataDir, 'storage');

// Node 20 has no global WebSocket, which supabase-js needs to construct its realtime client.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;
const realtime = { transport: WebSocket as unknown as Transport };

/** A supabase-js client calling as the holder of `token` (the anon key alone when none). */
function client(token?: string, key = stackEnv('ANON_KEY')): SupabaseClient {
  return createClient(stackEnv('API_URL'), key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime,
    ...(token ? { accessToken: async () => token } : {}),
  });
}

async function userJwt(sub: string, expiresIn = 3600) {
  return signJwt({
    role: 'authenticated',
    sub,
    aud: 'authenticated',
    exp: Math.floor(Date.now() / 1000) + expiresIn,
  });
}

async function objectRow(bucket: string, name: string) {
  const { rows } = await adminPool().query(
    'select * from storage.objects where bucket_id = $1 and name = $2',
    [bucket, name],
  );
  return rows[0] as
    | { id: string; owner: string; owner_id: string; version: string; metadata: Record<string, unknown> }
    | undefined;
}

/** Every file under a bucket's folder on disk. */
async function filesOnDisk(bucket: string): Promise<string[]> {
  const dir = path.join(storageDir, bucket);
  if (!existsSync(dir)) return [];
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const asOwner = () => client(owner.jwt).storage;
const asStranger = () => client(stranger.jwt).storage;
const asAnon = () => client().storage;
const asService = () => client(undefined, stackEnv('SERVICE_ROLE_KEY')).storage;

beforeAll(async () => {
  const db = adminPool();
  for (const u of [owner, stranger]) {
    await db.query(
      `insert into auth.users (id, aud, role, email, email_confirmed_at, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now(), now())`,
      [u.id, `${u.id}@example.test`],
    );
    u.jwt = await userJwt(u.id);
  }
  // Buckets and policies as a migration declares them: users own the folder named after their id.
  await db.query(
    `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
       ($1, $1, false, null, null), ($2, $2, true, null, null), ($3, $3, false, 500000, array['image/*']),
       ($4, $4, false, null, null)`,
    [privateBucket, publicBucket, imageBucket, opsBucket],
  );
  const own = `(select auth.uid())::text = (storage.foldername(name))[1]`;
  const mine = `bucket_id in ('${privateBucket}', '${imageBucket}', '${publicBucket}') and ${own}`;
  await db.query(`
    create policy "${tag} users read their own files" on storage.objects for select to authenticated using (${mine});
    create policy "${tag} users upload into their own folder" on storage.objects for insert to authenticated with check (${mine});
    create policy "${tag} users update their own files" on storage.objects for update to authenticated using (${mine}) with check (${mine});
    create policy "${tag} users delete their own files" on storage.objects for delete to authenticated using (${mine});
    create policy "${tag} anyone lists the public bucket" on storage.objects for select to anon, authenticated using (bucket_id = '${publicBucket}');
    create policy "${tag} users only create new files" on storage.objects for insert to authenticated
      with check (bucket_id = '${opsBucket}' and ${own} and storage.allow_only_operation('object.upload'));
    create policy "${tag} users read the write-once bucket" on storage.objects for select to authenticated
      using (bucket_id = '${opsBucket}' and ${own});
  `);
});

afterAll(async () => {
  // Leave the database as the migrations made it: other suites read the full list of buckets.
  const admin = asService();
  for (const id of [privateBucket, publicBucket, imageBucket, opsBucket]) {
    expect((await admin.emptyBucket(id)).error).toBeNull();
    expect((await admin.deleteBucket(id)).error).toBeNull();
  }
  const db = adminPool();
  for (const p of [
    'users read their own files',
    'users upload into their own folder',
    'users update their own files',
    'users delete their own files',
    'anyone lists the public bucket',
    'users only create new files',
    'users read the write-once bucket',
  ]) {
    await db.query(`drop policy if exists "${tag} ${p}" on storage.objects`);
  }
});

describe('as the owner of a folder', () => {
  it('uploads, downloads with the right headers and sees the row it owns', async () => {
    const name = `${owner.id}/report.txt`;
    const { data, error } = await asOwner().from(privateBucket).upload(name, 'hello scam report', {
      contentType: 'text/plain',
      cacheControl: '60',
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path: name, fullPath: `${privateBucket}/${name}` });
    expect(data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const row = await objectRow(privateBucket, name);
    expect(row).toMatchObject({ id: data!.id, owner: owner.id, owner_id: owner.id });
    expect(row!.metadata).toMatchObject({
      size: 17,
      mimetype: 'text/plain',
      cacheControl: 'max-age=60',
      contentLength: 17,
      httpStatusCode: 200,
      eTag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      lastModified: expect.any(String),
    });

    const download = await asOwner().from(privateBucket).download(name);
    expect(download.error).toBeNull();
    expect(await download.data!.text()).toBe('hello scam report');

    const res = await fetch(
      `${stackEnv('API_URL')}/storage/v1/object/authenticated/${privateBucket}/${name}`,
      {
        headers: { authorization: `Bearer ${owner.jwt}` },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(res.headers.get('content-length')).toBe('17');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toBe(row!.metadata.eTag);
    const partial = await fetch(res.url, {
      headers: { authorization: `Bearer ${owner.jwt}`, range: 'bytes=6-9' },
    });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe('scam');
    const cached = await fetch(res.url, {
      headers: { authorization: `Bearer ${owner.jwt}`, 'if-none-match': String(row!.metadata.eTag) },
    });
    expect(cached.status).toBe(304);
  });

  it('uploads a Blob as multipart form-data with its type', async () => {
    const name = `${owner.id}/photo.png`;
    const png = new Blob([Buffer.from('89504e470d0a1a0a', 'hex')], { type: 'image/png' });
    const { error } = await asOwner().from(imageBucket).upload(name, png);
    expect(error).toBeNull();
    expect((await objectRow(imageBucket, name))!.metadata).toMatchObject({
      mimetype: 'image/png',
      size: 8,
      cacheControl: 'max-age=3600',
    });
    const info = await asOwner().from(imageBucket).info(name);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name, bucketId: imageBucket, size: 8, contentType: 'image/png' });
  });

  it('refuses to overwrite without upsert, then replaces with upsert and update', async () => {
    const name = `${owner.id}/versions.txt`;
    const files = asOwner().from(privateBucket);
    expect((await files.upload(name, 'one')).error).toBeNull();
    const again = await files.upload(name, 'two');
    expect(again.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });

    expect((await files.upload(name, 'two', { upsert: true })).error).toBeNull();
    expect(await (await files.download(name)).data!.text()).toBe('two');
    expect((await files.update(name, 'three!')).error).toBeNull();
    expect(await (await files.download(name)).data!.text()).toBe('three!');
    // Only the current version's bytes remain on disk.
    const onDisk = (await filesOnDisk(privateBucket)).filter((f) =>
      f.startsWith(`${owner.id}/versions.txt/`),
    );
    expect(onDisk).toEqual([`${owner.id}/versions.txt/${(await objectRow(privateBucket, name))!.version}`]);
  });

  it('lists a folder level with sub-folders as entries without an id', async () => {
    const files = asOwner().from(privateBucket);
    for (const n of ['b.txt', 'a.txt', 'sub/deep.txt']) {
      expect((await files.upload(`${owner.id}/list/${n}`, n)).error).toBeNull();
    }
    const { data, error } = await files.list(`${owner.id}/list`);
    expect(error).toBeNull();
    expect(data!.map((e) => [e.name, e.id === null])).toEqual([
      ['a.txt', false],
      ['b.txt', false],
      ['sub', true],
    ]);
    expect(data![0].metadata).toMatchObject({ size: 5, mimetype: 'text/plain;charset=UTF-8' });

    const page = await files.list(`${owner.id}/list`, {
      limit: 1,
      offset: 1,
      sortBy: { column: 'name', order: 'desc' },
    });
    expect(page.data!.map((e) => e.name)).toEqual(['b.txt']);
    const searched = await files.list(`${owner.id}/list`, { search: 'A' });
    expect(searched.data!.map((e) => e.name)).toEqual(['a.txt']);
    const root = await files.list();
    expect(root.data).toContainEqual(expect.objectContaining({ name: owner.id, id: null }));
  });

  it('moves and copies within its own folder', async () => {
    const files = asOwner().from(privateBucket);
    expect((await files.upload(`${owner.id}/move-me.txt`, 'moving')).error).toBeNull();
    const moved = await files.move(`${owner.id}/move-me.txt`, `${owner.id}/moved.txt`);
    expect(moved.error).toBeNull();
    expect(moved.data).toMatchObject({ message: 'Successfully moved' });
    expect(await objectRow(privateBucket, `${owner.id}/move-me.txt`)).toBeUndefined();
    expect(await (await files.download(`${owner.id}/moved.txt`)).data!.text()).toBe('moving');

    const copied = await files.copy(`${owner.id}/moved.txt`, `${owner.id}/copy.txt`);
    expect(copied.error).toBeNull();
    expect(copied.data).toEqual({ path: `${privateBucket}/${owner.id}/copy.txt` });
    expect(await (await files.download(`${owner.id}/copy.txt`)).data!.text()).toBe('moving');
  });

  it('removes its files: rows and bytes are gone', async () => {
    const files = asOwner().from(privateBucket);
    const name = `${owner.id}/remove-me.txt`;
    expect((await files.upload(name, 'bye')).error).toBeNull();
    const { version } = (await objectRow(privateBucket, name))!;
    const { data, error } = await files.remove([name]);
    expect(error).toBeNull();
    expect(data).toEqual([expect.objectContaining({ name, bucket_id: privateBucket })]);
    expect(await objectRow(privateBucket, name)).toBeUndefined();
    expect(await filesOnDisk(privateBucket)).not.toContain(`${name}/${version}`);
    const gone = await files.download(name);
    expect(gone.error).toMatchObject({ statusCode: '404', message: 'Object not found' });
  });

  it('creates signed URLs that work without any token and only for their own path', async () => {
    const files = asOwner().from(privateBucket);
    const name = `${owner.id}/signed.txt`;
    expect((await files.upload(name, 'signed content')).error).toBeNull();
    const { data, error } = await files.createSignedUrl(name, 60);
    expect(error).toBeNull();
    const res = await fetch(data!.signedUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('signed content');
    expect(res.headers.get('expires')).toBeTruthy();

    const token = new URL(data!.signedUrl).searchParams.get('token')!;
    const elsewhere = await fetch(
      `${stackEnv('API_URL')}/storage/v1/object/sign/${privateBucket}/${owner.id}/versions.txt?token=${token}`,
    );
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidSignature',
      message: 'Invalid signature',
    });

    const tampered = await fetch(data!.signedUrl.replace(/token=([^.]+)\.([^.]+)\./, 'token=$1.$2x.'));
    expect(await tampered.json()).toMatchObject({ statusCode: '400', error: 'InvalidJWT' });

    const lapsed = await new SignJWT({ url: `${privateBucket}/${name}`, scope: 'download' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(stackEnv('JWT_SECRET')));
    const late = await fetch(
      `${stackEnv('API_URL')}/storage/v1/object/sign/${privateBucket}/${name}?token=${lapsed}`,
    );
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      statusCode: '400',
      error: 'InvalidJWT',
      message: '"exp" claim timestamp check failed',
    });

    const many = await files.createSignedUrls([name, `${owner.id}/missing.txt`], 60);
    expect(many.error).toBeNull();
    expect(many.data![0]).toMatchObject({
      path: name,
      error: null,
      signedUrl: expect.stringContaining('/object/sign/'),
    });
    expect(many.data![1]).toMatchObject({
      path: `${owner.id}/missing.txt`,
      signedUrl: null,
      error: 'Either the object does not exist or you do not have access to it',
    });
  });

  it('hands out a signed upload URL that uploads as itself, and only where it was signed for', async () => {
    const files = asOwner().from(privateBucket);
    const name = `${owner.id}/via-signed-upload.txt`;
    const signed = await files.createSignedUploadUrl(name);
    expect(signed.error).toBeNull();
    // Anyone holding the token may upload, without a JWT of their own.
    const upload = await asAnon()
      .from(privateBucket)
      .uploadToSignedUrl(name, signed.data!.token, 'uploaded by link');
    expect(upload.error).toBeNull();
    expect(await objectRow(privateBucket, name)).toMatchObject({ owner: owner.id });
    expect(await (await files.download(name)).data!.text()).toBe('uploaded by link');

    const elsewhere = await asAnon()
      .from(privateBucket)
      .uploadToSignedUrl(`${owner.id}/other.txt`, signed.data!.token, 'x');
    expect(elsewhere.error).toMatchObject({ statusCode: '400', message: 'Invalid signature' });
    // A download link cannot be replayed to write.
    const read = await files.createSignedUrl(name, 60);
    const readToken = new URL(read.data!.signedUrl).searchParams.get('token')!;
    const replay = await asAnon()
      .from(privateBucket)
      .uploadToSignedUrl(name, readToken, 'overwritten', { upsert: true });
    expect(replay.error).toMatchObject({ statusCode: '400', message: 'Token is not scoped for upload' });
    // A stranger cannot sign an upload into someone else's folder.
    const theirs = await asStranger().from(privateBucket).createSignedUploadUrl(`${owner.id}/planted.txt`);
    expect(theirs.error).toMatchObject({ statusCode: '403' });
  });

  it('serves a public bucket through getPublicUrl to anyone, but not a private one', async () => {
    const name = `${owner.id}/banner.txt`;
    expect((await asOwner().from(publicBucket).upload(name, 'public banner')).error).toBeNull();
    const { data } = asAnon().from(publicBucket).getPublicUrl(name);
    const res = await fetch(data.publicUrl);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('public banner');

    const privateUrl = asAnon().from(privateBucket).getPublicUrl(`${owner.id}/report.txt`).data.publicUrl;
    const denied = await fetch(privateUrl);
    expect(denied.status).toBe(400);
    expect(await denied.json()).toEqual({
      statusCode: '404',
      code: 'NoSuchBucket',
      error: 'Bucket not found',
      message: 'Bucket not found',
    });
    const info = await fetch(
      `${stackEnv('API_URL')}/storage/v1/object/info/public/${privateBucket}/${owner.id}/report.txt`,
    );
    expect(await info.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
    expect((await asAnon().from(publicBucket).exists(name)).data).toBe(true);
    expect((await asAnon().from(publicBucket).exists(`${owner.id}/nothing.txt`)).data).toBe(false);
  });
});

describe('as a stranger', () => {
  it('holds on: postgres — cannot upload into another user’s folder, and nothing is stored', async () => {
    const name = `${owner.id}/planted.txt`;
    const { error } = await asStranger().from(privateBucket).upload(name, 'not mine');
    expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await objectRow(privateBucket, name)).toBeUndefined();
    expect((await filesOnDisk(privateBucket)).some((f) => f.startsWith(`${name}/`))).toBe(false);
  });

  it('cannot download, list, sign, overwrite, move or remove another user’s files', async () => {
    const theirs = `${owner.id}/report.txt`;
    const files = asStranger().from(privateBucket);
    expect((await files.download(theirs)).error).toMatchObject({
      statusCode: '404',
      message: 'Object not found',
    });
    expect((await files.list(owner.id)).data).toEqual([]);
    expect((await files.createSignedUrl(theirs, 60)).error).toMatchObject({ statusCode: '404' });
    expect((await files.upload(theirs, 'overwrite', { upsert: true })).error).toMatchObject({
      statusCode: '403',
    });
    expect((await files.move(theirs, `${stranger.id}/stolen.txt`)).error).toMatchObject({
      statusCode: '404',
    });

    const removed = await files.remove([theirs]);
    expect(removed).toEqual({ data: [], error: null });
    expect(await objectRow(privateBucket, theirs)).toBeDefined();
    expect(await (await asOwner().from(privateBucket).download(theirs)).data!.text()).toBe(
      'hello scam report',
    );
  });

  it('holds on: postgres — cannot move its own file into another user’s folder', async () => {
    const files = asStranger().from(privateBucket);
    expect((await files.upload(`${stranger.id}/mine.txt`, 'mine')).error).toBeNull();
    const { error } = await files.move(`${stranger.id}/mine.txt`, `${owner.id}/gift.txt`);
    expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    expect(await objectRow(privateBucket, `${stranger.id}/mine.txt`)).toBeDefined();
  });
});

describe('as an anonymous visitor', () => {
  it('cannot upload or read private files', async () => {
    const files = asAnon().from(privateBucket);
    expect((await files.upload(`${owner.id}/anon.txt`, 'x')).error).toMatchObject({ statusCode: '403' });
    expect((await files.download(`${owner.id}/report.txt`)).error).toMatchObject({ statusCode: '404' });
    const bare = await fetch(
      `${stackEnv('API_URL')}/storage/v1/object/${privateBucket}/${owner.id}/report.txt`,
    );
    expect(await bare.json()).toMatchObject({ statusCode: '404', error: 'Bucket not found' });
  });

  it('lists the public bucket its policy opens', async () => {
    const { data, error } = await asAnon().from(publicBucket).list(owner.id);
    expect(error).toBeNull();
    expect(data!.map((e) => e.name)).toEqual(['banner.txt']);
  });
});

describe('bucket limits', () => {
  it('holds on: postgres + platform — rejects an oversize upload with Storage’s error and stores nothing', async () => {
    const name = `${owner.id}/too-big.png`;
    const big = new Blob([Buffer.alloc(500_001, 1)], { type: 'image/png' });
    const { error } = await asOwner().from(imageBucket).upload(name, big);
    expect(error).toMatchObject({
      status: 400,
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    expect(await objectRow(imageBucket, name)).toBeUndefined();
    expect((await filesOnDisk(imageBucket)).some((f) => f.startsWith(`${name}/`))).toBe(false);

    const raw = await asOwner()
      .from(imageBucket)
      .upload(name, Buffer.alloc(500_001, 1), { contentType: 'image/png' });
    expect(raw.error).toMatchObject({ statusCode: '413' });
    expect(await objectRow(imageBucket, name)).toBeUndefined();

    const atLimit = await asOwner()
      .from(imageBucket)
      .upload(name, Buffer.alloc(500_000, 1), { contentType: 'image/png' });
    expect(atLimit.error).toBeNull();
  });

  it('rejects a type outside the bucket’s allowed types', async () => {
    const name = `${owner.id}/script.html`;
    const { error } = await asOwner()
      .from(imageBucket)
      .upload(name, '<script>alert(1)</script>', { contentType: 'text/html' });
    expect(error).toMatchObject({ statusCode: '415', message: 'mime type text/html is not supported' });
    expect(await objectRow(imageBucket, name)).toBeUndefined();
    const raw = await fetch(`${stackEnv('API_URL')}/storage/v1/object/${imageBucket}/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.jwt}`, 'content-type': 'application/pdf' },
      body: 'pdf',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({
      statusCode: '415',
      code: 'InvalidMimeType',
      error: 'invalid_mime_type',
      message: 'mime type application/pdf is not supported',
    });
  });
});

describe('tokens and paths an attacker might send', () => {
  it('holds on: platform — rejects a forged JWT and an expired one', async () => {
    const [h, p] = owner.jwt.split('.');
    const forged = `${h}.${p}.${Buffer.from('forged').toString('base64url')}`;
    const { error } = await client(forged).storage.from(privateBucket).upload(`${owner.id}/forged.txt`, 'x');
    expect(error).toMatchObject({ status: 400, statusCode: '403', message: 'signature verification failed' });

    const expired = await userJwt(owner.id, -60);
    const late = await client(expired).storage.from(privateBucket).list(owner.id);
    expect(late.error).toMatchObject({ statusCode: '403', message: '"exp" claim timestamp check failed' });
    expect(await objectRow(privateBucket, `${owner.id}/forged.txt`)).toBeUndefined();
  });

  it('never serves an uploaded page as HTML from the API origin', async () => {
    const name = `${owner.id}/page.html`;
    const files = asOwner().from(publicBucket);
    expect(
      (await files.upload(name, '<script>alert(1)</script>', { contentType: 'text/html' })).error,
    ).toBeNull();
    const res = await fetch(files.getPublicUrl(name).data.publicUrl);
    expect(res.headers.get('content-type')).toBe('text/plain');
  });

  it('rejects keys that climb out of their folder', async () => {
    const encoded = await asOwner()
      .from(privateBucket)
      .upload(`${owner.id}/..%2F..%2F${stranger.id}%2Fx.txt`, 'x');
    expect(encoded.error).toMatchObject({
      statusCode: '400',
      message: `Invalid key: ${owner.id}/../../${stranger.id}/x.txt`,
    });

    // A raw request keeps the dot segments that fetch would have resolved away.
    const api = new URL(stackEnv('API_URL'));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: api.hostname,
          port: api.port,
          method: 'POST',
          path: `/storage/v1/object/${privateBucket}/${owner.id}/../../../../etc/passwd`,
          headers: { authorization: `Bearer ${owner.jwt}`, 'content-type': 'text/plain' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('owned');
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ statusCode: '400', error: 'InvalidKey' });
    expect(existsSync(path.join(storageDir, '..', '..', 'etc'))).toBe(false);
  });
});

describe('object names the file backend cannot store', () => {
  it('answers a segment over 255 bytes with InvalidKey (400), not a 500, and stores nothing', async () => {
    for (const segment of ['a'.repeat(256), 'é'.repeat(128)]) {
      const name = `${owner.id}/${segment}.png`;
      const { error } = await asOwner().from(privateBucket).upload(name, 'x', { contentType: 'image/png' });
      expect(error).toMatchObject({ statusCode: '400', message: `Invalid key: ${name}` });
      expect(await objectRow(privateBucket, name)).toBeUndefined();
    }
    const longest = `${owner.id}/${'a'.repeat(255)}`;
    expect(
      (await asOwner().from(privateBucket).upload(longest, 'x', { contentType: 'text/plain' })).error,
    ).toBeNull();
    const move = await asOwner()
      .from(privateBucket)
      .move(longest, `${owner.id}/${'b'.repeat(300)}`);
    expect(move.error).toMatchObject({ statusCode: '400' });
  });
});

describe('what policies and SQL see', () => {
  it('names the operation for policies through storage.operation()', async () => {
    const files = asOwner().from(opsBucket);
    const name = `${owner.id}/write-once.txt`;
    expect((await files.upload(name, 'first')).error).toBeNull();
    // Both create a new row; the policy tells them apart only by the operation: an update() is
    // 'storage.object.upload_update', which this bucket does not allow.
    const viaUpdate = `${owner.id}/new-via-update.txt`;
    expect((await files.update(viaUpdate, 'second')).error).toMatchObject({ statusCode: '403' });
    expect(await objectRow(opsBucket, viaUpdate)).toBeUndefined();
    expect(
      (await files.upload(`${owner.id}/new-via-upsert.txt`, 'third', { upsert: true })).error,
    ).toBeNull();
  });

  it('holds on: platform — refuses direct SQL deletes of storage rows, as Supabase does', async () => {
    await expect(
      adminPool().query('delete from storage.objects where bucket_id = $1', [privateBucket]),
    ).rejects.toThrow('Direct deletion from storage tables is not allowed. Use the Storage API instead.');
    expect(await objectRow(privateBucket, `${owner.id}/report.txt`)).toBeDefined();
  });
});

describe('as the service role', () => {
  it('manages buckets and bypasses RLS on objects', async () => {
    const admin = asService();
    const id = `${tag}-managed`;
    expect(
      (await admin.createBucket(id, { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['image/*'] }))
        .error,
    ).toBeNull();
    const got = await admin.getBucket(id);
    expect(got.data).toMatchObject({
      id,
      name: id,
      public: false,
      file_size_limit: 1_000_000,
      allowed_mime_types: ['image/*'],
    });
    expect((await admin.updateBucket(id, { public: true })).data).toEqual({
      message: 'Successfully updated',
    });
    expect((await admin.listBuckets()).data!.map((b) => b.id)).toContain(id);

    expect(
      (await admin.from(id).upload('any/where.png', Buffer.from('x'), { contentType: 'image/png' })).error,
    ).toBeNull();
    expect((await admin.deleteBucket(id)).error).toMatchObject({
      statusCode: '409',
      message: 'The bucket you tried to delete is not empty',
    });
    expect((await admin.emptyBucket(id)).error).toBeNull();
    expect((await admin.deleteBucket(id)).data).toEqual({ message: 'Successfully deleted' });

    expect(await (await admin.from(privateBucket).download(`${owner.id}/report.txt`)).data!.text()).toBe(
      'hello scam report',
    );
  });

  it('validates bucket names, size limits and types as Storage does', async () => {
    const admin = asService();
    expect((await admin.createBucket(' padded')).error).toMatchObject({
      statusCode: '400',
      message: 'Bucket name invalid',
    });
    expect((await admin.createBucket(privateBucket)).error).toMatchObject({
      statusCode: '409',
      message: 'The resource already exists',
    });
    const badType = await admin.createBucket(`${tag}-bad`, {
      public: false,
      allowedMimeTypes: ['not a type'],
    });
    expect(badType.error).toMatchObject({
      statusCode: '415',
      message: 'mime type not a type is not supported',
    });
    const huge = await admin.createBucket(`${tag}-huge`, { public: false, fileSizeLimit: '1GB' });
    expect(huge.error).toMatchObject({ statusCode: '413' });
  });

  it('keeps buckets out of reach of ordinary users', async () => {
    expect((await asOwner().createBucket(`${tag}-mine`)).error).toMatchObject({ statusCode: '403' });
    expect((await asAnon().getBucket(privateBucket)).error).toMatchObject({
      statusCode: '404',
      message: 'Bucket not found',
    });
  });
});
