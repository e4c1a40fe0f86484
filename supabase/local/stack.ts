/**
 * Starts and stops the whole local stack (docs/architecture.md): database, mail sink, gateway with its
 * services and edge functions, and optionally the Vite dev server. Used by `npm start` and by the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  ANON_KEY,
  ROOT_DIR,
  SERVICE_ROLE_KEY,
  apiUrl,
  appUrl,
  stackEnv,
  mailUrl,
  statusEnv,
  type StackConfig,
} from './config.ts';
import { prepareDatabase, startDatabase } from './db.ts';
import { startGateway, type ServiceContext, type ServiceHandler } from './gateway.ts';
import { FunctionsRuntime } from './functions.ts';
import { startMailSink } from './mail.ts';
import { startScheduler, storeVaultSecrets, type Scheduler } from './scheduler.ts';

export interface RunningStack {
  config: StackConfig;
  env: Record<string, string>;
  functions: FunctionsRuntime;
  scheduler: Scheduler;
  /** The app's production build (`appMode: 'build'`), which `vite preview` serves at the app's URL. */
  appBuildDir?: string;
  stop(): Promise<void>;
}

export class StackAlreadyRunning extends Error {}

/** True when something already listens on host:port. */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startStack(
  config: StackConfig,
  log: (line: string) => void = console.log,
  /** Told each step as it begins, so a caller can say where a start that takes too long stands. */
  onStep: (step: string) => void = () => undefined,
): Promise<RunningStack> {
  const ports: [string, number][] = [
    ['gateway', config.apiPort],
    ['mail', config.mailPort],
    ['smtp', config.smtpPort],
  ];
  if (!config.databaseUrl) ports.push(['database', config.dbPort]);
  if (config.withApp) ports.push(['app', config.appPort]);
  for (const [what, port] of ports) {
    if (await portInUse(config.host, port)) {
      throw new StackAlreadyRunning(
        `Port ${port} (${what}) is already in use: a local stack seems to be running already ` +
          `(see \`npm run status\`), or another program holds the port. Stop it first.`,
      );
    }
  }
  await fs.mkdir(config.dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => log(`stop: ${(e as Error).message}`));
    stops.length = 0;
  };
  // The app's build needs only the ports, so it runs while the database and services start.
  if (config.withApp && config.appMode === 'build') onStep('app build started');
  const build = config.withApp && config.appMode === 'build' ? buildApp(config, log) : undefined;
  // A start that fails half-way also ends a build that is still running.
  if (build) stops.push(() => stopChild(build.child));
  const built = build ? build.done : Promise.resolve(undefined);
  built.catch(() => undefined);
  try {
    onStep('database');
    const db = await startDatabase(config, log);
    stops.push(() => db.stop());
    onStep('migrations and seed');
    await prepareDatabase(db.pool, log);
    onStep('mail sink, functions and gateway');

    // The project's own work on the migrated database (LocalProject in config.ts), done while the rest starts.
    const projectReady =
      config.project?.onDatabaseReady?.(db.pool, config.verbose ? log : () => undefined, config) ??
      Promise.resolve();
    projectReady.catch(() => undefined);

    const mail = await startMailSink(config, log);
    stops.push(() => mail.stop());

    const ctx: ServiceContext = { config, pool: db.pool, log, sendMail: mail.send, sendSms: mail.sms.send };
    // Functions send e-mail through SMTP with implicit TLS; locally that is the mail sink, whose
    // certificate Deno trusts through DENO_CERT (production sets its own SMTP_*).
    const functions = new FunctionsRuntime(config, log, {
      SMTP_HOST: config.host,
      SMTP_PORT: String(config.smtpPort),
      DENO_CERT: mail.denoCertFile,
      SITE_URL: appUrl(config),
      // Auth's Send Email hook checks GoTrue's signature with the secret config.toml names.
      SEND_EMAIL_HOOK_SECRET: stackEnv(config).SEND_EMAIL_HOOK_SECRET,
      ...config.project?.functionsEnv?.(config),
    });
    stops.push(() => functions.stop());
    const services: Record<string, ServiceHandler> = {
      '/functions/v1': (req, res, sub) => functions.handle(req, res, sub),
    };
    await registerServices(services, ctx);
    const gateway = await startGateway(config, services, log);
    stops.push(() => gateway.close());
    // Scheduled functions: the migrations' pg_cron jobs, calling the functions with pg_net and the
    // secrets the project keeps in Vault, run by the stand-ins' workers (scheduler.ts).
    const secrets = config.project?.vaultSecrets?.(config, {
      apiUrl: apiUrl(config),
      serviceRoleKey: SERVICE_ROLE_KEY,
    });
    if (secrets) await storeVaultSecrets(db.pool, secrets);
    const scheduler = startScheduler(config, db.pool, log);
    stops.push(() => scheduler.stop());

    onStep('project data');
    await projectReady;
    let appBuildDir: string | undefined;
    if (config.withApp) {
      if (config.appMode === 'build') onStep('waiting for the app build');
      appBuildDir = await built;
      onStep('app server');
      const vite = startVite(config, log, appBuildDir);
      stops.push(() => stopChild(vite.child));
      await vite.ready;
    }
    return { config, env: statusEnv(config), functions, scheduler, appBuildDir, stop: stopAll };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** Adds the Supabase HTTP services (auth, rest, storage) that exist in this checkout. */
async function registerServices(services: Record<string, ServiceHandler>, ctx: ServiceContext) {
  const modules: [string, string, string][] = [
    ['/auth/v1', './auth/index.ts', 'createAuthService'],
    ['/rest/v1', './rest/index.ts', 'createRestService'],
    ['/storage/v1', './storage/index.ts', 'createStorageService'],
  ];
  for (const [prefix, file, factory] of modules) {
    const full = path.join(path.dirname(new URL(import.meta.url).pathname), file);
    if (!(await fs.stat(full).catch(() => null))) continue;
    const mod = (await import(full)) as Record<
      string,
      (ctx: ServiceContext) => Promise<ServiceHandler> | ServiceHandler
    >;
    services[prefix] = await mod[factory](ctx);
  }
}

/** Vite's environment for this stack's app: the API it talks to and its own pre-bundle folder. */
function viteEnv(config: StackConfig): NodeJS.ProcessEnv {
  return {
    ...process.env,
    VITE_SUPABASE_URL: apiUrl(config),
    VITE_SUPABASE_ANON_KEY: ANON_KEY,
    ...config.project?.appEnv?.(config),
  };
}

const VITE_BIN = path.join(ROOT_DIR, 'node_modules', '.bin', 'vite');

/**
 * Builds the app for this stack (`appMode: 'build'`) into the data folder, as `npm run build` does
 * (NODE_ENV=production: a test runner's NODE_ENV=test would bundle React's development build).
 */
function buildApp(
  config: StackConfig,
  log: (line: string) => void,
): { child: ChildProcess; done: Promise<string> } {
  const outDir = path.join(config.dataDir, 'app-dist');
  const child = spawn(VITE_BIN, ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT_DIR,
    env: { ...viteEnv(config), NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const done = new Promise<string>((resolve, reject) =>
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`The app build (vite build) exited with code ${code}:\n${output}`));
      else {
        if (config.verbose) log(`[app] built into ${outDir}`);
        resolve(outDir);
      }
    }),
  );
  return { child, done };
}

/**
 * Starts the app: Vite's dev server, or (`appMode: 'build'`) a build served by `vite preview`, which
 * forwards /api/v1 as the dev server does (preview.proxy defaults to server.proxy). `ready` settles
 * when the server answers HTTP (or fails with its output if it exits or does not answer in time).
 *
 * Readiness is asked of the server, not read from its banner: with CI=true Vite colours its output, so
 * `vite preview`'s "Local:" line arrived as "Local\x1b[22m:" and a start that matched the text waited
 * forever in CI.
 */
function startVite(
  config: StackConfig,
  log: (line: string) => void,
  outDir?: string,
): { child: ChildProcess; ready: Promise<void> } {
  const args = ['--port', String(config.appPort), '--strictPort', '--host', 'localhost'];
  const child = spawn(VITE_BIN, outDir ? ['preview', '--outDir', outDir, ...args] : args, {
    cwd: ROOT_DIR,
    env: { ...viteEnv(config), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exitCode: number | null | undefined;
  const relay = (c: Buffer) => {
    const text = c.toString('utf8');
    output += text;
    for (const line of text.split('\n')) if (line.trim() && config.verbose) log(`[app] ${line}`);
  };
  child.stdout!.on('data', relay);
  child.stderr!.on('data', relay);
  child.once('exit', (code) => (exitCode = code));
  const ready = (async () => {
    const deadline = Date.now() + VITE_START_LIMIT_MS;
    for (;;) {
      if (exitCode !== undefined) {
        throw new Error(`The app server (Vite) exited with code ${exitCode}:\n${output}`);
      }
      if (await answersHttp(appUrl(config))) return;
      if (Date.now() > deadline) {
        throw new Error(
          `The app server (Vite) did not answer at ${appUrl(config)} within ${VITE_START_LIMIT_MS / 1000} s:\n${output}`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  ready.catch(() => undefined);
  return { child, ready };
}

/** How long the app server may take to answer its first request (a loaded 2-core machine included). */
const VITE_START_LIMIT_MS = 180_000;

/** True when something answers an HTTP GET at the URL, whatever its status. */
async function answersHttp(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 3000).unref();
  });
}

export function describeStack(config: StackConfig): string {
  return [
    `  App:       ${appUrl(config)}`,
    `  API:       ${apiUrl(config)}`,
    `  Database:  ${statusEnv(config).DB_URL}`,
    `  Mail:      ${mailUrl(config)}`,
  ].join('\n');
}
