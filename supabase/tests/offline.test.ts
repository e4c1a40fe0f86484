/**
 * A machine that has run `npm install` and then lost the network (or never had Deno's cache): `npm
 * start` comes up with a brand-new, empty DENO_DIR and every route to a registry pointing at a local
 * port that only counts connections, and every edge function answers. The functions' `npm:` packages
 * come from node_modules; nothing is downloaded (the port sees no connection, DENO_DIR gets no npm
 * package). Runs the real CLI on its own ports (the test stack's offset + 60).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, functionNames, SERVICE_ROLE_KEY, testPorts } from '@scamcheck/local-supabase';
import { ROOT_DIR } from '../project/index.ts';

const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + 60;
const api = `http://127.0.0.1:${testPorts(offset).apiPort}`;
const cli = path.join(ROOT_DIR, 'supabase', 'project', 'cli.ts');

/** Every file below `dir` (the npm packages Deno would have downloaded land in DENO_DIR/npm). */
function filesUnder(dir: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(filesUnder(full));
    else out.push(full);
  }
  return out;
}

describe('npm start with no network and an empty Deno cache', () => {
  let child: ChildProcess | undefined;
  let output = '';
  let connections = 0;
  const registry = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  const denoDir = mkdtempSync(path.join(os.tmpdir(), 'scamcheck-deno-dir-'));

  beforeAll(async () => {
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(registry.address() as net.AddressInfo).port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SCAMCHECK_STACK: 'test',
      STACK_PORT_OFFSET: String(offset),
      DENO_DIR: denoDir,
      NPM_CONFIG_REGISTRY: `${dead}/`,
      npm_config_registry: `${dead}/`,
      NO_PROXY: '',
      no_proxy: '',
    };
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) env[k] = env[k.toLowerCase()] = dead;
    child = spawn(process.execPath, ['--import', 'tsx', cli, 'start'], {
      cwd: ROOT_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const began = Date.now();
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (output.includes('local stack is up')) {
          clearInterval(timer);
          resolve();
        } else if (child!.exitCode !== null || Date.now() - began > 180_000) {
          clearInterval(timer);
          reject(new Error(`npm start did not come up:\n${output}`));
        }
      }, 100);
    });
  }, 200_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    registry.close();
    rmSync(denoDir, { recursive: true, force: true });
  });

  it('starts every function and says so', () => {
    const names = functionNames();
    expect(names).toEqual(
      expect.arrayContaining(['api', 'health', 'notify-dispatch', 'removal-expiry', 'visitor']),
    );
    expect(output).toContain(`Edge functions: ${names.join(', ')} ready.`);
    expect(output).not.toMatch(/failed to start|BOOT_ERROR/);
  });

  it('every function answers', async () => {
    const anon = { authorization: `Bearer ${ANON_KEY}`, apikey: ANON_KEY };
    const service = { authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'content-type': 'application/json' };
    const health = await fetch(`${api}/functions/v1/health`, { headers: anon });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', supabaseUrl: api });

    // api: zod, supabase-js (a database read through the stack) and the router.
    const news = await fetch(`${api}/functions/v1/api/v1/news`, { headers: anon });
    expect(news.status).toBe(200);
    expect(Array.isArray(((await news.json()) as { news: unknown }).news)).toBe(true);
    const invalid = await fetch(`${api}/functions/v1/api/v1/auth/login`, {
      method: 'POST',
      headers: { ...anon, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(invalid.status).toBe(400);

    // visitor: the offline GeoIP package read from node_modules.
    const visit = await fetch(`${api}/functions/v1/visitor`, {
      method: 'POST',
      headers: { ...anon, 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/offline-test' }),
    });
    expect(visit.status).toBe(201);

    // The scheduled jobs: nodemailer and supabase-js with the service-role key.
    for (const job of ['notify-dispatch', 'removal-expiry']) {
      const res = await fetch(`${api}/functions/v1/${job}`, { method: 'POST', headers: service, body: '{}' });
      expect(res.status, job).toBe(200);
    }
  }, 120_000);

  it('fetched nothing: no connection to the registry or proxy, no npm package in DENO_DIR', () => {
    expect(connections).toBe(0);
    const npmDir = path.join(denoDir, 'npm');
    const downloaded = statSync(npmDir, { throwIfNoEntry: false }) ? filesUnder(npmDir) : [];
    expect(downloaded).toEqual([]);
  });
});
