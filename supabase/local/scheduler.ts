/**
 * The local stand-in for pg_cron + pg_net: calls the scheduled edge functions on their schedule
 * through the gateway, with the service-role key, as the production cron jobs do (README, "Scheduled
 * functions"). A run that fails is logged and retried at the next tick; runs of one job never overlap.
 */
import { SERVICE_ROLE_KEY, apiUrl, type StackConfig } from './config.ts';

export interface ScheduledJob {
  /** Edge function name (supabase/functions/<name>). */
  name: string;
  /** Milliseconds between runs (pg_cron's '* * * * *' is 60000). */
  everyMs: number;
}

/**
 * The production schedule, mirrored: notify e-mails every minute, the removal policy hourly, the
 * statistics refresh, open-data export and orphan-upload cleanup hourly.
 */
export const DEFAULT_JOBS: ScheduledJob[] = [
  { name: 'notify-dispatch', everyMs: 60_000 },
  { name: 'removal-expiry', everyMs: 60 * 60_000 },
  { name: 'open-data', everyMs: 60 * 60_000 },
  { name: 'upload-cleanup', everyMs: 60 * 60_000 },
];

/** True when a job's answer counts any work ({ sent: 2 }, { removed: 1 }): idle minutes stay out of the log. */
function didSomething(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((v) => typeof v === 'number' && v > 0)
  );
}

export interface Scheduler {
  /** Runs one job now (used by the stack's tests); resolves with the function's answer. */
  runNow(name: string): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

export function startScheduler(
  config: StackConfig,
  log: (line: string) => void,
  jobs: ScheduledJob[] = DEFAULT_JOBS,
  baseUrl = `${apiUrl(config)}/functions/v1`,
): Scheduler {
  const running = new Map<string, Promise<{ status: number; body: unknown }>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const run = (name: string) => {
    const current = running.get(name);
    if (current) return current;
    const p = (async () => {
      try {
        const res = await fetch(`${baseUrl}/${name}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ scheduledAt: new Date().toISOString() }),
          signal: AbortSignal.timeout(120_000),
        });
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text for the log
        }
        if (!res.ok) log(`[scheduler] ${name} answered ${res.status}: ${text.slice(0, 300)}`);
        else if (config.verbose && didSomething(body)) log(`[scheduler] ${name}: ${text.slice(0, 200)}`);
        return { status: res.status, body };
      } catch (e) {
        if (!stopped) log(`[scheduler] ${name} failed: ${(e as Error).message}`);
        return { status: 0, body: null };
      } finally {
        running.delete(name);
      }
    })();
    running.set(name, p);
    return p;
  };

  for (const job of jobs) {
    const timer = setInterval(() => {
      if (!stopped) void run(job.name);
    }, job.everyMs);
    timer.unref();
    timers.push(timer);
  }

  return {
    runNow: run,
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...running.values()]);
    },
  };
}
