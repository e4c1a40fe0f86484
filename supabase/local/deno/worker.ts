// Runs one edge function under Deno the way Supabase's edge runtime does: the function calls
// Deno.serve() and this wrapper binds it to the port the gateway chose. Runs in Deno, not Node.
const port = Number(Deno.env.get('SB_WORKER_PORT'));
const entry = Deno.env.get('SB_WORKER_ENTRY')!;
const originalServe = Deno.serve.bind(Deno);

// Hosted's limits that live inside the process (supabase/local/edge-limits.ts): no Web Worker, and no
// outgoing connection to the blocked ports, IPv6 literals included (Deno's --deny-net covers the rest).
Object.defineProperty(globalThis, 'Worker', {
  configurable: true,
  writable: true,
  value: class {
    constructor() {
      throw new TypeError('Web Workers are not available in Supabase Edge Functions');
    }
  },
});
const blockedPorts = new Set((Deno.env.get('SB_BLOCKED_PORTS') ?? '').split(',').filter(Boolean).map(Number));
for (const key of ['connect', 'connectTls'] as const) {
  const original = Deno[key].bind(Deno) as (options: { port: number }) => Promise<unknown>;
  // deno-lint-ignore no-explicit-any
  (Deno as any)[key] = (options: { port: number; hostname?: string }) => {
    if (blockedPorts.has(Number(options.port)))
      return Promise.reject(
        new Deno.errors.NotCapable(
          `Outgoing connections to port ${options.port} are refused (as on hosted Supabase)`,
        ),
      );
    return original(options);
  };
}

type Handler = (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

// deno-lint-ignore no-explicit-any
(Deno as any).serve = (a: any, b?: any) => {
  const handler: Handler = typeof a === 'function' ? a : (b ?? a.handler);
  const onError = typeof a === 'object' && a?.onError ? a.onError : undefined;
  return originalServe(
    {
      port,
      hostname: '127.0.0.1',
      onListen: () => console.log('__SB_WORKER_READY__'),
      onError:
        onError ??
        ((error: unknown) => {
          console.error(error);
          return new Response(
            JSON.stringify({
              code: 'WORKER_ERROR',
              message: 'Function exited due to an error (please check logs)',
            }),
            {
              status: 500,
              headers: { 'content-type': 'application/json' },
            },
          );
        }),
    },
    handler,
  );
};

// The stack stops a worker with SIGTERM: exit through Deno's own exit path, so that a CPU profile
// (STACK_DENO_CPU_PROF_DIR, functions.ts) is written.
Deno.addSignalListener('SIGTERM', () => Deno.exit(0));

await import(entry);
