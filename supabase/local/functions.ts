/**
 * Edge functions for the local stack: each `supabase/functions/<name>/index.ts` runs in its own Deno
 * process (the `deno` npm package), started on first call like the edge runtime's cold start, given
 * Supabase's environment variables, and restarted when its files change. The gateway forwards
 * `/functions/v1/<name>/...` to it with the path the function sees on Supabase (`/<name>/...`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseToml } from 'smol-toml';
import { ANON_KEY, SERVICE_ROLE_KEY, SUPABASE_DIR, apiUrl, dbUrl, type StackConfig } from './config.ts';
import { bearerToken, verifyJwt } from './jwt.ts';
import { sendJson } from './http.ts';

export const FUNCTIONS_DIR = path.join(SUPABASE_DIR, 'functions');
const WORKER = path.join(path.dirname(new URL(import.meta.url).pathname), 'deno', 'worker.ts');

function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('deno/package.json'));
  const candidates = [path.join(pkgDir, 'deno'), path.join(pkgDir, 'bin', 'deno')];
  for (const c of candidates) if (existsSync(c)) return c;
  return path.join(pkgDir, '..', '.bin', 'deno');
}

/** `[functions.<name>]` settings of supabase/config.toml; verify_jwt defaults to true as on Supabase. */
export function functionSettings(name: string): { verifyJwt: boolean; entrypoint: string } {
  let verify = true;
  let entrypoint = path.join(FUNCTIONS_DIR, name, 'index.ts');
  const toml = path.join(SUPABASE_DIR, 'config.toml');
  if (existsSync(toml)) {
    const cfg = parseToml(readFileSync(toml, 'utf8')) as { functions?: Record<string, { verify_jwt?: boolean; entrypoint?: string }> };
    const f = cfg.functions?.[name];
    if (f?.verify_jwt === false) verify = false;
    if (f?.entrypoint) entrypoint = path.resolve(SUPABASE_DIR, f.entrypoint);
  }
  return { verifyJwt: verify, entrypoint };
}

function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (m) out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

interface Worker {
  port: number;
  proc: ChildProcess;
  ready: Promise<void>;
}

export class FunctionsRuntime {
  private workers = new Map<string, Promise<Worker>>();
  private watcher?: FSWatcher;
  private deno = denoBinary();

  constructor(
    private config: StackConfig,
    private log: (line: string) => void,
    private extraEnv: Record<string, string> = {},
  ) {
    if (config.watchFunctions && existsSync(FUNCTIONS_DIR)) {
      this.watcher = watch(FUNCTIONS_DIR, { recursive: true }, (_event, file) => {
        if (!file) return;
        const name = String(file).split(path.sep)[0];
        // _shared and deno.json changes concern every function.
        if (name.startsWith('_') || name.endsWith('.json')) {
          for (const n of [...this.workers.keys()]) void this.restart(n);
        } else if (this.workers.has(name)) void this.restart(name);
      });
    }
  }

  private env(port: number, entry: string): NodeJS.ProcessEnv {
    const base: NodeJS.ProcessEnv = {};
    for (const k of ['PATH', 'HOME', 'DENO_DIR', 'TMPDIR', 'NPM_CONFIG_REGISTRY', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']) {
      if (process.env[k]) base[k] = process.env[k];
    }
    return {
      ...base,
      ...readEnvFile(path.join(FUNCTIONS_DIR, '.env')),
      SUPABASE_URL: apiUrl(this.config),
      SUPABASE_ANON_KEY: ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: SERVICE_ROLE_KEY,
      SUPABASE_DB_URL: dbUrl(this.config),
      SB_EXECUTION_ID: crypto.randomUUID(),
      ...this.extraEnv,
      SB_WORKER_PORT: String(port),
      SB_WORKER_ENTRY: 'file://' + entry,
    };
  }

  /** The port for a new worker: one the system reports free (tests override it). */
  protected pickPort(): Promise<number> {
    return freePort();
  }

  private async startWorker(name: string): Promise<Worker> {
    const { entrypoint } = functionSettings(name);
    const port = await this.pickPort();
    const fnDir = path.join(FUNCTIONS_DIR, name);
    const configFile = existsSync(path.join(fnDir, 'deno.json')) ? path.join(fnDir, 'deno.json') : path.join(FUNCTIONS_DIR, 'deno.json');
    const args = ['run', '--allow-all', '--no-prompt', '--quiet'];
    if (existsSync(configFile)) args.push('--config', configFile);
    args.push(WORKER);
    const proc = spawn(this.deno, args, { cwd: FUNCTIONS_DIR, env: this.env(port, entrypoint), stdio: ['ignore', 'pipe', 'pipe'] });
    const ready = new Promise<void>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`function ${name} did not start within 120 s`)), 120_000);
      const onLine = (chunk: Buffer, isErr: boolean) => {
        const text = chunk.toString('utf8');
        if (text.includes('__SB_WORKER_READY__')) {
          clearTimeout(timer);
          resolve();
        }
        if (isErr) stderr += text;
        for (const line of text.split('\n')) {
          if (line && !line.includes('__SB_WORKER_READY__') && this.config.verbose) this.log(`[functions:${name}] ${line}`);
        }
      };
      proc.stdout!.on('data', (c) => onLine(c, false));
      proc.stderr!.on('data', (c) => onLine(c, true));
      proc.on('exit', (code) => {
        clearTimeout(timer);
        this.workers.delete(name);
        reject(new Error(`function ${name} exited (code ${code}): ${stderr.slice(-2000)}`));
      });
    });
    ready.catch(() => undefined);
    return { port, proc, ready };
  }

  private async worker(name: string): Promise<Worker> {
    for (let attempt = 1; ; attempt++) {
      let w = this.workers.get(name);
      if (!w) {
        w = this.startWorker(name);
        this.workers.set(name, w);
      }
      const worker = await w;
      try {
        await worker.ready;
        return worker;
      } catch (e) {
        // The free port was picked, released and then bound by Deno: an outgoing connection can take
        // it in between. Such a worker exits at once with AddrInUse; start it again on another port.
        if (attempt >= 3 || !/AddrInUse|address already in use/i.test((e as Error).message)) throw e;
        if (this.workers.get(name) === w) this.workers.delete(name);
      }
    }
  }

  async restart(name: string) {
    const w = this.workers.get(name);
    this.workers.delete(name);
    if (w) {
      const worker = await w.catch(() => undefined);
      worker?.proc.kill('SIGTERM');
      this.log(`[functions:${name}] reloaded`);
    }
  }

  async handle(req: IncomingMessage, res: ServerResponse, subPath: string) {
    const name = subPath.split('/')[1]?.split('?')[0] ?? '';
    if (!/^[A-Za-z0-9_-]+$/.test(name) || name.startsWith('_') || !existsSync(path.join(FUNCTIONS_DIR, name))) {
      return sendJson(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    const settings = functionSettings(name);
    if (settings.verifyJwt) {
      const auth = req.headers['authorization'];
      if (!auth) return sendJson(res, 401, { code: 'UNAUTHORIZED_NO_AUTH_HEADER', message: 'Missing authorization header' });
      const token = bearerToken({ authorization: auth });
      try {
        if (!token || token === auth) throw new Error();
        await verifyJwt(token);
      } catch {
        return sendJson(res, 401, { code: 'UNAUTHORIZED_INVALID_JWT_FORMAT', message: 'Invalid JWT' });
      }
    }
    let worker: Worker;
    try {
      worker = await this.worker(name);
    } catch (e) {
      this.log(`[functions:${name}] ${(e as Error).message}`);
      return sendJson(res, 503, { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' });
    }
    await proxy(req, res, worker.port, subPath);
  }

  async stop() {
    this.watcher?.close();
    const all = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(
      all.map(async (w) => {
        const worker = await w.catch(() => undefined);
        if (!worker || worker.proc.exitCode !== null) return;
        await new Promise<void>((resolve) => {
          worker.proc.once('exit', () => resolve());
          worker.proc.kill('SIGTERM');
          setTimeout(() => {
            worker.proc.kill('SIGKILL');
            resolve();
          }, 3000).unref();
        });
      }),
    );
  }
}

/** Forwards a request to a local port, streaming both ways. */
export async function proxy(req: IncomingMessage, res: ServerResponse, port: number, pathWithQuery: string) {
  const http = await import('node:http');
  await new Promise<void>((resolve) => {
    // The function sees the caller's address as on Supabase (x-forwarded-for), for visitor location.
    const client = req.socket.remoteAddress ?? '';
    const forwarded = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${client}` : client;
    const headers = { ...req.headers, host: `127.0.0.1:${port}`, 'x-forwarded-for': forwarded };
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: pathWithQuery, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.on('end', resolve);
      up.on('error', resolve);
    });
    upstream.on('error', () => {
      if (!res.headersSent) sendJson(res, 502, { code: 'BAD_GATEWAY', message: 'Function did not answer' });
      else res.end();
      resolve();
    });
    req.pipe(upstream);
  });
}
