/**
 * The project's buckets (supabase/migrations: evidence, avatars, news-banners) as the SPA reaches them:
 * through storage-js against the local Storage API, acting as reporter, stranger, visitor and admin.
 * The database tests check the policies row by row; these check what users see end to end, including
 * the 500000-byte image limit of SPEC.md section 5 enforced by the server.
 */
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signJwt } from '../local/jwt.ts';
import { createUser, type Actor } from './db/actors.ts';
import { stackEnv } from './helpers.ts';

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

describe('evidence (private: the reporter’s folder, admins read all)', () => {
  it('keeps a reporter’s screenshot from strangers and visitors, but not from admins', async () => {
    const name = `${reporter.id}/${randomUUID()}.png`;
    expect((await storageAs(reporter).from('evidence').upload(name, png())).error).toBeNull();

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
    expect((await fetch(signed.data!.signedUrl)).status).toBe(200);
  });

  it('enforces the 500000-byte image limit and the image types on the server', async () => {
    const files = storageAs(reporter).from('evidence');
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

describe('avatars (public read, owner writes)', () => {
  it('serves an avatar to anyone and lets only its owner replace it', async () => {
    const name = `${reporter.id}/avatar.png`;
    expect((await storageAs(reporter).from('avatars').upload(name, png(10))).error).toBeNull();
    const res = await fetch(storageAs().from('avatars').getPublicUrl(name).data.publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');

    const hijack = await storageAs(stranger).from('avatars').upload(name, png(20), { upsert: true });
    expect(hijack.error).toMatchObject({ statusCode: '403' });
    expect(
      (await storageAs(reporter).from('avatars').upload(name, png(30), { upsert: true })).error,
    ).toBeNull();
    expect((await (await fetch(res.url)).arrayBuffer()).byteLength).toBe(30);
  });
});

describe('news-banners (public read, admins write)', () => {
  it('takes banners from admins only', async () => {
    const name = `${randomUUID()}.png`;
    const refused = await storageAs(reporter).from('news-banners').upload(name, png());
    expect(refused.error).toMatchObject({
      statusCode: '403',
      message: 'new row violates row-level security policy',
    });
    expect((await storageAs(admin).from('news-banners').upload(name, png())).error).toBeNull();
    expect((await fetch(storageAs().from('news-banners').getPublicUrl(name).data.publicUrl)).status).toBe(
      200,
    );
  });
});
