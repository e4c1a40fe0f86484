/**
 * Image transformations as Supabase Storage serves them (issue 17), written from Storage's render
 * routes and ImageRenderer (src/http/routes/render, src/storage/renderer/image.ts, the transformation
 * schema) and Supabase's image transformation guide: off unless config.toml enables them (the shared
 * test stack's config does not, so those routes answer today's 404), and on, through storage-js's
 * getPublicUrl / createSignedUrl / download with `transform`, against a second Storage service in
 * this process with `[storage.image_transformation] enabled = true`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StorageClient } from '@supabase/storage-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../config.ts';
import { createStorageService } from '../storage/index.ts';
import { adminPool, stackEnv, unique } from '../testing/index.ts';
import { pngBomb, pngDeflateBomb } from './png-bombs.ts';

const bucket = `${unique('img')}-pics`;
const serviceKey = () => stackEnv('SERVICE_ROLE_KEY');
let server: http.Server;
let enabledUrl = '';

const storage = (base: string) =>
  new StorageClient(base, { apikey: serviceKey(), authorization: `Bearer ${serviceKey()}` }).from(bucket);

async function size(res: Response) {
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return [meta.width, meta.height, meta.format];
}

beforeAll(async () => {
  const stack = storage(`${stackEnv('API_URL')}/storage/v1`);
  await adminPool().query(`insert into storage.buckets (id, name, public) values ($1, $1, true)`, [bucket]);
  // Noise, so that quality visibly changes the encoded size.
  const noise = Buffer.from(Array.from({ length: 200 * 100 * 3 }, (_, i) => (i * 7919) % 251));
  const photo = await sharp(noise, { raw: { width: 200, height: 100, channels: 3 } })
    .png()
    .toBuffer();
  for (const [path, body, type] of [
    ['photo.png', photo, 'image/png'],
    ['bomb.png', Buffer.from(pngBomb()), 'image/png'],
    ['inflate.png', Buffer.from(pngDeflateBomb()), 'image/png'],
    ['notes.txt', Buffer.from('not an image'), 'text/plain'],
  ] as const) {
    const { error } = await stack.upload(path, body, { contentType: type });
    expect(error).toBeNull();
  }
  const handler = createStorageService(
    { config: testConfig(), pool: adminPool(), log: () => undefined, sendMail: async () => undefined },
    { imageTransformation: true },
  );
  server = http.createServer((req, res) => void handler(req, res, req.url!.replace(/^\/storage\/v1/, '')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  enabledUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/storage/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await storage(`${stackEnv('API_URL')}/storage/v1`).remove([
    'photo.png',
    'bomb.png',
    'inflate.png',
    'notes.txt',
  ]);
  // Storage refuses plain SQL deletes (as Supabase does) unless the deleting transaction allows them.
  await adminPool().query(`begin;
    set local storage.allow_delete_query = 'true';
    delete from storage.objects where bucket_id = '${bucket}';
    delete from storage.buckets where id = '${bucket}';
    commit;`);
});

describe('image transformations switched off (the default)', () => {
  it('has no render routes, and signs plain object URLs even when asked to transform', async () => {
    const res = await fetch(
      `${stackEnv('API_URL')}/storage/v1/render/image/public/${bucket}/photo.png?width=50`,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: '404', code: 'InvalidRequest', error: 'Not Found' });
    const { data } = await storage(`${stackEnv('API_URL')}/storage/v1`).createSignedUrl('photo.png', 60, {
      transform: { width: 50 },
    });
    expect(data!.signedUrl).toContain(`/object/sign/${bucket}/photo.png?token=`);
  });
});

describe('image transformations switched on', () => {
  it('resizes a public image: cover crops to the box, contain fits inside, fill stretches', async () => {
    const url = (transform: object) =>
      storage(enabledUrl).getPublicUrl('photo.png', { transform }).data.publicUrl;
    expect(url({ width: 50, height: 50 })).toBe(
      `${enabledUrl}/render/image/public/${bucket}/photo.png?width=50&height=50`,
    );
    expect(await size(await fetch(url({ width: 50, height: 50 })))).toEqual([50, 50, 'png']);
    expect(await size(await fetch(url({ width: 50, height: 50, resize: 'contain' })))).toEqual([
      50,
      25,
      'png',
    ]);
    expect(await size(await fetch(url({ width: 50, height: 80, resize: 'fill' })))).toEqual([50, 80, 'png']);
    expect(await size(await fetch(url({ width: 100 })))).toEqual([100, 50, 'png']);
    // Never enlarged, as imgproxy does not enlarge by default.
    expect(await size(await fetch(url({ width: 1000 })))).toEqual([200, 100, 'png']);
  });

  it('converts to WebP when accepted or asked, keeps the format for origin, and applies quality', async () => {
    const url = (transform: object) =>
      storage(enabledUrl).getPublicUrl('photo.png', { transform }).data.publicUrl;
    const webp = await fetch(url({ width: 60 }), { headers: { accept: 'image/webp,*/*' } });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(await size(webp)).toEqual([60, 30, 'webp']);
    const origin = await fetch(url({ width: 60, format: 'origin' }), { headers: { accept: 'image/webp' } });
    expect(origin.headers.get('content-type')).toBe('image/png');
    const avif = await fetch(url({ width: 60, format: 'avif' }));
    expect(avif.headers.get('content-type')).toBe('image/avif');
    const low = await fetch(url({ width: 200, format: 'webp', quality: 20 }));
    const high = await fetch(url({ width: 200, format: 'webp', quality: 100 }));
    expect((await low.arrayBuffer()).byteLength).toBeLessThan((await high.arrayBuffer()).byteLength);
  });

  it('fixes the transformation in a signed URL, and renders for an authenticated download', async () => {
    const { data, error } = await storage(enabledUrl).createSignedUrl('photo.png', 60, {
      transform: { width: 40, resize: 'contain' },
    });
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain(`/render/image/sign/${bucket}/photo.png?token=`);
    const signed = await fetch(data!.signedUrl);
    expect(signed.headers.get('expires')).toBeTruthy();
    expect(await size(signed)).toEqual([40, 20, 'png']);
    // The URL's own query cannot change what the signer fixed.
    expect(await size(await fetch(`${data!.signedUrl}&width=150`))).toEqual([40, 20, 'png']);
    const { data: blob, error: dlError } = await storage(enabledUrl).download('photo.png', {
      transform: { width: 20, height: 20 },
    });
    expect(dlError).toBeNull();
    expect((await sharp(Buffer.from(await blob!.arrayBuffer())).metadata()).width).toBe(20);
  });

  it('refuses bad options with the schema’s message, and sources that are not images or too big', async () => {
    const base = `${enabledUrl}/render/image/public/${bucket}`;
    const bad = await fetch(`${base}/photo.png?quality=5`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: 'querystring/quality must be >= 20' });
    expect((await fetch(`${base}/photo.png?resize=stretch`)).status).toBe(400);
    // 50,000 x 50,000 pixels in 304 KB: refused from its header, before any pixel is decoded.
    const started = Date.now();
    const bomb = await fetch(`${base}/bomb.png?width=10`);
    expect(bomb.status).toBe(422);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await fetch(`${base}/inflate.png?width=10`)).status).toBeLessThan(500);
    expect((await fetch(`${base}/notes.txt?width=10`)).status).toBe(422);
    expect((await fetch(`${base}/missing.png?width=10`)).status).toBe(400);
  });
});
