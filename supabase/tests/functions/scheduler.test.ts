/** The local stand-in for pg_cron + pg_net: calls each job on its interval with the service key. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVICE_ROLE_KEY, testConfig } from '../../local/config.ts';
import { DEFAULT_JOBS, startScheduler, type Scheduler } from '../../local/scheduler.ts';

let server: http.Server | undefined;
let scheduler: Scheduler | undefined;

afterEach(async () => {
  await scheduler?.stop();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = scheduler = undefined;
});

async function fakeFunctions(answer: (name: string) => number) {
  const calls: { name: string; auth: string | undefined; method: string | undefined }[] = [];
  server = http.createServer((req, res) => {
    const name = (req.url ?? '').split('/').pop()!;
    calls.push({ name, auth: req.headers.authorization, method: req.method });
    res.writeHead(answer(name), { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, name }));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return { calls, base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/functions/v1` };
}

describe('local scheduler', () => {
  it('mirrors the production schedule: notify e-mails every minute, removal expiry, open data and upload cleanup hourly', () => {
    expect(DEFAULT_JOBS).toEqual([
      { name: 'notify-dispatch', everyMs: 60_000 },
      { name: 'removal-expiry', everyMs: 3_600_000 },
      { name: 'open-data', everyMs: 3_600_000 },
      { name: 'upload-cleanup', everyMs: 3_600_000 },
    ]);
  });

  it('POSTs to each job on its interval with the service-role key, and logs failures without stopping', async () => {
    const { calls, base } = await fakeFunctions((name) => (name === 'flaky' ? 500 : 200));
    const lines: string[] = [];
    scheduler = startScheduler(
      testConfig(),
      (l) => lines.push(l),
      [
        { name: 'fast', everyMs: 40 },
        { name: 'flaky', everyMs: 40 },
      ],
      base,
    );
    // Timers on a busy CI machine drift; wait for the calls rather than for a fixed time.
    const deadline = Date.now() + 10_000;
    const seen = () => Math.min(...['fast', 'flaky'].map((n) => calls.filter((c) => c.name === n).length));
    while (seen() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const fast = calls.filter((c) => c.name === 'fast');
    expect(fast.length).toBeGreaterThanOrEqual(3);
    expect(fast.every((c) => c.method === 'POST' && c.auth === `Bearer ${SERVICE_ROLE_KEY}`)).toBe(true);
    expect(calls.filter((c) => c.name === 'flaky').length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.includes('flaky answered 500'))).toBe(true);
  });

  it("runNow answers with the function's reply; nothing runs after stop", async () => {
    const { calls, base } = await fakeFunctions(() => 200);
    scheduler = startScheduler(testConfig(), () => undefined, [{ name: 'job', everyMs: 30 }], base);
    expect(await scheduler.runNow('job')).toEqual({ status: 200, body: { ok: true, name: 'job' } });
    await scheduler.stop();
    const seen = calls.length;
    await new Promise((r) => setTimeout(r, 120));
    expect(calls.length).toBe(seen);
  });
});
