import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../local/config.ts';
import { FunctionsRuntime, denoHostEnv, firstCause } from '../local/functions.ts';
import { stackEnv } from './helpers.ts';

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

  it('rejects a call without a JWT when verify_jwt is on', async () => {
    const res = await fetch(url());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Missing authorization header' });
  });

  it('rejects a forged JWT', async () => {
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
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scamcheck-broken-fn-'));
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
