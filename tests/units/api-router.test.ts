/** The api function's router (404, 405, parameters, HEAD) and its sealed e-mail ids in verify links (otp-id.ts). */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { Router } from '../../supabase/functions/api/router.ts';
import { HttpError } from '../../supabase/functions/_shared/http.ts';
import { decodeVerifyParam, openEmail, sealEmail } from '../../supabase/functions/api/otp-id.ts';

// Built inside each test, not when the file loads: Stryker activates a mutant of on() only while a test
// runs, so a router made at load time would never see it (the path-pattern mutants survived that way).
const makeRouter = () =>
  new Router('/api/v1')
    .on('GET', '/items', async () => new Response('list'))
    .on('GET', '/items/:id', async ({ params }) => new Response(`item ${params.id}`))
    .on('POST', '/items/:id/notes/:note', async ({ params }) => new Response(`${params.id}+${params.note}`))
    .on('GET', '/a.b', async () => new Response('dot'));

async function call(method: string, path: string): Promise<string> {
  try {
    return await (await makeRouter().handle(new Request(`http://x${path}`, { method }))).text();
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return `${(e as HttpError).status} ${(e as HttpError).message}`;
  }
}

describe('Router', () => {
  it('serves routes with and without a trailing slash, decoding parameters', async () => {
    expect(await call('GET', '/api/v1/items')).toBe('list');
    expect(await call('GET', '/api/v1/items/')).toBe('list');
    expect(await call('GET', '/api/v1/items/a%20b')).toBe('item a b');
    expect(await call('POST', '/api/v1/items/1/notes/2')).toBe('1+2');
    expect(await call('HEAD', '/api/v1/items')).toBe('list');
    expect(await call('GET', '/api/v1/a.b')).toBe('dot');
  });

  it('answers 404 outside the prefix and for unknown paths, 405 for another method, 400 for a broken parameter', async () => {
    expect(await call('GET', '/other')).toBe('404 No route for /other; the API lives under /api/v1');
    expect(await call('GET', '/api/v1/nothing')).toBe('404 No route for GET /api/v1/nothing');
    expect(await call('GET', '/api/v1/aXb')).toBe('404 No route for GET /api/v1/aXb');
    expect(await call('GET', '/api/v1/items/1/extra')).toBe('404 No route for GET /api/v1/items/1/extra');
    expect(await call('DELETE', '/api/v1/items')).toBe('405 DELETE is not allowed on /api/v1/items');
    expect(await call('POST', '/api/v1/items/x')).toBe('405 POST is not allowed on /api/v1/items/x');
    expect(await call('GET', '/api/v1/items/%E0%A4%A')).toBe('400 The id in the address is not valid');
    expect(await call('GET', '/api/v1')).toBe('404 No route for GET /api/v1');
  });

  it('serves the root route at the bare prefix, and HEAD only where GET is served', async () => {
    const root = new Router('/api/v1')
      .on('GET', '/', async () => new Response('root'))
      .on('POST', '/submit', async () => new Response('posted'));
    const text = async (method: string, path: string) => {
      try {
        return await (await root.handle(new Request(`http://x${path}`, { method }))).text();
      } catch (e) {
        return `${(e as HttpError).status} ${(e as HttpError).message}`;
      }
    };
    expect(await text('GET', '/api/v1')).toBe('root');
    expect(await text('GET', '/api/v1/')).toBe('root');
    expect(await text('HEAD', '/api/v1/submit')).toBe('405 HEAD is not allowed on /api/v1/submit');
  });

  it('lists its routes and says which one serves a call', () => {
    const router = makeRouter();
    expect(router.list()).toEqual([
      { method: 'GET', path: '/items' },
      { method: 'GET', path: '/items/:id' },
      { method: 'POST', path: '/items/:id/notes/:note' },
      { method: 'GET', path: '/a.b' },
    ]);
    expect(router.servedBy('GET', '/items/7')).toBe('GET /items/:id');
    expect(router.servedBy('POST', '/items/7')).toBeNull();
  });
});

describe('sealed e-mail ids', () => {
  // The id format, computed here with Node's crypto: AES-256-GCM under SHA-256("otp-id:" + secret),
  // base64url of nonce (12 bytes), ciphertext and tag (16 bytes), unpadded. Ids sealed before a
  // redeploy must still open after it, so the derivation is pinned, not only the round trip.
  const key = (secret: string) => createHash('sha256').update(`otp-id:${secret}`).digest();
  const sealWithNode = (secret: string, text: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key(secret), iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  };
  const openWithNode = (secret: string, id: string) => {
    const bytes = Buffer.from(id, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key(secret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([
      decipher.update(bytes.subarray(12, bytes.length - 16)),
      decipher.final(),
    ]).toString();
  };

  it('seals with the documented key and format, and opens ids sealed that way', async () => {
    process.env.OTP_ID_SECRET = 'unit-test secret';
    // Addresses of several lengths, so that base64 would need padding and use '+' and '/'.
    for (const email of [
      'a@b.ph',
      'maria@example.com',
      'juan.dela.cruz@example.com.ph',
      'x'.repeat(40) + '@y.ph',
    ]) {
      for (let i = 0; i < 8; i++) {
        const id = await sealEmail(email);
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(openWithNode('unit-test secret', id)).toBe(email);
        expect(await openEmail(sealWithNode('unit-test secret', email))).toBe(email);
      }
    }
    expect(await openEmail(sealWithNode('another secret', 'maria@example.com'))).toBeNull();
    // An id with nothing sealed in it (nonce and tag only) opens to nothing, not to an empty address.
    expect(await openEmail(sealWithNode('unit-test secret', ''))).toBeNull();
  });

  it('seal and open an address; a changed or short id opens to nothing', async () => {
    process.env.OTP_ID_SECRET = 'unit-test secret';
    const id = await sealEmail('maria@example.com');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    // 12-byte nonce + 17 bytes of text + 16-byte tag = 45 bytes = 60 base64url characters
    expect(id).toHaveLength(60);
    expect(await openEmail(id)).toBe('maria@example.com');
    expect(await sealEmail('maria@example.com')).not.toBe(id);
    const flipped = id[20] === 'A' ? 'B' : 'A';
    expect(await openEmail(id.slice(0, 20) + flipped + id.slice(21))).toBeNull();
    expect(await openEmail(id.slice(0, 38))).toBeNull();
    expect(await openEmail('***')).toBeNull();
  });

  it('opens the shortest id, a one-character address (12 + 1 + 16 bytes)', async () => {
    process.env.OTP_ID_SECRET = 'unit-test secret';
    expect(await openEmail(sealWithNode('unit-test secret', 'x'))).toBe('x');
    // 29 bytes are 39 base64url characters unpadded (ceil(29 * 8 / 6)).
    expect(await sealEmail('x')).toHaveLength(39);
  });

  it('without OTP_ID_SECRET seals under the service key, so ids made before the secret existed still open', async () => {
    const secret = process.env.OTP_ID_SECRET;
    const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
    try {
      delete process.env.OTP_ID_SECRET;
      process.env.SUPABASE_SERVICE_ROLE_KEY = 'unit-test service key';
      // The key is derived once per module; a fresh copy derives it from this environment.
      vi.resetModules();
      const fresh = await import('../../supabase/functions/api/otp-id.ts');
      const id = await fresh.sealEmail('maria@example.com');
      expect(openWithNode('unit-test service key', id)).toBe('maria@example.com');
      expect(await fresh.openEmail(sealWithNode('unit-test service key', 'juan@example.ph'))).toBe(
        'juan@example.ph',
      );
    } finally {
      if (secret === undefined) delete process.env.OTP_ID_SECRET;
      else process.env.OTP_ID_SECRET = secret;
      if (serviceKey === undefined) delete process.env.SUPABASE_SERVICE_ROLE_KEY;
      else process.env.SUPABASE_SERVICE_ROLE_KEY = serviceKey;
    }
  });

  it('decodes a verify parameter: base64 of "<id>.<code>", split at the last dot', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    expect(decodeVerifyParam(b64('abc.def.123456'))).toEqual({ id: 'abc.def', otp: '123456' });
    expect(decodeVerifyParam(b64('abc. 123456 '))).toEqual({ id: 'abc', otp: '123456' });
    expect(decodeVerifyParam(Buffer.from('a_b.1').toString('base64url'))).toEqual({ id: 'a_b', otp: '1' });
    expect(decodeVerifyParam(b64('.123456'))).toBeNull();
    expect(decodeVerifyParam(b64('no-dot'))).toBeNull();
    expect(decodeVerifyParam(Buffer.from([0xff, 0x2e, 0x31]).toString('base64'))).toBeNull();
    expect(decodeVerifyParam('***')).toBeNull();
  });
});
