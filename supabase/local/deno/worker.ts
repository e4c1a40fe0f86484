// Runs one edge function under Deno the way Supabase's edge runtime does: the function calls
// Deno.serve() and this wrapper binds it to the port the gateway chose. Runs in Deno, not Node.
const port = Number(Deno.env.get('SB_WORKER_PORT'));
const entry = Deno.env.get('SB_WORKER_ENTRY')!;
const originalServe = Deno.serve.bind(Deno);

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
