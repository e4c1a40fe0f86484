/**
 * The project's buckets (supabase/migrations: evidence, avatars, news-banners) as the SPA reaches them:
 * through storage-js against the local Storage API, acting as reporter, stranger, visitor and admin.
 * The database tests check the policies row by row; these check what users see end to end, including
 * the 500000-byte image limit of docs/behaviour.md §5 enforced by the server. Users cannot write to these
 * buckets themselves (issue 11): the upload-image function and the legacy API clean every image and
 * store it with the service role (supabase/tests/functions/images.test.ts), as `stored` does here.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser, type Actor } from './db/actors.ts';
import { jpegWithGpsAndApp0Text } from './image-corpus.ts';
import { signJwt, stackEnv } from './helpers.ts';

// Node 20 has no global WebSocket, which supabase-js needs to construct its realtime client.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;
const realtime = { transport: WebSocket as unknown as Transport };

let reporter: Actor;
let stranger: Actor;
let admin: Actor;
const tokens = new Map<Actor, string>();

/** storage-js for an actor, with an access token as GoTrue would issue it (or the anon key alone). */
function storageAs(actor?: Actor) {
  const token = actor && tokens.get(actor);
  return createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime,
    ...(token ? { accessToken: async () => token } : {}),
  }).storage;
}

/** A few bytes with a PNG signature: the buckets check the declared type, as Supabase does. */
const png = (size = 64) => new Blob([Buffer.alloc(size, 0x89)], { type: 'image/png' });

/** Stores a file as the upload functions do: with the service role. */
async function stored(bucket: string, name: string, file = png()) {
  const service = createClient(stackEnv('API_URL'), stackEnv('SERVICE_ROLE_KEY'), {
    auth: { persistSession: false },
    realtime,
  });
  const { error } = await service.storage.from(bucket).upload(name, file);
  expect(error).toBeNull();
  return service.storage;
}

/** The finding's JPEG, GPS position and all, as a browser would send it. */
const gpsJpeg = () => new Blob([jpegWithGpsAndApp0Text()], { type: 'image/jpeg' });
const RLS_REFUSAL = { statusCode: '403', message: 'new row violates row-level security policy' };

beforeAll(async () => {
  [reporter, stranger, admin] = await Promise.all([
    createUser('Reporter'),
    createUser('Stranger'),
    createUser('Admin', { admin: true }),
  ]);
  for (const actor of [reporter, stranger, admin]) {
    tokens.set(actor, await signJwt({ ...actor.claims, exp: Math.floor(Date.now() / 1000) + 3600 }));
  }
});

describe('direct uploads are refused for everyone, on every image bucket (the app path of issue 11)', () => {
  it.each(['evidence', 'avatars', 'news-banners'])(
    '%s: upload, upsert and signed upload URLs as a user or admin',
    async (bucket) => {
      for (const actor of [reporter, stranger, admin]) {
        const files = storageAs(actor).from(bucket);
        const name = `${actor.id}/${randomUUID()}.jpg`;
        expect((await files.upload(name, gpsJpeg())).error, actor.name).toMatchObject(RLS_REFUSAL);
        expect((await files.upload(name, gpsJpeg(), { upsert: true })).error, actor.name).toMatchObject(
          RLS_REFUSAL,
        );
        expect((await files.createSignedUploadUrl(name)).error, actor.name).toMatchObject({
          statusCode: '403',
        });
        expect((await files.download(name)).error).not.toBeNull();
      }
      expect((await storageAs().from(bucket).upload(`${randomUUID()}.jpg`, gpsJpeg())).error).toMatchObject({
        statusCode: '403',
      });
    },
  );

  it('a stored avatar cannot be overwritten, copied or moved over by its owner either', async () => {
    const name = `${reporter.id}/${randomUUID()}.png`;
    await stored('avatars', name);
    const files = storageAs(reporter).from('avatars');
    expect((await files.update(name, gpsJpeg())).error).toMatchObject({ statusCode: '403' });
    expect((await files.copy(name, `${reporter.id}/${randomUUID()}.png`)).error).toMatchObject({
      statusCode: '403',
    });
    expect((await files.move(name, `${reporter.id}/${randomUUID()}.png`)).error).not.toBeNull();
  });
});

describe('evidence (private: the reporter’s folder, admins read all)', () => {
  it('keeps a reporter’s screenshot from strangers and visitors, but not from admins', async () => {
    const name = `${reporter.id}/${randomUUID()}.png`;
    await stored('evidence', name);
    expect((await storageAs(reporter).from('evidence').download(name)).data?.size).toBe(64);

    expect((await storageAs(stranger).from('evidence').download(name)).error).toMatchObject({
      statusCode: '404',
    });
    expect((await storageAs().from('evidence').download(name)).error).toMatchObject({ statusCode: '404' });
    const publicUrl = storageAs().from('evidence').getPublicUrl(name).data.publicUrl;
    expect(await (await fetch(publicUrl)).json()).toMatchObject({
      statusCode: '404',
      error: 'Bucket not found',
    });

    const viewed = await storageAs(admin).from('evidence').download(name);
    expect(viewed.error).toBeNull();
    expect(viewed.data!.size).toBe(64);
    const signed = await storageAs(admin).from('evidence').createSignedUrl(name, 60);
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // The reporter removes their own evidence (a replaced or deleted report); nobody else can.
    expect((await storageAs(stranger).from('evidence').remove([name])).data).toEqual([]);
    expect((await storageAs(reporter).from('evidence').remove([name])).data).toHaveLength(1);
  });

  it('the bucket still enforces the 500000-byte image limit and the image types, even for the service role', async () => {
    const service = await stored('evidence', `${reporter.id}/${randomUUID()}.png`);
    const files = service.from('evidence');
    const exact = await files.upload(`${reporter.id}/${randomUUID()}.png`, png(500_000));
    expect(exact.error).toBeNull();
    const big = await files.upload(`${reporter.id}/${randomUUID()}.png`, png(500_001));
    expect(big.error).toMatchObject({
      statusCode: '413',
      message: 'The object exceeded the maximum allowed size',
    });
    const pdf = await files.upload(
      `${reporter.id}/${randomUUID()}.pdf`,
      new Blob(['%PDF'], { type: 'application/pdf' }),
    );
    expect(pdf.error).toMatchObject({
      statusCode: '415',
      message: 'mime type application/pdf is not supported',
    });
    const svg = await files.upload(
      `${reporter.id}/${randomUUID()}.svg`,
      new Blob(['<svg/>'], { type: 'image/svg+xml' }),
    );
    expect(svg.error).toMatchObject({ statusCode: '415' });
  });
});

describe('avatars and news banners (public read)', () => {
  it('serves them to anyone by public URL, with nosniff', async () => {
    for (const bucket of ['avatars', 'news-banners']) {
      const name = `${reporter.id}/${randomUUID()}.png`;
      await stored(bucket, name, png(10));
      const res = await fetch(storageAs().from(bucket).getPublicUrl(name).data.publicUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await res.arrayBuffer()).byteLength).toBe(10);
    }
  });
});
