/**
 * The website proof's DNS side against a name server this test starts (dns-packet over UDP on a free
 * loopback port), through Deno.resolveDns's nameServer option as the function runs it: the right TXT
 * record passes, a wrong or missing one fails, and a host whose A records are private is refused before
 * any HTTP request. Run by supabase/tests/functions/deno.test.ts (`deno test supabase/functions/_shared/`).
 */
import { createSocket } from 'node:dgram';
import { Buffer } from 'node:buffer';
import dnsPacket from 'npm:dns-packet@5.6.1';
import assert from 'node:assert/strict';
import { checkWebsiteProof } from './ownership-check.ts';

const CHALLENGE = 'scamcheck-verify=0123456789abcdef0123456789abcdef';

/** Records the test name server knows: name -> type -> answers. */
const ZONE: Record<string, { TXT?: string[][]; A?: string[]; AAAA?: string[] }> = {
  '_scamcheck.shop.example': { TXT: [['v=spf1 -all'], [CHALLENGE]] },
  // A long record split into character strings, as DNS limits each to 255 bytes.
  '_scamcheck.split.example': { TXT: [['scamcheck-verify=0123456789abcdef', '0123456789abcdef']] },
  '_scamcheck.wrong.example': { TXT: [['scamcheck-verify=ffffffffffffffffffffffffffffffff']] },
  'inside.example': { A: ['10.0.0.7'] },
  'loop.example': { A: ['127.0.0.1'] },
  'mixed.example': { A: ['93.184.215.14', '169.254.169.254'] },
  'v6inside.example': { AAAA: ['fd00::1'] },
};

interface Question {
  name: string;
  type: string;
}

async function withNameServer(
  run: (server: { ipAddr: string; port: number }, asked: Question[]) => Promise<void>,
) {
  const socket = createSocket('udp4');
  const asked: Question[] = [];
  socket.on('message', (message: Buffer, from: { address: string; port: number }) => {
    const query = dnsPacket.decode(message);
    const answers = [];
    let known = false;
    for (const q of query.questions ?? []) {
      asked.push({ name: q.name, type: q.type });
      const entry = ZONE[q.name.toLowerCase()];
      if (entry) known = true;
      const data = (entry?.[q.type as 'TXT' | 'A' | 'AAAA'] ?? []) as (string | string[])[];
      for (const d of data) answers.push({ type: q.type, name: q.name, class: 'IN', ttl: 1, data: d });
    }
    const reply = dnsPacket.encode({
      id: query.id,
      type: 'response',
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3),
      questions: query.questions,
      answers,
    });
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    await run({ ipAddr: '127.0.0.1', port: socket.address().port }, asked);
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

Deno.test('a TXT record holding the challenge proves the website', async () => {
  await withNameServer(async (nameServer, asked) => {
    const r = await checkWebsiteProof(
      { identifier: 'shop.example', method: 'dns', challenge: CHALLENGE },
      { nameServer },
    );
    assert.deepEqual(r, { ok: true, detail: 'TXT _scamcheck.shop.example' });
    assert.ok(asked.some((q) => q.name === '_scamcheck.shop.example' && q.type === 'TXT'));
    const split = await checkWebsiteProof(
      { identifier: 'split.example', method: 'dns', challenge: CHALLENGE },
      { nameServer },
    );
    assert.deepEqual(split.ok, true);
  });
});

Deno.test('a wrong or missing TXT record does not prove the website', async () => {
  await withNameServer(async (nameServer) => {
    const wrong = await checkWebsiteProof(
      { identifier: 'wrong.example', method: 'dns', challenge: CHALLENGE },
      { nameServer },
    );
    assert.deepEqual(wrong, { ok: false, detail: 'TXT _scamcheck.wrong.example: challenge not found' });
    const missing = await checkWebsiteProof(
      { identifier: 'nothing.example', method: 'dns', challenge: CHALLENGE },
      { nameServer },
    );
    assert.deepEqual(missing.ok, false);
    assert.match(missing.detail, /^TXT _scamcheck\.nothing\.example: /);
    // Another proof's challenge on the right name is no proof either.
    const other = await checkWebsiteProof(
      { identifier: 'shop.example', method: 'dns', challenge: 'scamcheck-verify=' + 'a'.repeat(32) },
      { nameServer },
    );
    assert.deepEqual(other.ok, false);
  });
});

Deno.test('a website whose name resolves to private addresses is refused before any request', async () => {
  await withNameServer(async (nameServer, asked) => {
    for (const [host, address] of [
      ['inside.example', '10.0.0.7'],
      ['loop.example', '127.0.0.1'],
      ['mixed.example', '169.254.169.254'],
      ['v6inside.example', 'fd00::1'],
    ]) {
      const r = await checkWebsiteProof(
        { identifier: host, method: 'wellknown', challenge: CHALLENGE },
        { nameServer, timeoutMs: 3000 },
      );
      assert.deepEqual(r.ok, false, host);
      // The address named is the one this name server gave: the check asked it, and stopped there.
      assert.match(
        r.detail,
        new RegExp(`refused: ${host.replace('.', '\\.')} is not a public address \\(${address}\\)`),
      );
      assert.ok(asked.some((q) => q.name === host && q.type === 'A'));
    }
  });
});
