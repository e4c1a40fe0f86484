/**
 * The edge functions' shared code is Deno code; these unit tests run it under Node. Deno.env maps
 * onto process.env, and Deno.test onto vitest's `it`, so the functions' own Deno unit tests
 * (supabase/functions/_shared/*_test.ts) run here too, where Stryker can use them.
 */
import { it } from 'vitest';

const env = {
  get: (name: string): string | undefined => process.env[name],
};
const test = (name: string, fn: () => unknown) => it(name, fn);
(globalThis as unknown as { Deno: unknown }).Deno = { env, test };
