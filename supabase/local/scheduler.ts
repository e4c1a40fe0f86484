/**
 * The local stack's pg_cron and pg_net workers. The jobs themselves are in the migrations
 * (`cron.schedule(...)` calling `net.http_post` with the service-role key from Vault, as on Supabase);
 * the stand-ins of supabase/local/extensions give their tables and functions, and this file does what the
 * real extensions' background workers do:
 *
 * - cron: every second, each active row of cron.job whose schedule (five cron fields in UTC, or
 *   '[1-59] seconds') is due runs its command in a connection of its own as the job's user, logged in
 *   cron.job_run_details; a job never runs twice at once (pg_cron waits for the running one).
 * - net: requests queued by net.http_post / net.http_get are sent after their transaction commits (a
 *   NOTIFY wakes the worker; it also looks every second), and each answer, or its error or timeout, goes to
 *   net._http_response, kept 6 hours.
 */
import { Cron } from 'croner';
import pg from 'pg';
import type { StackConfig } from './config.ts';

export interface Scheduler {
  /** Runs a cron job now (tests); resolves with the HTTP answer to the request its command queued. */
  runNow(jobname: string): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

interface Job {
  jobid: number;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
}

/** True when a job's answer counts any work ({ sent: 2 }, { removed: 1 }): idle minutes stay out of the log. */
function didSomething(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((v) => typeof v === 'number' && v > 0)
  );
}

/** When a schedule is next due after `from`: '[1-59] seconds' or cron fields in UTC (croner). */
export function nextDue(schedule: string, from: Date): Date | null {
  const seconds = /^\s*(\d+)\s+seconds?\s*$/.exec(schedule);
  if (seconds) return new Date(from.getTime() + Number(seconds[1]) * 1000);
  if (schedule.trim() === '@reboot') return null;
  try {
    return new Cron(schedule.trim(), { timezone: 'Etc/UTC', paused: true }).nextRun(from);
  } catch {
    return null;
  }
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function startScheduler(
  config: StackConfig,
  pool: pg.Pool,
  log: (line: string) => void,
  tickMs = 1000,
): Scheduler {
  let stopped = false;
  const running = new Map<number, Promise<unknown>>();
  /** When each job is next due (by jobid and schedule, so an edited schedule starts afresh). */
  const due = new Map<string, Date | null>();
  const sending = new Set<Promise<void>>();
  let draining: Promise<void> | undefined;
  let drainAgain = false;

  /** Runs one job's command as its user; answers the first value of its last result (a request id). */
  const runJob = (job: Job): Promise<unknown> => {
    const current = running.get(job.jobid);
    if (current) return current;
    const p = (async () => {
      const client = await pool.connect();
      let runid: number | undefined;
      try {
        const started = await client.query<{ runid: number; pid: number }>(
          `insert into cron.job_run_details (jobid, job_pid, database, username, command, status, start_time)
           values ($1, pg_backend_pid(), current_database(), $2, $3, 'running', now()) returning runid, job_pid as pid`,
          [job.jobid, job.username, job.command],
        );
        runid = started.rows[0].runid;
        await client.query(`set role ${client.escapeIdentifier(job.username)}`);
        const results = await client.query(job.command);
        const last = (Array.isArray(results) ? results.at(-1) : results) as pg.QueryResult;
        await client.query('reset role');
        const message =
          last.command === 'SELECT'
            ? `${last.rowCount} row${last.rowCount === 1 ? '' : 's'}`
            : `${last.command} ${last.rowCount ?? ''}`.trim();
        await client.query(
          `update cron.job_run_details set status = 'succeeded', return_message = $2, end_time = now() where runid = $1`,
          [runid, message],
        );
        const first = last.rows?.[0] ? Object.values(last.rows[0] as object)[0] : undefined;
        return first;
      } catch (e) {
        await client.query('reset role').catch(() => undefined);
        if (runid !== undefined)
          await client
            .query(
              `update cron.job_run_details set status = 'failed', return_message = $2, end_time = now() where runid = $1`,
              [runid, (e as Error).message],
            )
            .catch(() => undefined);
        if (!stopped) log(`[cron] job ${job.jobname ?? job.jobid} failed: ${(e as Error).message}`);
        throw e;
      } finally {
        client.release();
        running.delete(job.jobid);
      }
    })();
    running.set(job.jobid, p);
    p.catch(() => undefined);
    return p;
  };

  const tick = async () => {
    const now = new Date();
    let jobs: Job[];
    try {
      jobs = (
        await pool.query<Job>(
          'select jobid, jobname, schedule, command, username from cron.job where active and database = current_database()',
        )
      ).rows;
    } catch {
      return; // no cron schema (yet)
    }
    for (const job of jobs) {
      const key = `${job.jobid}:${job.schedule}`;
      if (!due.has(key)) due.set(key, nextDue(job.schedule, now));
      const at = due.get(key);
      if (at && at <= now) {
        due.set(key, nextDue(job.schedule, now));
        void runJob(job).catch(() => undefined);
      }
    }
  };

  /** Sends one queued request and stores its answer as pg_net does. */
  const send = async (r: {
    id: number;
    method: string;
    url: string;
    headers: Record<string, string>;
    body: Buffer | null;
    timeout_milliseconds: number;
  }) => {
    let row: unknown[];
    try {
      const res = await fetch(r.url, {
        method: r.method,
        headers: r.headers,
        body: r.body ? new Uint8Array(r.body) : undefined,
        signal: AbortSignal.timeout(r.timeout_milliseconds),
      });
      const text = await res.text();
      row = [
        r.id,
        res.status,
        res.headers.get('content-type'),
        JSON.stringify(Object.fromEntries([...(res.headers as unknown as Iterable<[string, string]>)])),
        text,
        false,
        null,
      ];
      if (!res.ok) log(`[net] ${r.method} ${r.url} answered ${res.status}: ${text.slice(0, 300)}`);
      else if (config.verbose && didSomething(parseBody(text))) log(`[net] ${r.url}: ${text.slice(0, 200)}`);
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError';
      row = [
        r.id,
        null,
        null,
        null,
        null,
        timedOut,
        timedOut ? `Timeout of ${r.timeout_milliseconds} ms reached` : (e as Error).message,
      ];
      if (!stopped) log(`[net] ${r.method} ${r.url} failed: ${row[6]}`);
    }
    await pool
      .query(
        `insert into net._http_response (id, status_code, content_type, headers, content, timed_out, error_msg)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        row,
      )
      .catch(() => undefined);
  };

  const drain = (): Promise<void> => {
    if (draining) {
      drainAgain = true;
      return draining;
    }
    draining = (async () => {
      do {
        drainAgain = false;
        let rows;
        try {
          rows = (
            await pool.query(
              `delete from net.http_request_queue where id in (
                 select id from net.http_request_queue order by id limit 200 for update skip locked)
               returning id, method, url, headers, body, timeout_milliseconds`,
            )
          ).rows;
          await pool.query(`delete from net._http_response where created < now() - interval '6 hours'`);
        } catch {
          return; // no net schema (yet)
        }
        for (const r of rows) {
          const p = send(r).finally(() => sending.delete(p));
          sending.add(p);
        }
        if (rows.length === 200) drainAgain = true;
      } while (drainAgain && !stopped);
    })().finally(() => (draining = undefined));
    return draining;
  };

  // Woken by net.http_post's NOTIFY once the queuing transaction commits.
  let listener: pg.PoolClient | undefined;
  void pool
    .connect()
    .then(async (client) => {
      if (stopped) return client.release();
      listener = client;
      client.on('notification', () => void drain());
      await client.query('listen net_http_request');
    })
    .catch(() => undefined);

  const timer = setInterval(() => {
    if (stopped) return;
    void tick();
    void drain();
  }, tickMs);
  timer.unref();

  return {
    async runNow(jobname) {
      const { rows } = await pool.query<Job>(
        'select jobid, jobname, schedule, command, username from cron.job where jobname = $1',
        [jobname],
      );
      if (!rows[0]) throw new Error(`No cron job named ${jobname}`);
      const requestId = await runJob(rows[0]);
      if (typeof requestId !== 'number' && typeof requestId !== 'string')
        return { status: 0, body: requestId ?? null };
      void drain();
      for (const deadline = Date.now() + 160_000; Date.now() < deadline;) {
        const answer = await pool.query<{
          status_code: number | null;
          content: string | null;
          error_msg: string | null;
        }>('select status_code, content, error_msg from net._http_response where id = $1', [requestId]);
        if (answer.rows[0])
          return {
            status: answer.rows[0].status_code ?? 0,
            body:
              answer.rows[0].content === null ? answer.rows[0].error_msg : parseBody(answer.rows[0].content),
          };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`No answer to the request of job ${jobname}`);
    },
    async stop() {
      // Once only: a test may stop the jobs early, and the stack stops them again when it stops.
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (listener) {
        await listener.query('unlisten *').catch(() => undefined);
        listener.release();
      }
      await Promise.allSettled([...running.values(), draining, ...sending]);
    },
  };
}

/**
 * Stores named secrets in Vault (created, or updated when the name exists), as an operator does once on a
 * hosted project: the project's scheduled jobs read them (LocalProject's vaultSecrets, config.ts).
 */
export async function storeVaultSecrets(pool: pg.Pool, secrets: Record<string, string>) {
  for (const [name, secret] of Object.entries(secrets)) {
    await pool.query(
      `select coalesce(
         (select vault.update_secret(id, $2) is not null from vault.secrets where name = $1),
         vault.create_secret($2, $1) is not null)`,
      [name, secret],
    );
  }
}
