/**
 * The limits of Supabase's hosted edge runtime, as its "Limits" page documents them, and how the local
 * stack enforces each on a function's Deno process (functions.ts). What the page does not say, and what
 * the local stack therefore chose, is marked "not documented" (docs/deploying.md lists the same).
 *
 * - Outgoing connections to ports 25 and 587 are refused: Deno's `--deny-net=:25,:587` (any host name
 *   or IPv4 address on those ports), and the worker's Deno.connect / connectTls refuse them for IPv6
 *   literals too. Not covered: node:net to an IPv6 literal on those ports (Deno's flag takes no IPv6
 *   range with a port).
 * - 256 MB of memory: V8's heap is capped at 256 MB (`--max-old-space-size`), and the process's resident
 *   memory may grow at most 256 MB over what it used when it had booted (ArrayBuffers live outside the
 *   heap). Hosted counts "memory" without saying how heap and external memory add up: not documented.
 * - 2 s of CPU per request: the CPU time of the worker's JavaScript thread (/proc, Linux), measured every
 *   50 ms while requests are in flight, is shared equally among the requests in flight at that moment.
 *   How hosted apportions CPU between concurrent requests of one worker is not documented.
 * - Past either, the worker is stopped and every request in flight on it answers 546 WORKER_LIMIT, as
 *   hosted answers; the body also names the function and the limit (hosted's logs name the limit; its
 *   answer's exact body is not documented beyond the code).
 * - Request idle timeout, 150 s: a request that has no answer by then gets 504.
 * - Wall clock, 400 s (paid plans; 150 s on the free plan): a worker serves requests for that long, then
 *   takes no new ones (a new worker starts) and stops once its requests are answered. Whether hosted
 *   lets in-flight requests finish past the wall clock is not documented.
 * - No Web Worker and no node:vm: `Worker` throws, and `node:vm` resolves to a module whose every entry
 *   throws (an npm package that requires 'vm' itself is not caught here; check:deploy refuses it).
 * - Files: a function reads only its own folder, the shared `_`-folders it imports (its bundle), the
 *   `static_files` of its `[functions.<name>]` section and its temporary folder (hosted's /tmp).
 * - `GET` answers of type text/html become text/plain (hosted does so unless a custom domain serves them).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface EdgeLimits {
  /** V8 heap and resident growth, MB. */
  memoryMb: number;
  /** CPU time per request, ms. */
  cpuMs: number;
  /** No answer by then: 504. */
  requestIdleMs: number;
  /** A worker's life. */
  wallClockMs: number;
  /** Outgoing ports refused. */
  blockedPorts: number[];
}

export const HOSTED_LIMITS: Readonly<EdgeLimits> = Object.freeze({
  memoryMb: 256,
  cpuMs: 2000,
  requestIdleMs: 150_000,
  wallClockMs: 400_000,
  blockedPorts: [25, 587],
});

/** The answer hosted gives when a worker is stopped for a resource limit, naming the function and limit. */
export function workerLimitAnswer(name: string, limit: string) {
  return {
    status: 546,
    body: {
      code: 'WORKER_LIMIT',
      message: `Function ${name} failed due to not having enough compute resources (${limit})`,
      function: name,
      limit,
    },
  };
}

/**
 * The folders and files a function may read: its own folder, the functions' `_`-folders (shared code in
 * its bundle), its static files, and its temporary folder. A static_files pattern (`./functions/x/*.html`,
 * relative to supabase/) allows the folder before its first wildcard.
 */
export function readablePaths(
  entry: string,
  functionsDir: string,
  staticFiles: string[],
  supabaseDir: string,
  tmpDir: string,
): string[] {
  const out = new Set<string>([path.dirname(entry), tmpDir]);
  if (existsSync(functionsDir))
    for (const d of readdirSync(functionsDir, { withFileTypes: true }))
      if (d.isDirectory() && d.name.startsWith('_')) out.add(path.join(functionsDir, d.name));
  for (const pattern of staticFiles) out.add(staticFileRoot(pattern, supabaseDir));
  return [...out];
}

/** The fixed part of a static_files pattern: the path up to the segment holding its first wildcard. */
export function staticFileRoot(pattern: string, supabaseDir: string): string {
  const parts = pattern.split('/');
  const i = parts.findIndex((p) => /[*?[{]/.test(p));
  return path.resolve(supabaseDir, (i < 0 ? parts : parts.slice(0, i)).join('/') || '.');
}

/** Deno's permission and V8 flags for a function under `limits`. */
export function permissionArgs(readable: string[], tmpDir: string, limits: EdgeLimits): string[] {
  return [
    '--allow-net',
    `--deny-net=${limits.blockedPorts.map((p) => `:${p}`).join(',')}`,
    '--allow-env',
    '--allow-sys',
    `--allow-read=${readable.join(',')}`,
    `--allow-write=${tmpDir}`,
    `--v8-flags=--max-old-space-size=${limits.memoryMb}`,
  ];
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

/** CPU time, ms, of a process's main thread (where Deno runs JavaScript); null off Linux or once it is gone. */
export function mainThreadCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after "pid (comm) ".
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** Resident memory, MB, of a process; null off Linux or once it is gone. */
export function residentMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}
