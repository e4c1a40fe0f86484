/**
 * The edge functions' shared code is Deno code; these unit tests run it under Node. Deno.env is the
 * only Deno API the modules under test read when imported and called, so it maps onto process.env.
 */
const env = {
  get: (name: string): string | undefined => process.env[name],
};
(globalThis as unknown as { Deno: unknown }).Deno = { env };
