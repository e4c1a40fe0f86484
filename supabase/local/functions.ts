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
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
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
import {
  HOSTED_LIMITS,
  mainThreadCpuMs,
  permissionArgs,
  readablePaths,
  residentMb,
  workerLimitAnswer,
  type EdgeLimits,
} from './edge-limits.ts';

export const FUNCTIONS_DIR = path.join(SUPABASE_DIR, 'functions');
const WORKER = path.join(path.dirname(new URL(import.meta.url).pathname), 'deno', 'worker.ts');
const NO_VM = path.join(path.dirname(new URL(import.meta.url).pathname), 'deno', 'no-vm.ts');

function denoBinary(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('deno/package.json'));
  const candidates = [path.join(pkgDir, 'deno'), path.join(pkgDir, 'bin', 'deno')];
  for (const c of candidates) if (existsSync(c)) return c;
  return path.join(pkgDir, '..', '.bin', 'deno');
}

/**
 * `[functions.<name>]` settings of supabase/config.toml; verify_jwt defaults to true as on Supabase.
 * `static_files` are patterns relative to supabase/, as the CLI reads them.
 */
export function functionSettings(name: string): {
  verifyJwt: boolean;
  entrypoint: string;
  staticFiles: string[];
} {
  let verify = true;
  let entrypoint = path.join(FUNCTIONS_DIR, name, 'index.ts');
  const f = table(configSection('functions')[name]);
  if (f.verify_jwt === false) verify = false;
  if (typeof f.entrypoint === 'string') entrypoint = path.resolve(SUPABASE_DIR, f.entrypoint);
  const staticFiles = Array.isArray(f.static_files)
    ? f.static_files.filter((x): x is string => typeof x === 'string')
    : [];
  return { verifyJwt: verify, entrypoint, staticFiles };
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
  name: string;
  port: number;
  proc: ChildProcess;
  ready: Promise<void>;
  /** Requests being answered, each with the CPU time charged to it (ms). */
  inflight: Set<Ticket>;
  /** The limit it was stopped for, once stopped for one. */
  stoppedFor?: string;
  /** Settles when the process has exited. */
  exited: Promise<void>;
  /** The end of its error output (a V8 out-of-memory report). */
  stderrTail: string;
  /** Main-thread CPU (ms) at the last measurement, resident MB once booted. */
  lastCpuMs: number;
  baseRssMb: number;
  /** No new requests after its wall clock; stopped once its requests are answered. */
  retired: boolean;
  tmpDir: string;
}

/** One request on a worker: the CPU time charged to it, and the answer to give if the worker fails. */
interface Ticket {
  cpuMs: number;
  /** Set before the upstream connection is cut (a limit, the idle timeout). */
  answer?: { status: number; body: unknown };
  abort: AbortController;
}

export class FunctionsRuntime {
  private workers = new Map<string, Promise<Worker>>();
  private watcher?: FSWatcher;
  private deno = denoBinary();
  private limits: EdgeLimits;
  private monitor?: NodeJS.Timeout;
  private live = new Set<Worker>();
  /** Every worker process not yet exited, retired ones included: stop() ends them all. */
  private spawned = new Set<ChildProcess>();

  constructor(
    private config: StackConfig,
    private log: (line: string) => void,
    private extraEnv: Record<string, string> = {},
    limits: Partial<EdgeLimits> = {},
  ) {
    this.limits = { ...HOSTED_LIMITS, ...limits };
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

  private env(port: number, entry: string, tmpDir: string): NodeJS.ProcessEnv {
    return {
      ...denoHostEnv(process.env),
      TMPDIR: tmpDir,
      SB_BLOCKED_PORTS: this.limits.blockedPorts.join(','),
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

  /** True when the function has a folder (tests override it). */
  protected exists(name: string): boolean {
    return existsSync(path.join(FUNCTIONS_DIR, name));
  }

  /** The port for a new worker: one the system reports free (tests override it). */
  protected pickPort(): Promise<number> {
    return freePort();
  }

  private async startWorker(name: string): Promise<Worker> {
    const port = await this.pickPort();
    const entry = this.entrypoint(name);
    const tmpDir = path.join(this.config.dataDir, 'functions', `${name}-${port}`);
    mkdirSync(tmpDir, { recursive: true });
    // The worker's own no-vm module is part of every bundle here (it stands in for a missing module).
    const readable = [
      NO_VM,
      ...readablePaths(entry, FUNCTIONS_DIR, functionSettings(name).staticFiles, SUPABASE_DIR, tmpDir),
    ];
    const importMap = path.join(tmpDir, '..', `${name}-${port}.import-map.json`);
    writeFileSync(importMap, JSON.stringify(runtimeImportMap(name)));
    const proc = spawn(
      this.deno,
      denoRunArgs(name, WORKER, [...permissionArgs(readable, tmpDir, this.limits)], importMap),
      {
        cwd: ROOT_DIR,
        env: this.env(port, entry, tmpDir),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.spawned.add(proc);
    const exited = new Promise<void>((resolve) =>
      proc.once('exit', () => {
        this.spawned.delete(proc);
        resolve();
      }),
    );
    const worker: Worker = {
      name,
      port,
      proc,
      ready: Promise.resolve(),
      inflight: new Set(),
      exited,
      stderrTail: '',
      lastCpuMs: 0,
      baseRssMb: 0,
      retired: false,
      tmpDir,
    };
    void exited.then(() => {
      this.live.delete(worker);
      rmSync(tmpDir, { recursive: true, force: true });
      rmSync(importMap, { force: true });
    });
    proc.stderr!.on('data', (c: Buffer) => {
      worker.stderrTail = (worker.stderrTail + c.toString('utf8')).slice(-4000);
    });
    worker.ready = new Promise<void>((resolve, reject) => {
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
        if (this.workers.get(name) === current) this.workers.delete(name);
        reject(new BootError(name, `exited (code ${code})`, stderr));
      });
    });
    const current = this.workers.get(name);
    worker.ready.catch(() => undefined);
    void worker.ready.then(
      () => {
        worker.lastCpuMs = mainThreadCpuMs(proc.pid!) ?? 0;
        worker.baseRssMb = residentMb(proc.pid!) ?? 0;
        this.live.add(worker);
        // The wall clock: no new requests after it; stopped once the ones it has are answered.
        const wall = setTimeout(() => this.retire(worker), this.limits.wallClockMs);
        wall.unref();
        void exited.then(() => clearTimeout(wall));
      },
      () => undefined,
    );
    return worker;
  }

  /** Takes a worker out of service (its wall clock ran out); it stops when its last request is answered. */
  private retire(worker: Worker) {
    worker.retired = true;
    void this.workers.get(worker.name)?.then((w) => {
      if (w === worker) this.workers.delete(worker.name);
    });
    if (worker.inflight.size === 0) worker.proc.kill('SIGTERM');
  }

  /** Stops a worker for a limit: every request on it answers 546 naming the function and the limit. */
  private stopForLimit(worker: Worker, limit: string) {
    if (worker.stoppedFor) return;
    worker.stoppedFor = limit;
    this.log(`[functions:${worker.name}] stopped: ${limit}`);
    const answer = workerLimitAnswer(worker.name, limit);
    for (const t of worker.inflight) {
      t.answer = answer;
      t.abort.abort();
    }
    void this.workers.get(worker.name)?.then((w) => {
      if (w === worker) this.workers.delete(worker.name);
    });
    worker.proc.kill('SIGKILL');
  }

  /**
   * Every 50 ms while requests are in flight: the CPU the worker's JavaScript thread used since the last
   * look, shared among its requests, and its memory. Past a limit the worker is stopped.
   */
  private watch() {
    if (this.monitor) return;
    this.monitor = setInterval(() => {
      let busy = false;
      for (const w of this.live) {
        if (w.inflight.size === 0 || w.stoppedFor) continue;
        busy = true;
        const cpu = mainThreadCpuMs(w.proc.pid!);
        if (cpu !== null) {
          const share = (cpu - w.lastCpuMs) / w.inflight.size;
          w.lastCpuMs = cpu;
          for (const t of w.inflight) t.cpuMs += share;
          if ([...w.inflight].some((t) => t.cpuMs > this.limits.cpuMs)) {
            this.stopForLimit(w, `CPU time limit of ${this.limits.cpuMs} ms per request exceeded`);
            continue;
          }
        }
        const rss = residentMb(w.proc.pid!);
        if (rss !== null && rss - w.baseRssMb > this.limits.memoryMb)
          this.stopForLimit(w, `memory limit of ${this.limits.memoryMb} MB exceeded`);
      }
      if (!busy) {
        clearInterval(this.monitor);
        this.monitor = undefined;
      }
    }, 50);
    this.monitor.unref();
  }

  private async worker(name: string): Promise<Worker> {
    // Once stopping, no new worker: one started by a late request (a page's beacon during teardown)
    // would outlive the stack.
    if (this.stopping) throw new Error('the functions runtime is stopping');
    for (let attempt = 1; ; attempt++) {
      let w = this.workers.get(name);
      if (!w) {
        w = this.startWorker(name);
        this.workers.set(name, w);
        const started = w;
        // A worker that exits (crash, limit, wall clock) is replaced by the next request.
        void started.then((worker) =>
          worker.exited.then(() => {
            if (this.workers.get(name) === started) this.workers.delete(name);
          }),
        );
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
      (!this.workers.has(name) && !this.exists(name))
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
    const ticket: Ticket = { cpuMs: 0, abort: new AbortController() };
    worker.inflight.add(ticket);
    worker.lastCpuMs = mainThreadCpuMs(worker.proc.pid!) ?? worker.lastCpuMs;
    this.watch();
    // The request idle timeout: no answer yet by then, 504.
    const idle = setTimeout(() => {
      if (res.headersSent) return;
      ticket.answer = {
        status: 504,
        body: {
          code: 'REQUEST_IDLE_TIMEOUT',
          message: `Function ${name} did not answer within ${this.limits.requestIdleMs / 1000} s`,
        },
      };
      ticket.abort.abort();
    }, this.limits.requestIdleMs);
    try {
      await proxy(req, res, worker.port, subPath, {
        signal: ticket.abort.signal,
        failure: async () => {
          if (ticket.answer) return ticket.answer;
          // The worker died under the request: V8 out of memory is the memory limit.
          await Promise.race([worker.exited, new Promise((r) => setTimeout(r, 1000))]);
          if (worker.proc.exitCode !== null || worker.proc.signalCode !== null) {
            if (/out of memory|heap limit/i.test(worker.stderrTail)) {
              worker.stoppedFor ??= `memory limit of ${this.limits.memoryMb} MB exceeded`;
              this.log(`[functions:${name}] stopped: ${worker.stoppedFor}`);
            }
            if (worker.stoppedFor) return workerLimitAnswer(name, worker.stoppedFor);
          }
          return undefined;
        },
      });
    } finally {
      clearTimeout(idle);
      worker.inflight.delete(ticket);
      if (worker.retired && worker.inflight.size === 0) worker.proc.kill('SIGTERM');
    }
  }

  private stopping = false;

  async stop() {
    this.stopping = true;
    this.watcher?.close();
    if (this.monitor) clearInterval(this.monitor);
    // Every process started, not only those still in service: a worker retired by its wall clock while
    // a request was in flight left the map and outlived the stack (orphaned visitor workers after a run).
    const starting = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(starting.map((w) => w.catch(() => undefined)));
    await Promise.all(
      [...this.spawned].map(async (proc) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return;
        await new Promise<void>((resolve) => {
          proc.once('exit', () => resolve());
          proc.kill('SIGTERM');
          setTimeout(() => {
            proc.kill('SIGKILL');
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

/**
 * `deno run` arguments for a function: packages from node_modules, the permissions and limits of
 * hosted's runtime (edge-limits.ts), and an import map (the functions' own entries, with `node:vm`
 * pointing to a module that refuses, as hosted offers none).
 */
export function denoRunArgs(
  name: string,
  script: string,
  permissions: string[] = ['--allow-all'],
  importMap = functionImportMap(name),
): string[] {
  const args = ['run', ...permissions, '--no-prompt', '--quiet', '--node-modules-dir=manual', '--no-lock'];
  if (importMap) args.push('--import-map', importMap);
  // Profiling (`STACK_DENO_CPU_PROF_DIR=<dir>`): V8's CPU profile of each function, written when the
  // worker exits (worker.ts exits cleanly on the stack's SIGTERM).
  const profileDir = process.env.STACK_DENO_CPU_PROF_DIR;
  if (profileDir)
    args.push(`--cpu-prof-dir=${path.resolve(profileDir)}`, `--cpu-prof-name=${name}.cpuprofile`);
  args.push(script);
  return args;
}

/** The import map a worker runs with: the functions' own (if any) and `node:vm` refused. */
function runtimeImportMap(name: string): { imports: Record<string, string>; scopes?: unknown } {
  const own = functionImportMap(name);
  const cfg = own
    ? (JSON.parse(readFileSync(own, 'utf8')) as { imports?: Record<string, string>; scopes?: unknown })
    : {};
  const base = own ? 'file://' + path.dirname(own) + '/' : '';
  const imports: Record<string, string> = {};
  for (const [k, v] of Object.entries(cfg.imports ?? {}))
    imports[k] = /^(\.|\/)/.test(v) ? new URL(v, base).href : v;
  imports['node:vm'] = 'file://' + NO_VM;
  return { imports, ...(cfg.scopes ? { scopes: cfg.scopes } : {}) };
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

/** How a proxied request can be cut short, and what to answer when the upstream fails. */
export interface ProxyOptions {
  signal?: AbortSignal;
  /** The answer to give when the worker failed (a limit), instead of 502. */
  failure?: () => Promise<{ status: number; body: unknown } | undefined>;
}

/**
 * The answer's headers as hosted hands them on: hop-by-hop ones dropped, and a `GET` answer of type
 * text/html made text/plain (hosted serves no HTML from functions except on a custom domain).
 */
function answerHeaders(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out = withoutHopByHop(headers);
  const type = out['content-type'];
  if (method === 'GET' && typeof type === 'string' && /^\s*text\/html\b/i.test(type))
    out['content-type'] = type.replace(/^\s*text\/html/i, 'text/plain');
  return out;
}

/** Forwards a request to a local port, streaming both ways. */
export async function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  pathWithQuery: string,
  options: ProxyOptions = {},
) {
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
  if (hasBody) return proxyWithBody(req, res, port, pathWithQuery, headers, options);
  try {
    await upstreams.stream(
      {
        origin: `http://127.0.0.1:${port}`,
        path: pathWithQuery,
        method: req.method as Dispatcher.HttpMethod,
        headers,
        signal: options.signal,
      },
      ({ statusCode, headers: upHeaders }) => {
        res.writeHead(statusCode, answerHeaders(req.method, upHeaders));
        return res;
      },
    );
  } catch {
    await badGateway(res, options);
  }
}

/**
 * The worker did not answer: the limit's answer (546, 504) or a 502 if nothing was sent yet, else the
 * answer ends where it broke off.
 */
async function badGateway(res: ServerResponse, options: ProxyOptions = {}) {
  if (res.headersSent) return void res.end();
  const failure = await options.failure?.().catch(() => undefined);
  if (res.headersSent) return void res.end();
  if (failure) sendJson(res, failure.status, failure.body);
  else sendJson(res, 502, { code: 'BAD_GATEWAY', message: 'Function did not answer' });
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

/** The most of a request body the gateway reads and drops after an early answer (see proxyWithBody). */
const DRAIN_LIMIT = 1024 * 1024;

function proxyWithBody(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  pathWithQuery: string,
  headers: Record<string, string | string[]>,
  options: ProxyOptions,
): Promise<void> {
  return new Promise<void>((resolve) => {
    // Chunked when the caller sent it chunked (transfer-encoding is hop-by-hop, so it is set anew).
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined)
      headers['transfer-encoding'] = 'chunked';
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: pathWithQuery, headers, signal: options.signal },
      (up) => {
        const out = answerHeaders(req.method, up.headers);
        let answered = false;
        const answer = () => {
          if (answered) return;
          answered = true;
          res.writeHead(up.statusCode ?? 502, out);
          up.pipe(res);
          up.on('end', resolve);
          up.on('error', resolve);
        };
        if (upstream.writableFinished) return answer();
        // Answered before the body was all passed on (a 403 on the headers, a 413 on a declared length).
        // A small rest is read and dropped first, so the caller, still writing, gets the answer rather
        // than a broken pipe, and its kept-alive connection is free for its next request (a rest left
        // unread, even one already received, would hold that request back); a large or unknown rest is
        // not read, and the caller's connection closes after the answer, as a proxy's must (RFC 9112
        // section 9.6), so a caller still sending stops.
        const declared = Number(req.headers['content-length']);
        if (!req.complete && !(declared <= DRAIN_LIMIT)) {
          out.connection = 'close';
          return answer();
        }
        req.unpipe(upstream);
        // The worker has answered and reads no more: its connection is not reused for another request.
        up.on('end', () => upstream.destroy());
        if (req.readableEnded) return answer();
        req.on('end', answer).on('error', answer);
        req.resume();
      },
    );
    upstream.on('error', () => {
      void badGateway(res, options).then(resolve);
    });
    req.pipe(upstream);
  });
}
