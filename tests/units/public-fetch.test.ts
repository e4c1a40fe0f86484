/**
 * The website check's SSRF rules (supabase/functions/_shared/public-fetch.ts, issue 32) without the
 * stack: which addresses count as public, and the tricks a redirect or a name can play. The names are
 * resolved by a stand-in resolver (the `resolve` option), and the one server is this test's, on a
 * loopback port allowed exactly as the test stack's OWNERSHIP_TEST_ORIGIN allows its own.
 * supabase/tests/functions/ownership.test.ts proves the same rules through the deployed function.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRefused, isPublicAddress, publicFetch } from '../../supabase/functions/_shared/public-fetch.ts';

describe('holds on: edge function — isPublicAddress', () => {
  it.each([['8.8.8.8'], ['1.1.1.1'], ['2606:4700:4700::1111'], ['[2a02:26f0::1]'], ['::ffff:8.8.8.8']])(
    '%s is public',
    (a) => {
      expect(isPublicAddress(a)).toBe(true);
    },
  );

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'IPv6 loopback in brackets'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata address, in hex'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['not-an-address', 'not an address'],
    ['', 'empty'],
  ])('%s is refused (%s)', (a) => {
    expect(isPublicAddress(a)).toBe(false);
  });
});

describe('holds on: edge function — publicFetch', () => {
  /** What the test server answers at each path. */
  const routes = new Map<string, (res: http.ServerResponse) => void>();
  let server: http.Server;
  let origin: string;
  let allow: Set<string>;
  /** The stand-in name server: names to addresses. */
  const names: Record<string, string[]> = {
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'metadata.example': ['169.254.169.254'],
    'v6-private.example': ['2606:4700:4700::1111', 'fd00::5'],
    'empty.example': [],
  };
  const resolve = (host: string) => {
    const found = names[host];
    return found ? Promise.resolve(found) : Promise.reject(new Error('NotFound'));
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const route = routes.get(req.url ?? '');
      if (route) route(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    origin = `http://127.0.0.1:${port}`;
    allow = new Set([`127.0.0.1:${port}`]);
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** Fetches /start, which redirects (302) to `location`; answers the reason it was refused. */
  async function refusedAfterRedirect(location: string, status = 302): Promise<string> {
    routes.set('/start', (res) => res.writeHead(status, { location }).end());
    const e = await publicFetch(`${origin}/start`, { allow, resolve }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(FetchRefused);
    return (e as Error).message;
  }

  it('reads the allowed test server and follows a redirect within it', async () => {
    routes.set('/file', (res) => res.writeHead(200).end('scamcheck-verify=abc'));
    routes.set('/moved', (res) => res.writeHead(301, { location: '/file' }).end());
    const got = await publicFetch(`${origin}/moved`, { allow, resolve });
    expect(got).toMatchObject({ status: 200, body: 'scamcheck-verify=abc', redirects: 1 });
  });

  it.each([
    ['a user name in the address', 'http://admin:secret@93.184.216.34/', /with a user name/],
    ['a public address on another port', 'http://93.184.216.34:8080/', /only ports 80 and 443/],
    ['a name with one private address among public ones', 'http://mixed.example/', /10\.0\.0\.5/],
    ['a name resolving to the metadata address', 'http://metadata.example/', /169\.254\.169\.254/],
    ['a name with a unique-local IPv6 address', 'https://v6-private.example/', /fd00::5/],
    ['a name without addresses', 'http://empty.example/', /has no address/],
    ['a name that does not resolve', 'http://nowhere.example/', /could not resolve/],
    ['loopback written in hex', 'http://0x7f000001/', /127\.0\.0\.1/],
    ['loopback written in octal', 'http://0177.0.0.1/', /127\.0\.0\.1/],
    ['the unspecified address', 'http://0.0.0.0/', /0\.0\.0\.0/],
    ['a private network behind 308', 'http://192.168.0.1/', /192\.168\.0\.1/],
    ['the same loopback address on another port', 'http://127.0.0.1:1/', /not a public address/],
    ['a non-web scheme', 'ftp://93.184.216.34/', /only http and https/],
    ['a data: address', 'data:text/plain,scamcheck-verify=abc', /only http and https/],
  ])('a redirect to %s is refused', async (what, location, reason) => {
    const message = await refusedAfterRedirect(location, what.includes('308') ? 308 : 302);
    expect(message).toMatch(reason);
  });

  it('a first address that is not public is refused before any request', async () => {
    let asked = 0;
    routes.set('/counted', (res) => {
      asked++;
      res.writeHead(200).end();
    });
    // The same server, but without the test exception: loopback is never public.
    await expect(publicFetch(`${origin}/counted`, { resolve })).rejects.toThrow(/not a public address/);
    expect(asked).toBe(0);
  });

  it('a fourth redirect is refused and the chain is not followed further', async () => {
    let hops = 0;
    routes.set('/loop', (res) => {
      hops++;
      res.writeHead(302, { location: '/loop' }).end();
    });
    await expect(publicFetch(`${origin}/loop`, { allow, resolve })).rejects.toThrow(/more than 3 redirects/);
    expect(hops).toBe(4);
  });
});
