/**
 * A local stack of its own for a check that must not share one (load, fuzz): the test configuration on
 * ports STACK_PORT_OFFSET + `delta`, a fresh data folder, and the stack's address and keys exported as the
 * STACK_* variables the test helpers read. The test stack trusts one proxy in front of it, so a check
 * stands in for that proxy and names each simulated client's address in X-Forwarded-For.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { type RunningStack, startStack, statusEnv, testDataDir, testPorts } from '@scamcheck/local-supabase';
import { projectTestConfig } from '../supabase/project/index.ts';

export interface OwnStack {
  stack: RunningStack;
  env: Record<string, string>;
}

/** `functionLog`: print the functions' lines that name an error (the load check's 5xx come with their cause). */
export async function startOwnStack(delta: number, opts: { functionLog?: boolean } = {}): Promise<OwnStack> {
  const offset = Number(process.env.STACK_PORT_OFFSET ?? 0) + delta;
  const dataDir = testDataDir(offset);
  await fs.rm(dataDir, { recursive: true, force: true });
  const config = projectTestConfig({ ...testPorts(offset), dataDir, verbose: !!opts.functionLog });
  const stack = await startStack(config, (line) => {
    if (/error|fail/i.test(line) && (!opts.functionLog || line.startsWith('[functions:'))) console.log(line);
  });
  const env = statusEnv(config);
  for (const [k, v] of Object.entries(env)) process.env[`STACK_${k}`] = v;
  process.env.STACK_SMTP_PORT = String(config.smtpPort);
  process.env.STACK_SMTP_CA_FILE = path.join(config.dataDir, 'tls', 'ca.crt');
  return { stack, env };
}

/** A public (routable, not private or reserved) IPv4 address for simulated client `n`. */
export function clientAddress(n: number): string {
  // 11.0.0.0/8 is public unicast space (allocated, not private or documentation-only), so the
  // limiter counts it as a client's address.
  return `11.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255 || 1}`;
}
