/**
 * Functions that break one of hosted's limits each (supabase/local/edge-limits.ts), written to a
 * temporary folder for the conformance tests of edge-limits.test.ts.
 */
export const FIXTURES: Record<string, string> = {
  // Opens port 587 with Deno.connect and with nodemailer (node:net), and port 465 for comparison.
  'port-587': `
import nodemailer from 'npm:nodemailer@8.0.2';
Deno.serve(async (req) => {
  const port = Number(new URL(req.url).searchParams.get('port'));
  const how = new URL(req.url).searchParams.get('how');
  try {
    if (how === 'smtp') {
      await nodemailer.createTransport({ host: '127.0.0.1', port, connectionTimeout: 2000 }).verify();
    } else {
      const c = await Deno.connect({ hostname: how === 'v6' ? '::1' : '127.0.0.1', port });
      c.close();
    }
    return Response.json({ connected: true });
  } catch (e) {
    return Response.json({ error: (e as Error).name, message: String((e as Error).message) }, { status: 500 });
  }
});`,
  // Reads a file of its own folder, one of the project outside it, and one of node_modules.
  'reads-files': `
Deno.serve(async (req) => {
  const which = new URL(req.url).searchParams.get('file')!;
  try {
    const text = await Deno.readTextFile(which);
    return Response.json({ read: text.length });
  } catch (e) {
    return Response.json({ error: (e as Error).name }, { status: 500 });
  }
});`,
  // Keeps 400 MB: on the V8 heap (objects) or outside it (ArrayBuffers).
  'memory-hog': `
const kept: unknown[] = [];
Deno.serve((req) => {
  if (new URL(req.url).searchParams.get('kind') === 'buffers') {
    for (let i = 0; i < 40; i++) kept.push(new Uint8Array(10 * 1024 * 1024).fill(1));
  } else {
    for (let i = 0; i < 8_000_000; i++) kept.push({ i, s: 'x'.repeat(16) + i });
  }
  return Response.json({ kept: kept.length });
});`,
  // Spins on the CPU for up to 60 s of wall time, far past 2 s of CPU.
  'cpu-hog': `
const started = crypto.randomUUID();
Deno.serve((req) => {
  if (new URL(req.url).searchParams.get('light')) return Response.json({ worker: started });
  const t0 = performance.now();
  let x = 0;
  while (performance.now() - t0 < 60_000) x += Math.sqrt(x + 1);
  return Response.json({ x });
});`,
  // Web Worker, node:vm, HTML, a slow answer, and which worker answered.
  misc: `
import vm from 'node:vm';
const started = crypto.randomUUID();
Deno.serve(async (req) => {
  const what = new URL(req.url).searchParams.get('what');
  try {
    if (what === 'worker') new Worker(new URL('data:text/javascript,1', import.meta.url), { type: 'module' });
    if (what === 'vm') return Response.json({ value: vm.runInNewContext('1 + 1') });
    if (what === 'html') return new Response('<p>hi</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    if (what === 'slow') await new Promise((r) => setTimeout(r, 5000));
    return Response.json({ worker: started });
  } catch (e) {
    return Response.json({ error: (e as Error).message }, { status: 500 });
  }
});`,
};
