import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../config.ts';
import { FunctionsRuntime, denoHostEnv, firstCause, proxy } from '../functions.ts';
import { stackEnv } from '../testing/index.ts';

const url = () => `${stackEnv('API_URL')}/functions/v1/health`;

describe('edge functions on the local stack', () => {
  it('runs a function in Deno with the Supabase environment variables', async () => {
    const res = await fetch(url(), { headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      supabaseUrl: stackEnv('API_URL'),
      hasAnonKey: true,
      hasServiceRoleKey: true,
      hasDbUrl: true,
    });
  });

  it('holds on: config.toml — rejects a call without a JWT when verify_jwt is on', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Missing authorization header' });
  });

  it('holds on: platform — rejects a forged JWT', async () => {
    const [h, p] = stackEnv('SERVICE_ROLE_KEY').split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    const res = await fetch(url(), { headers: { authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Invalid JWT' });
  });

  it('answers 404 for a function that does not exist', async () => {
    const res = await fetch(`${stackEnv('API_URL')}/functions/v1/no-such-function`, {
      headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` },
    });
    expect(res.status).toBe(404);
  });
});

describe('function workers', () => {
  it('start again on another port when the chosen one was taken before Deno bound it', async () => {
    // Hold a port, and hand exactly that one to the first worker as if it had been free when picked.
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    const picked: number[] = [];
    class RacingRuntime extends FunctionsRuntime {
      protected override async pickPort() {
        const port = picked.length === 0 ? taken : await super.pickPort();
        picked.push(port);
        return port;
      }
    }
    const runtime = new RacingRuntime(testConfig({ verbose: false, watchFunctions: false }), () => undefined);
    const server = http.createServer((req, res) => void runtime.handle(req, res, req.url!));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/health`, {
        headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` },
      });
      expect(res.status).toBe(200);
      expect(picked[0]).toBe(taken);
      expect(picked.length).toBe(2);
    } finally {
      await runtime.stop();
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);

  it('a function that cannot boot answers 503 naming it and the first line of the cause, and boot() reports it', async () => {
    // A package no one installed: Deno resolves npm: from node_modules and must say it is missing.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'local-supabase-broken-fn-'));
    const entry = path.join(dir, 'index.ts');
    writeFileSync(
      entry,
      "import pad from 'npm:left-pad@1.3.0';\nDeno.serve(() => new Response(pad('x', 3)));\n",
    );
    class BrokenRuntime extends FunctionsRuntime {
      protected override entrypoint(name: string) {
        return name === 'health' ? entry : super.entrypoint(name);
      }
    }
    const logged: string[] = [];
    const runtime = new BrokenRuntime(testConfig({ verbose: false, watchFunctions: false }), (line) =>
      logged.push(line),
    );
    const server = http.createServer((req, res) => void runtime.handle(req, res, req.url!));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/health`, {
        headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` },
      });
      expect(res.status).toBe(503);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('BOOT_ERROR');
      expect(body.message).toMatch(/^Function health failed to start: error: .*npm:left-pad@1\.3\.0/);
      expect(body.message).not.toContain('\n');
      expect(logged).toContain(`[functions:health] ${body.message}`);
      const booted = await runtime.boot();
      expect(booted.find((f) => f.name === 'health')).toEqual({ name: 'health', error: body.message });
      expect(booted.filter((f) => f.error).map((f) => f.name)).toEqual(['health']);
    } finally {
      await runtime.stop();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the environment Deno gets', () => {
  it('passes certificate and proxy settings, maps NODE_EXTRA_CA_CERTS to DENO_CERT and keeps local calls off the proxy', () => {
    const env = denoHostEnv({
      PATH: '/bin',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'internal.example',
      SECRET_THING: 'not for functions',
    });
    expect(env).toMatchObject({
      PATH: '/bin',
      DENO_CERT: '/etc/ssl/certs/ca-certificates.crt',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      DENO_TLS_CA_STORE: 'mozilla,system',
      HTTPS_PROXY: 'http://proxy:3128',
      http_proxy: 'http://proxy:3128',
      NO_PROXY: 'internal.example,localhost,127.0.0.1,::1',
      no_proxy: 'internal.example,localhost,127.0.0.1,::1',
      DENO_NO_UPDATE_CHECK: '1',
    });
    expect(env).not.toHaveProperty('SECRET_THING');
    // Explicit Deno settings win.
    const own = denoHostEnv({
      DENO_CERT: '/own.pem',
      NODE_EXTRA_CA_CERTS: '/node.pem',
      DENO_TLS_CA_STORE: 'system',
    });
    expect(own).toMatchObject({ DENO_CERT: '/own.pem', DENO_TLS_CA_STORE: 'system' });
    expect(denoHostEnv({ SSL_CERT_FILE: '/ssl.pem' }).DENO_CERT).toBe('/ssl.pem');
  });

  it('the first line of the cause skips colours and stack frames', () => {
    expect(
      firstCause('\x1b[31merror\x1b[0m: Module not found "file:///x.ts".\n    at file:///y.ts:1:8\n'),
    ).toBe('error: Module not found "file:///x.ts".');
    expect(firstCause('Warning something\nUncaught TypeError: boom\n    at f (file:///a.ts:2:3)')).toBe(
      'Uncaught TypeError: boom',
    );
  });
});

describe("the function runner's proxy", () => {
  /** An upstream that tells what it got, and a front server that proxies to it as the gateway does. */
  async function pair() {
    const seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; bytes: number }[] = [];
    const upstream = http.createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, bytes });
        if (req.url?.startsWith('/stream')) {
          res.writeHead(207, { 'set-cookie': ['a=1', 'b=2'], 'x-up': 'yes', connection: 'keep-alive' });
          res.write('first,');
          setTimeout(() => res.end('second'), 50);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ bytes }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const port = (upstream.address() as net.AddressInfo).port;
    const front = http.createServer((req, res) => void proxy(req, res, port, req.url ?? '/'));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}`;
    return {
      seen,
      base,
      close: async () => {
        front.closeAllConnections();
        upstream.closeAllConnections();
        await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => upstream.close(r))]);
      },
    };
  }

  it('passes method, path, query, headers and a streamed body on, and adds the caller to X-Forwarded-For', async () => {
    const p = await pair();
    try {
      const body = Buffer.alloc(3 * 1024 * 1024, 7);
      const res = await fetch(`${p.base}/api/v1/reports?x=1&y=%20`, {
        method: 'POST',
        headers: { 'x-forwarded-for': '203.0.113.9', 'x-api-key': 'k', 'content-type': 'image/jpeg' },
        body,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ bytes: body.length });
      const got = p.seen[0];
      expect(got.method).toBe('POST');
      expect(got.url).toBe('/api/v1/reports?x=1&y=%20');
      expect(got.headers['x-api-key']).toBe('k');
      expect(got.headers['content-type']).toBe('image/jpeg');
      expect(got.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    } finally {
      await p.close();
    }
  });

  it('takes a body sent with Expect: 100-continue and in chunks, as curl sends large uploads', async () => {
    const p = await pair();
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${p.base}/upload`, {
          method: 'PUT',
          headers: { expect: '100-continue', 'transfer-encoding': 'chunked' },
        });
        req.on('continue', () => {
          req.write(Buffer.alloc(1000, 1));
          req.end(Buffer.alloc(500, 2));
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
      });
      expect(answer).toEqual({ status: 200, body: JSON.stringify({ bytes: 1500 }) });
      expect(p.seen[0].headers.expect).toBeUndefined();
    } finally {
      await p.close();
    }
  });

  it('streams the answer back with its status and repeated headers', async () => {
    const p = await pair();
    try {
      const res = await fetch(`${p.base}/stream`);
      expect(res.status).toBe(207);
      expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      expect(res.headers.get('x-up')).toBe('yes');
      expect(await res.text()).toBe('first,second');
    } finally {
      await p.close();
    }
  });

  it("hands on an answer given before the body was read, and closes the caller's connection", async () => {
    // A worker that answers 413 from the headers alone and then neither reads the body nor closes,
    // as Deno does when a function refuses a declared length.
    const sockets: net.Socket[] = [];
    const worker = net.createServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => {
        socket.pause();
        socket.write(
          'HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: 13\r\n\r\n{"msg":"big"}',
        );
      });
    });
    await new Promise<void>((r) => worker.listen(0, '127.0.0.1', r));
    const port = (worker.address() as net.AddressInfo).port;
    const front = http.createServer((req, res) => void proxy(req, res, port, req.url ?? '/'));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(
        `http://127.0.0.1:${(front.address() as net.AddressInfo).port}/api/v1/reports`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: 'x'.repeat(3_000_000),
          signal: AbortSignal.timeout(5_000),
        },
      );
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect(await res.text()).toBe('{"msg":"big"}');
    } finally {
      for (const s of sockets) s.destroy();
      front.closeAllConnections();
      await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => worker.close(r))]);
    }
  });

  it('reads and drops a small body the function answered early, so a caller still sending gets the answer', async () => {
    // A function that refuses on the headers (a cross-site write) and never reads the body: before,
    // the gateway closed the connection while the caller was still writing, and its fetch failed (EPIPE).
    const sockets: net.Socket[] = [];
    const worker = net.createServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => {
        socket.pause();
        socket.write(
          'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n{"msg":"other"}',
        );
      });
    });
    await new Promise<void>((r) => worker.listen(0, '127.0.0.1', r));
    const port = (worker.address() as net.AddressInfo).port;
    const front = http.createServer((req, res) => void proxy(req, res, port, req.url ?? '/'));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      {
        // One request: this stand-in worker answers once per connection and then stops reading.
        const res = await fetch(
          `http://127.0.0.1:${(front.address() as net.AddressInfo).port}/api/v1/reports`,
          {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: 'x'.repeat(900_000),
            signal: AbortSignal.timeout(5_000),
          },
        );
        expect(res.status).toBe(403);
        expect(res.headers.get('connection')).not.toBe('close');
        expect(await res.text()).toBe('{"msg":"other"}');
      }
    } finally {
      for (const s of sockets) s.destroy();
      front.closeAllConnections();
      await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => worker.close(r))]);
    }
  });

  it('answers 502 with a JSON message when the function does not answer', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const front = http.createServer((req, res) => void proxy(req, res, port, '/'));
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(front.address() as net.AddressInfo).port}/`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ code: 'BAD_GATEWAY', message: 'Function did not answer' });
    } finally {
      front.closeAllConnections();
      await new Promise((r) => front.close(r));
    }
  });
});
