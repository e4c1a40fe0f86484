// Unit tests of geo.ts, run by `deno test` (supabase/tests/functions/deno.test.ts runs them in CI).
import assert from 'node:assert/strict';
import { clientAddress, hashIp, isNonPublic, parseIp, visitFrom } from './geo.ts';

const req = (headers: Record<string, string>) => new Request('http://localhost/visitor', { headers });

Deno.test('parses IPv4, IPv6, mapped and bracketed addresses and refuses the rest', () => {
  assert.deepEqual(parseIp('112.198.0.1'), { ip: '112.198.0.1', version: 4 });
  assert.deepEqual(parseIp('112.198.0.1:5555'), { ip: '112.198.0.1', version: 4 });
  assert.deepEqual(parseIp('::ffff:112.198.0.1'), { ip: '112.198.0.1', version: 4 });
  assert.deepEqual(parseIp('[2001:4860:4860::8888]:443'), { ip: '2001:4860:4860:0:0:0:0:8888', version: 6 });
  for (const bad of ['', 'localhost', '256.1.1.1', '1.2.3', '1::2::3', 'gggg::1', '<script>'])
    assert.equal(parseIp(bad), null, bad);
});

Deno.test('private, loopback, link-local and CGNAT addresses are not public', () => {
  for (const ip of [
    '10.1.2.3',
    '127.0.0.1',
    '192.168.1.1',
    '172.20.0.1',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
  ]) {
    assert.ok(isNonPublic(ip, 4), ip);
  }
  for (const ip of ['0:0:0:0:0:0:0:1', 'fd00:0:0:0:0:0:0:1', 'fe80:0:0:0:0:0:0:1'])
    assert.ok(isNonPublic(ip, 6), ip);
  assert.ok(!isNonPublic('112.198.0.1', 4));
});

Deno.test(
  'the right-most public X-Forwarded-For entry is the caller; proxies on private addresses are skipped',
  () => {
    assert.equal(
      clientAddress(req({ 'x-forwarded-for': '1.1.1.1, 112.198.0.1, 127.0.0.1' }))?.ip,
      '112.198.0.1',
    );
    assert.equal(clientAddress(req({ 'x-forwarded-for': '10.0.0.1, 127.0.0.1' })), null);
    assert.equal(clientAddress(req({})), null);
  },
);

// Lookups themselves are in Postgres (public.locate_address): supabase/tests/db/ip-locations.test.ts
// compares them with the GeoLite2 file on a sample of ranges.

Deno.test('DNT and Sec-GPC visitors are neither located nor hashed', async () => {
  for (const h of [{ dnt: '1' }, { 'sec-gpc': '1' }] as Record<string, string>[]) {
    const v = await visitFrom(req({ ...h, 'x-forwarded-for': '112.198.0.1' }));
    assert.deepEqual(v, { location: null, ipHash: null, doNotTrack: true });
  }
});

Deno.test('the address hash is keyed, stable and does not contain the address', async () => {
  const a = await hashIp('112.198.0.1');
  assert.equal(a, await hashIp('112.198.0.1'));
  assert.notEqual(a, await hashIp('112.198.0.2'));
  assert.match(a, /^[0-9a-f]{32}$/);
});
