/**
 * Conformance of the local edge runtime with hosted Supabase's limits (supabase/local/edge-limits.ts):
 * a function that breaks one fails here as it would there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, ROOT_DIR, testConfig } from '../config.ts';
import type { EdgeLimits } from '../edge-limits.ts';
import { FunctionsRuntime } from '../functions.ts';
import { FIXTURES } from './edge-limits/fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'local-supabase-edge-limits-'));
for (const [name, code] of Object.entries(FIXTURES)) {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, 'index.ts'), code);
}

class FixtureRuntime extends FunctionsRuntime {
  protected override entrypoint(name: string) {
    return path.join(dir, name, 'index.ts');
  }
  protected override exists(name: string) {
    return name in FIXTURES;
  }
}

interface Front {
  url: string;
  runtime: FunctionsRuntime;
  logged: string[];
  close(): Promise<void>;
}

async function front(limits: Partial<EdgeLimits> = {}): Promise<Front> {
  const logged: string[] = [];
  const runtime = new FixtureRuntime(
    testConfig({ verbose: false, watchFunctions: false }),
    (l) => logged.push(l),
    {},
    limits,
  );
  const server = http.createServer((req, res) => void runtime.handle(req, res, req.url!));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runtime,
    logged,
    async close() {
      await runtime.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const auth = { authorization: `Bearer ${ANON_KEY}` };
let hosted: Front;

beforeAll(async () => {
  hosted = await front();
}, 120_000);
afterAll(async () => {
  await hosted?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(f: Front, pathAndQuery: string, init: RequestInit = {}) {
  const res = await fetch(f.url + pathAndQuery, { ...init, headers: { ...auth, ...init.headers } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.json().catch(() => null),
  };
}

describe('outgoing ports 25 and 587 are refused, as on hosted', () => {
  // A listener on a free port shows that other ports connect.
  it('Deno.connect to 587 and 25 fails, to an IPv6 literal too; another port connects', async () => {
    for (const port of [587, 25]) {
      const r = await call(hosted, `/port-587?port=${port}`);
      expect(r.status).toBe(500);
      expect(r.body.error).toBe('NotCapable');
      const v6 = await call(hosted, `/port-587?port=${port}&how=v6`);
      expect(v6.body.error).toBe('NotCapable');
    }
    const open = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    try {
      const port = (open.address() as net.AddressInfo).port;
      expect((await call(hosted, `/port-587?port=${port}`)).body).toEqual({ connected: true });
    } finally {
      open.close();
    }
  }, 120_000);

  it('nodemailer on 587 fails before any packet leaves', async () => {
    const r = await call(hosted, '/port-587?port=587&how=smtp');
    expect(r.status).toBe(500);
    expect(r.body.message).toMatch(/587|net access|EPERM|NotCapable/i);
  }, 60_000);
});

describe('a function reads only its bundle and its static files', () => {
  it('its own folder is readable; the project and node_modules are not', async () => {
    expect(
      (await call(hosted, `/reads-files?file=${path.join(dir, 'reads-files', 'index.ts')}`)).status,
    ).toBe(200);
    for (const outside of [
      path.join(ROOT_DIR, 'package.json'),
      path.join(ROOT_DIR, 'node_modules', '@ip-location-db', 'geolite2-city-mmdb', 'package.json'),
      '/etc/hostname',
    ]) {
      const r = await call(hosted, `/reads-files?file=${outside}`);
      expect(r.status, outside).toBe(500);
      expect(r.body.error, outside).toBe('NotCapable');
    }
  }, 60_000);
});

describe('256 MB of memory and 2 s of CPU per request', () => {
  it('a request that keeps 400 MB on the heap answers 546 WORKER_LIMIT naming the function', async () => {
    const r = await call(hosted, '/memory-hog');
    expect(r.status).toBe(546);
    expect(r.body).toMatchObject({ code: 'WORKER_LIMIT', function: 'memory-hog' });
    expect(r.body.limit).toMatch(/memory limit of 256 MB/);
  }, 120_000);

  it('so does one that keeps 400 MB of ArrayBuffers outside the heap', async () => {
    const r = await call(hosted, '/memory-hog?kind=buffers');
    expect(r.status).toBe(546);
    expect(r.body).toMatchObject({ code: 'WORKER_LIMIT', function: 'memory-hog' });
  }, 120_000);

  it('a request past 2 s of CPU answers 546, and the next request gets a new worker', async () => {
    const before = await call(hosted, '/cpu-hog?light=1');
    const started = Date.now();
    const r = await call(hosted, '/cpu-hog');
    expect(r.status).toBe(546);
    expect(r.body).toMatchObject({ code: 'WORKER_LIMIT', function: 'cpu-hog' });
    expect(r.body.limit).toMatch(/CPU time limit of 2000 ms/);
    // Stopped long before the function's own 60 s.
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(hosted.logged.some((l) => l.includes('[functions:cpu-hog] stopped: CPU time limit'))).toBe(true);
    const after = await call(hosted, '/cpu-hog?light=1');
    expect(after.status).toBe(200);
    expect(after.body.worker).not.toBe(before.body.worker);
  }, 120_000);
});

describe('what else hosted does not offer', () => {
  it('no Web Worker and no node:vm', async () => {
    const w = await call(hosted, '/misc?what=worker');
    expect(w.status).toBe(500);
    expect(w.body.error).toMatch(/Web Workers are not available/);
    const v = await call(hosted, '/misc?what=vm');
    expect(v.status).toBe(500);
    expect(v.body.error).toMatch(/node:vm is not available/);
  }, 60_000);

  it('a GET answer of text/html is served as text/plain; other methods keep their type', async () => {
    const get = await fetch(`${hosted.url}/misc?what=html`, { headers: auth });
    expect(get.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const post = await fetch(`${hosted.url}/misc?what=html`, { method: 'POST', headers: auth });
    expect(post.headers.get('content-type')).toBe('text/html; charset=utf-8');
  }, 60_000);
});

describe('request idle timeout and wall clock (shortened here; 150 s and 400 s by default)', () => {
  it('no answer within the idle timeout: 504; a worker past its wall clock is replaced', async () => {
    const short = await front({ requestIdleMs: 1000, wallClockMs: 3000 });
    try {
      const slow = await call(short, '/misc?what=slow');
      expect(slow.status).toBe(504);
      expect(slow.body.code).toBe('REQUEST_IDLE_TIMEOUT');
      const first = await call(short, '/misc');
      await new Promise((r) => setTimeout(r, 3500));
      const second = await call(short, '/misc');
      expect(second.status).toBe(200);
      expect(second.body.worker).not.toBe(first.body.worker);
    } finally {
      await short.close();
    }
  }, 120_000);
});
