import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../local/config.ts';
import { FunctionsRuntime } from '../local/functions.ts';
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
      const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { authorization: `Bearer ${stackEnv('ANON_KEY')}` } });
      expect(res.status).toBe(200);
      expect(picked[0]).toBe(taken);
      expect(picked.length).toBe(2);
    } finally {
      await runtime.stop();
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 60_000);
});
