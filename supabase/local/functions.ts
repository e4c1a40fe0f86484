/**
 * Edge functions for the local stack: each `supabase/functions/<name>/index.ts` runs in its own Deno
 * process (the `deno` npm package), started on first call like the edge runtime's cold start, given
 * Supabase's environment variables, and restarted when its files change. The gateway forwards
 * `/functions/v1/<name>/...` to it with the path the function sees on Supabase (`/<name>/...`).
 *
 * Nothing is fetched at run time: the functions' `npm:` packages are dependencies in package.json at
 * the versions the functions pin, so `npm install` puts them in node_modules, and Deno resolves them
 * there (`--node-modules-dir=manual`, run from the project root so Deno finds package.json and
 * node_modules). supabase/functions/deno.json stays the deploy configuration: `supabase functions
 * deploy` bundles the same `npm:` specifiers from the registry. Its import map, if it has one, is
 * passed on. Certificate and proxy settings reach Deno, should a function fetch something itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import {
  ANON_KEY,
  ROOT_DIR,
  SERVICE_ROLE_KEY,
  SUPABASE_DIR,
  apiUrl,
  dbUrl,
  type StackConfig,
} from './config.ts';
import { bearerToken, verifyToken } from './jwt.ts';
import { Agent, type Dispatcher } from 'undici';
import { configSection, table } from './project-config.ts';
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
  const f = table(configSection('functions')[name]);
  if (f.verify_jwt === false) verify = false;
  if (typeof f.entrypoint === 'string') entrypoint = path.resolve(SUPABASE_DIR, f.entrypoint);
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
    return {
      ...denoHostEnv(process.env),
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

  /** The file a function starts from (tests override it). */
  protected entrypoint(name: string): string {
    return functionSettings(name).entrypoint;
  }

  /** The port for a new worker: one the system reports free (tests override it). */
  protected pickPort(): Promise<number> {
    return freePort();
  }

  private async startWorker(name: string): Promise<Worker> {
    const port = await this.pickPort();
    const proc = spawn(this.deno, denoRunArgs(name, WORKER), {
      cwd: ROOT_DIR,
      env: this.env(port, this.entrypoint(name)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new BootError(name, 'did not start within 120 s')), 120_000);
      const onLine = (chunk: Buffer, isErr: boolean) => {
        const text = chunk.toString('utf8');
        if (text.includes('__SB_WORKER_READY__')) {
          clearTimeout(timer);
          resolve();
        }
        if (isErr) stderr += text;
        for (const line of text.split('\n')) {
          if (line && !line.includes('__SB_WORKER_READY__') && this.config.verbose)
            this.log(`[functions:${name}] ${line}`);
        }
      };
      proc.stdout!.on('data', (c) => onLine(c, false));
      proc.stderr!.on('data', (c) => onLine(c, true));
      proc.on('exit', (code) => {
        clearTimeout(timer);
        this.workers.delete(name);
        reject(new BootError(name, `exited (code ${code})`, stderr));
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

  /**
   * Starts every function now instead of on its first call, and says which cannot boot and why
   * (`npm start` prints the answer; a broken function otherwise shows only as 503s later).
   */
  async boot(): Promise<{ name: string; error?: string }[]> {
    return Promise.all(
      functionNames().map(async (name) => {
        try {
          await this.worker(name);
          return { name };
        } catch (e) {
          return { name, error: e instanceof BootError ? e.summary : (e as Error).message };
        }
      }),
    );
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
    // A running worker's folder was there when it started (and the watcher stops it when the folder
    // changes), so only a function without a worker costs a look at the disk.
    if (
      !/^[A-Za-z0-9_-]+$/.test(name) ||
      name.startsWith('_') ||
      (!this.workers.has(name) && !existsSync(path.join(FUNCTIONS_DIR, name)))
    ) {
      return sendJson(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    }
    const settings = functionSettings(name);
    if (settings.verifyJwt) {
      const auth = req.headers['authorization'];
      if (!auth)
        return sendJson(res, 401, {
          code: 'UNAUTHORIZED_NO_AUTH_HEADER',
          message: 'Missing authorization header',
        });
      const token = bearerToken({ authorization: auth });
      try {
        if (!token || token === auth) throw new Error();
        if (typeof (await verifyToken(token)).role !== 'string') throw new Error('JWT has no role claim');
      } catch {
        return sendJson(res, 401, { code: 'UNAUTHORIZED_INVALID_JWT_FORMAT', message: 'Invalid JWT' });
      }
    }
    let worker: Worker;
    try {
      worker = await this.worker(name);
    } catch (e) {
      const message =
        e instanceof BootError ? e.summary : `Function ${name} failed to start: ${(e as Error).message}`;
      this.log(`[functions:${name}] ${message}`);
      return sendJson(res, 503, { code: 'BOOT_ERROR', message });
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

/** The functions of supabase/functions: every folder with an index.ts that is not `_shared`-like. */
export function functionNames(): string[] {
  if (!existsSync(FUNCTIONS_DIR)) return [];
  return readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
    .filter(
      (d) =>
        d.isDirectory() &&
        !d.name.startsWith('_') &&
        existsSync(path.join(FUNCTIONS_DIR, d.name, 'index.ts')),
    )
    .map((d) => d.name)
    .sort();
}

/** A function that could not start; `summary` names it and gives the first line of the cause. */
export class BootError extends Error {
  readonly summary: string;
  constructor(name: string, what: string, stderr = '') {
    const cause = firstCause(stderr);
    super(`function ${name} ${what}${stderr ? `: ${stderr.slice(-2000)}` : ''}`);
    this.summary = `Function ${name} failed to start: ${cause ?? what}`;
  }
}

/** The first line of Deno's error output that says something (colours and stack frames left out). */
export function firstCause(stderr: string): string | undefined {
  const lines = stderr
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim());
  return (
    lines.find((l) => /^(error|uncaught|\w*Error)\b/i.test(l)) ?? lines.find((l) => l && !l.startsWith('at '))
  );
}

/**
 * The variables a function's Deno process gets from the host: search path, home, Deno's cache folder,
 * and certificate and proxy settings. Deno reads DENO_CERT (a PEM file) and DENO_TLS_CA_STORE; where
 * only Node's NODE_EXTRA_CA_CERTS (or SSL_CERT_FILE) names the machine's CA file, it becomes DENO_CERT,
 * and the operating system's store is trusted alongside Mozilla's unless DENO_TLS_CA_STORE says otherwise.
 * Local addresses bypass any proxy.
 */
export function denoHostEnv(host: NodeJS.ProcessEnv): Record<string, string> {
  const keys = [
    'PATH',
    'HOME',
    'TMPDIR',
    'DENO_DIR',
    'DENO_CERT',
    'DENO_TLS_CA_STORE',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
    'NODE_EXTRA_CA_CERTS',
    'NPM_CONFIG_REGISTRY',
  ];
  for (const proxy of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY'])
    keys.push(proxy, proxy.toLowerCase());
  const out: Record<string, string> = {};
  for (const k of keys) if (host[k]) out[k] = host[k]!;
  const caFile = host.DENO_CERT || host.NODE_EXTRA_CA_CERTS || host.SSL_CERT_FILE;
  if (caFile) out.DENO_CERT = caFile;
  out.DENO_TLS_CA_STORE = host.DENO_TLS_CA_STORE || 'mozilla,system';
  // The stack itself (SUPABASE_URL, the database, the mail sink) is on this machine: never via a proxy.
  const noProxy = [host.NO_PROXY || host.no_proxy, 'localhost', '127.0.0.1', '::1'].filter(Boolean).join(',');
  out.NO_PROXY = out.no_proxy = noProxy;
  out.NO_COLOR = '1';
  // Deno otherwise asks dl.deno.land whether a newer Deno exists, on every start.
  out.DENO_NO_UPDATE_CHECK = '1';
  return out;
}

/** `deno run` arguments for a function: packages from node_modules, the functions' import map if any. */
export function denoRunArgs(name: string, script: string): string[] {
  const args = ['run', '--allow-all', '--no-prompt', '--quiet', '--node-modules-dir=manual', '--no-lock'];
  const importMap = functionImportMap(name);
  if (importMap) args.push('--import-map', importMap);
  // Profiling (`STACK_DENO_CPU_PROF_DIR=<dir>`): V8's CPU profile of each function, written when the
  // worker exits (worker.ts exits cleanly on the stack's SIGTERM).
  const profileDir = process.env.STACK_DENO_CPU_PROF_DIR;
  if (profileDir)
    args.push(`--cpu-prof-dir=${path.resolve(profileDir)}`, `--cpu-prof-name=${name}.cpuprofile`);
  args.push(script);
  return args;
}

/** The deno.json of a function (or of all functions) when it declares imports, as Supabase reads it. */
function functionImportMap(name: string): string | undefined {
  for (const file of [path.join(FUNCTIONS_DIR, name, 'deno.json'), path.join(FUNCTIONS_DIR, 'deno.json')]) {
    if (!existsSync(file)) continue;
    const cfg = JSON.parse(readFileSync(file, 'utf8')) as { imports?: unknown; scopes?: unknown };
    return cfg.imports || cfg.scopes ? file : undefined;
  }
  return undefined;
}

/** Headers a proxy does not pass on (hop-by-hop, RFC 9110 section 7.6.1), and `host`, which it sets anew. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  // Node's server has already answered "100 Continue" (it does when nobody listens for checkContinue).
  'expect',
]);

/**
 * The connections to the function workers for requests without a body (nearly all of them): undici
 * keeps a pool of keep-alive connections per worker port. Measured in the range bench, it spent 0.11-0.15
 * ms of the stack's CPU per proxied request where node:http's client spent 0.20.
 */
const upstreams = new Agent({ keepAliveTimeout: 60_000, connections: 64 });

/** Forwards a request to a local port, streaming both ways. */
export async function proxy(req: IncomingMessage, res: ServerResponse, port: number, pathWithQuery: string) {
  // The function sees the caller's address as on Supabase (x-forwarded-for), for visitor location.
  const client = req.socket.remoteAddress ?? '';
  const headers = withoutHopByHop(req.headers);
  headers['x-forwarded-for'] = req.headers['x-forwarded-for']
    ? `${req.headers['x-forwarded-for']}, ${client}`
    : client;
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  // With a body, node:http's client: it hands the answer on as soon as it comes, while the body may
  // still be on its way (a function answers 413 on a declared length without reading the body).
  if (hasBody) return proxyWithBody(req, res, port, pathWithQuery, headers);
  try {
    await upstreams.stream(
      {
        origin: `http://127.0.0.1:${port}`,
        path: pathWithQuery,
        method: req.method as Dispatcher.HttpMethod,
        headers,
      },
      ({ statusCode, headers: upHeaders }) => {
        res.writeHead(statusCode, withoutHopByHop(upHeaders));
        return res;
      },
    );
  } catch {
    badGateway(res);
  }
}

/** The worker did not answer: a 502 if nothing was sent yet, else the answer ends where it broke off. */
function badGateway(res: ServerResponse) {
  if (!res.headersSent) sendJson(res, 502, { code: 'BAD_GATEWAY', message: 'Function did not answer' });
  else res.end();
}

function withoutHopByHop(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  }
  return out;
}

function proxyWithBody(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  pathWithQuery: string,
  headers: Record<string, string | string[]>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    // Chunked when the caller sent it chunked (transfer-encoding is hop-by-hop, so it is set anew).
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined)
      headers['transfer-encoding'] = 'chunked';
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: pathWithQuery, headers },
      (up) => {
        const out = withoutHopByHop(up.headers);
        // Answered before the body was all sent (413 on a declared length): the rest will not be read,
        // so the caller's connection closes after the answer, as a proxy's must (RFC 9112 section 9.6),
        // and a caller still sending stops.
        if (!req.complete) out.connection = 'close';
        res.writeHead(up.statusCode ?? 502, out);
        up.pipe(res);
        up.on('end', resolve);
        up.on('error', resolve);
      },
    );
    upstream.on('error', () => {
      badGateway(res);
      resolve();
    });
    req.pipe(upstream);
  });
}
