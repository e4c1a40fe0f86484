/**
 * Issue 11, images: the hostile corpus (supabase/tests/image-corpus.ts) sent the two ways an image can
 * arrive: the app's path (a signed-in user's supabase-js calling the `upload-image` function, since
 * direct Storage writes are refused: storage-buckets.test.ts) and the legacy API's avatar, evidence and
 * banner fields. Whatever is stored holds no planted text, has the type its bytes have, and is served
 * with nosniff; SVG/HTML sent as image/png and the pixel bombs are refused and store nothing.
 */
import {
  createClient,
  FunctionsHttpError,
  type SupabaseClient,
  type SupabaseClientOptions,
} from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { stackEnv } from '../helpers.ts';
import {
  gifWithPlainText,
  HTML_AS_PNG,
  jpegClaiming,
  jpegWithGpsAndApp0Text,
  leakedMarkers,
  pngBomb,
  pngWithTextAndUnknownChunk,
  SVG_AS_PNG,
  webpWithMetadata,
} from '../image-corpus.ts';
import {
  api,
  createUser,
  downloadObject,
  formOf,
  objectsIn,
  reportFields,
  type TestUser,
} from './helpers.ts';

type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

/** The app's client, signed in as `user`. */
function appClient(user: TestUser): SupabaseClient {
  return createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as Transport },
    accessToken: async () => user.token,
  });
}

/** What the app's uploadImage (src/lib/image-file.ts) sends, with the browser's declared type. */
async function upload(user: TestUser, bucket: string, bytes: Uint8Array, type: string, name = 'upload') {
  const body = new FormData();
  body.append('bucket', bucket);
  body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const { data, error } = await appClient(user).functions.invoke<{ bucket: string; path: string }>(
    'upload-image',
    { body },
  );
  if (!error) return { status: 201, path: data!.path, msg: undefined };
  const res = (error as FunctionsHttpError).context as Response;
  return { status: res.status, path: undefined, msg: ((await res.json()) as { msg: string }).msg };
}

const CARRIERS = [
  { what: 'JPEG with GPS Exif and APP0 text', bytes: jpegWithGpsAndApp0Text, type: 'image/jpeg', ext: 'jpg' },
  {
    what: 'PNG with tEXt and an unknown chunk carrying <script>',
    bytes: pngWithTextAndUnknownChunk,
    type: 'image/png',
    ext: 'png',
  },
  { what: 'GIF with a plain-text extension', bytes: gifWithPlainText, type: 'image/gif', ext: 'gif' },
  {
    what: 'WebP with EXIF, XMP and an unknown chunk',
    bytes: webpWithMetadata,
    type: 'image/webp',
    ext: 'webp',
  },
];

/** Downloads a stored image the way its readers get it and checks it is clean and served safely. */
async function expectClean(bucket: string, path: string, ext: string) {
  const bytes = await downloadObject(bucket, path);
  expect(leakedMarkers(bytes), `${bucket}/${path}`).toEqual([]);
  const url =
    bucket === 'evidence'
      ? `${stackEnv('API_URL')}/storage/v1/object/authenticated/${bucket}/${path}`
      : `${stackEnv('API_URL')}/storage/v1/object/public/${bucket}/${path}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${stackEnv('SERVICE_ROLE_KEY')}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(`image/${ext === 'jpg' ? 'jpeg' : ext}`);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

let user: TestUser;
let admin: TestUser;

beforeAll(async () => {
  [user, admin] = await Promise.all([createUser('img'), createUser('imgadm', { admin: true })]);
});

describe('the app path: upload-image as a signed-in user', () => {
  it.each(CARRIERS)(
    '$what: stored in avatars and evidence with only its pixels',
    async ({ bytes, type, ext }) => {
      for (const bucket of ['avatars', 'evidence']) {
        const r = await upload(user, bucket, bytes(), type, `../../x.${ext}`);
        expect(r, bucket).toMatchObject({ status: 201 });
        expect(r.path).toMatch(new RegExp(`^${user.id}/[0-9a-f-]{36}\\.${ext}$`));
        await expectClean(bucket, r.path!, ext);
      }
    },
  );

  it('SVG and HTML sent as image/png are refused and nothing is stored', async () => {
    const before = await objectsIn('avatars', `${user.id}/`);
    for (const bytes of [SVG_AS_PNG, HTML_AS_PNG]) {
      expect(await upload(user, 'avatars', bytes, 'image/png', 'me.png')).toEqual({
        status: 400,
        path: undefined,
        msg: 'Avatar must be an image (JPEG, PNG, WebP or GIF); this file is not one',
      });
    }
    expect(await objectsIn('avatars', `${user.id}/`)).toEqual(before);
  });

  it('holds on: edge function — the pixel bombs (a 50,000 x 50,000 PNG of 304 KB, a JPEG claiming 60,000 x 60,000) are refused from their headers', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(310_000);
    const before = await objectsIn('evidence', `${user.id}/`);
    const started = Date.now();
    expect(await upload(user, 'evidence', bomb, 'image/png')).toMatchObject({
      status: 400,
      msg: 'Evidence is too large in pixels: 50000 x 50000 pixels is more than the 16 megapixels allowed',
    });
    expect(await upload(user, 'evidence', jpegClaiming(60_000, 60_000), 'image/jpeg')).toMatchObject({
      status: 400,
      msg: 'Evidence is too large in pixels: 60000 x 60000 pixels is more than the 16 megapixels allowed',
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await objectsIn('evidence', `${user.id}/`)).toEqual(before);
  });

  it('holds on: edge function + postgres — news banners only for admins; unknown buckets, missing files and anonymous callers are refused', async () => {
    expect(await upload(user, 'news-banners', gifWithPlainText(), 'image/gif')).toMatchObject({
      status: 403,
      msg: 'Only admins can upload news banners',
    });
    const banner = await upload(admin, 'news-banners', gifWithPlainText(), 'image/gif');
    expect(banner.status).toBe(201);
    await expectClean('news-banners', banner.path!, 'gif');
    expect(await upload(user, 'profiles', jpegWithGpsAndApp0Text(), 'image/jpeg')).toMatchObject({
      status: 400,
      msg: 'bucket must be one of avatars, evidence, news-banners',
    });
    const noFile = await fetch(`${stackEnv('API_URL')}/functions/v1/upload-image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: formOf({ bucket: 'avatars' }),
    });
    expect([noFile.status, ((await noFile.json()) as { msg: string }).msg]).toEqual([
      400,
      'Choose an image to upload',
    ]);
    const anon = await fetch(`${stackEnv('API_URL')}/functions/v1/upload-image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` },
      body: formOf({ bucket: 'avatars' }),
    });
    expect(anon.status).toBe(401);
  });
});

describe('the legacy API: avatar, evidence and banner fields', () => {
  it.each(CARRIERS)(
    '$what as an avatar, as evidence and as a banner: stored with only its pixels',
    async ({ bytes, type, ext }) => {
      const file = (field: string) => ({ field, bytes: Buffer.from(bytes()), name: `x.${ext}`, type });
      const profile = await api('PATCH', '/users/update-user', {
        token: user.token,
        form: formOf({}, file('avatar')),
      });
      expect(profile.status).toBe(200);
      const avatars = await objectsIn('avatars', `${user.id}/`);
      const report = await api<{ report: { _id: string } }>('POST', '/reports', {
        token: user.token,
        form: formOf(reportFields(), file('evidence')),
      });
      expect(report.status).toBe(201);
      const news = await api<{ news: { newsBanner: string } }>('POST', '/news/addnews', {
        token: admin.token,
        form: formOf({ newsTitle: `Banner ${ext}`, newsDescription: 'Body' }, file('newsBanner')),
      });
      expect(news.status).toBe(201);
      const avatar = avatars.find((p) => p.endsWith(`.${ext}`))!;
      await expectClean('avatars', avatar, ext);
      const evidence = (await objectsIn('evidence', `${user.id}/`)).filter((p) => p.endsWith(`.${ext}`));
      expect(evidence.length).toBeGreaterThan(0);
      for (const p of evidence) await expectClean('evidence', p, ext);
      const banner = news.body.news.newsBanner.split('/news-banners/')[1];
      await expectClean('news-banners', banner, ext);
    },
  );

  it('holds on: edge function — SVG as an avatar and the bombs as evidence are refused, storing nothing', async () => {
    const before = [await objectsIn('avatars', `${user.id}/`), await objectsIn('evidence', `${user.id}/`)];
    const svg = await api('PATCH', '/users/update-user', {
      token: user.token,
      form: formOf({}, { field: 'avatar', bytes: Buffer.from(SVG_AS_PNG), name: 'a.png', type: 'image/png' }),
    });
    expect([svg.status, svg.body.msg]).toEqual([
      400,
      'Avatar must be an image (JPEG, PNG, WebP or GIF); this file is not one',
    ]);
    for (const bomb of [pngBomb(), jpegClaiming(60_000, 60_000)]) {
      const r = await api('POST', '/reports', {
        token: user.token,
        form: formOf(reportFields(), {
          field: 'evidence',
          bytes: Buffer.from(bomb),
          name: 'e.png',
          type: 'image/png',
        }),
      });
      expect(r.status).toBe(400);
      expect(r.body.msg).toMatch(/^Evidence is too large in pixels: (50000 x 50000|60000 x 60000) pixels/);
    }
    expect([await objectsIn('avatars', `${user.id}/`), await objectsIn('evidence', `${user.id}/`)]).toEqual(
      before,
    );
  });
});
