/**
 * The `ownership` function (issue 32): an e-mail proved by a code read from the mail sink, a website
 * proved by a `.well-known` file on a server this test starts, and the SSRF rules of the website check:
 * private, loopback and link-local targets refused, also behind a name and on every redirect; too many
 * redirects, too large and too slow answers refused.
 *
 * The test stack's one exception (ownershipTestPort in supabase/project): `.test` hosts are fetched from
 * http://127.0.0.1:<that port>, and only that address and port count as public.
 */
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPorts } from '@scamcheck/local-supabase';
import { ownershipTestPort } from '../../project/index.ts';
import { stackEnv, unique } from '../helpers.ts';
import { codeIn, latestMail } from '../auth-helpers.ts';
import { startOwnershipSite, type OwnershipSite } from '../ownership-site.ts';
import { createUser, type TestUser } from './helpers.ts';

const port = ownershipTestPort();
/** The `.test` hosts' server (shared port: tests/e2e/right-of-reply.test.ts uses it too, in turn). */
let site: OwnershipSite;
let owner: TestUser;

beforeAll(async () => {
  site = await startOwnershipSite();
  owner = await createUser('owner');
});

afterAll(async () => {
  await site?.close();
});

interface Answer {
  [k: string]: unknown;
  proof: { id: string; challenge: string; live: boolean };
  ok: boolean;
  detail: string;
}

async function call(user: TestUser, body: Record<string, unknown>) {
  const res = await fetch(`${stackEnv('API_URL')}/functions/v1/ownership`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

async function rpc(user: TestUser, name: string, args: Record<string, unknown>) {
  const res = await fetch(`${stackEnv('API_URL')}/rest/v1/rpc/${name}`, {
    method: 'POST',
    headers: {
      apikey: stackEnv('ANON_KEY'),
      authorization: `Bearer ${user.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Starts a wellknown proof of a fresh `.test` host served by `serve`, then checks it. */
async function checkSite(serve: (res: http.ServerResponse, challenge: string) => void) {
  const host = `${unique('site')}.test`;
  // A fresh owner each time: one account may start ownership_starts_per_hour proofs.
  const owner = await createUser('site');
  const started = await call(owner, { action: 'website', website: host, method: 'wellknown' });
  expect(started.status).toBe(201);
  const challenge = started.body.proof.challenge;
  expect(started.body.publish).toEqual({
    url: `https://${host}/.well-known/scamcheck-verification.txt`,
    content: challenge,
  });
  site.sites.set(host, (res) => serve(res, challenge));
  return call(owner, { action: 'check', proof: started.body.proof.id });
}

describe('holds on: edge function + postgres — ownership: e-mail', () => {
  it('an owner proves an e-mail address with the code sent to it', async () => {
    const address = `${unique('shop')}@example.com`;
    const started = await call(owner, { action: 'email', email: address });
    expect(started.status).toBe(201);
    const mail = await latestMail(address);
    expect(mail.Subject).toBe('Your ScamCheck ownership code');
    const code = codeIn(mail);
    const wrong = await rpc(owner, 'verify_ownership_code', { proof_id: started.body.proof.id, code: '12' });
    expect(wrong.body).toMatchObject({ error: 'wrong_code', live: false });
    const ok = await rpc(owner, 'verify_ownership_code', { proof_id: started.body.proof.id, code });
    expect(ok.body).toMatchObject({ live: true, method: 'email', identifier: address });
    // Another code to the same address within the minute is refused, by the same or another proof.
    const again = await call(owner, { action: 'email', email: address });
    expect(again.status).toBe(429);
    expect(again.body.msg).toMatch(/less than a minute ago/);
  });

  it('refuses anonymous callers and bad input', async () => {
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/ownership`, {
      method: 'POST',
      headers: { apikey: stackEnv('ANON_KEY'), 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'email', email: 'a@example.com' }),
    });
    expect(res.status).toBe(401);
    expect((await call(owner, { action: 'email', email: 'nope' })).status).toBe(400);
    expect((await call(owner, { action: 'website', website: 'x.test', method: 'ftp' })).status).toBe(400);
    expect((await call(owner, { action: 'check', proof: 'x' })).status).toBe(400);
  });
});

describe('ownership: website', () => {
  it('a .well-known file holding the challenge proves the site; the check is logged', async () => {
    const checked = await checkSite((res, challenge) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`# ScamCheck\n${challenge}\n`);
    });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ ok: true, proof: { live: true, method: 'wellknown' } });
  });

  it('a file without the challenge, or a 404, does not', async () => {
    const wrong = await checkSite((res) =>
      res.writeHead(200).end('scamcheck-verify=00000000000000000000000000000000'),
    );
    expect(wrong.body).toMatchObject({ ok: false, proof: { live: false } });
    expect(wrong.body.detail).toMatch(/challenge not found/);
    const missing = await checkSite((res) => res.writeHead(404).end());
    expect(missing.body.ok).toBe(false);
  });

  it.each([
    [
      'another loopback port',
      `http://127.0.0.1:${testPorts().apiPort}/rest/v1/`,
      /not a public address \(127\.0\.0\.1\)/,
    ],
    [
      'another loopback address',
      `http://127.0.0.2:${port}/.well-known/scamcheck-verification.txt`,
      /127\.0\.0\.2/,
    ],
    ['the same address written as a number', 'http://2130706434/', /127\.0\.0\.2/],
    ['IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:${port}/`, /not a public address/],
    ['IPv6 loopback', 'http://[::1]/', /not a public address \(::1\)/],
    [
      'the cloud metadata address (link-local)',
      'http://169.254.169.254/latest/meta-data/',
      /169\.254\.169\.254/,
    ],
    ['a private network', 'http://10.1.2.3/', /10\.1\.2\.3/],
    ['a name resolving to loopback', 'http://localhost/', /localhost is not a public address/],
    ['a non-web scheme', 'file:///etc/passwd', /only http and https/],
  ])('a redirect to %s is refused', async (_what, location, reason) => {
    const checked = await checkSite((res) => res.writeHead(302, { location }).end());
    expect(checked.body.ok).toBe(false);
    expect(checked.body.detail).toMatch(reason);
  });

  it('more than 3 redirects, more than 8 KiB and more than 5 s are refused', async () => {
    let hops = 0;
    const loop = await checkSite((res) => {
      hops++;
      res.writeHead(302, { location: res.req.url }).end();
    });
    expect(loop.body.detail).toMatch(/more than 3 redirects/);
    expect(hops).toBe(4);
    const big = await checkSite((res, challenge) =>
      res.writeHead(200).end(`${'x'.repeat(20_000)}\n${challenge}`),
    );
    expect(big.body.detail).toMatch(/larger than 8192 bytes/);
    const slow = await checkSite((res) => {
      res.writeHead(200);
      res.write('x');
    });
    expect(slow.body.detail).toMatch(/time limit/);
  }, 30_000);

  it('holds on: edge function — a proof of a private or loopback host is refused without the test exception', async () => {
    const owner = await createUser('private');
    for (const website of ['10.0.0.1', '127.0.0.1', '169.254.169.254']) {
      const started = await call(owner, { action: 'website', website, method: 'wellknown' });
      if (started.status !== 201) continue; // refused at the start: fine too
      const checked = await call(owner, { action: 'check', proof: started.body.proof.id });
      expect(checked.body.ok).toBe(false);
      expect(checked.body.detail).toMatch(/not a public address/);
    }
  });

  it("a stranger cannot check someone else's proof", async () => {
    const started = await call(owner, { action: 'website', website: `${unique('s')}.test`, method: 'dns' });
    const stranger = await createUser('stranger');
    expect((await call(stranger, { action: 'check', proof: started.body.proof.id })).status).toBe(404);
  });
});
