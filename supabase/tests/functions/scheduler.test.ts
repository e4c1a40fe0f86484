/**
 * The scheduled jobs as the migrations define them (pg_cron + pg_net + Vault, as on Supabase), run by the
 * local stand-ins' workers (supabase/local/scheduler.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  nextDue,
  type Scheduler,
  SERVICE_ROLE_KEY,
  startScheduler,
  testConfig,
} from '@scamcheck/local-supabase';
import { stackEnv } from '../helpers.ts';

let pool: pg.Pool;
let scheduler: Scheduler;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: stackEnv('DB_URL'), max: 6 });
  // A second worker pair on the same database, for runNow (the stack's own runs beside it).
  scheduler = startScheduler(testConfig(), pool, () => undefined, 200);
});
afterAll(async () => {
  await scheduler.stop();
  await pool.end();
});

describe('scheduled jobs from the migrations', () => {
  it('are pg_cron jobs calling each function with pg_net and the key from Vault, on the production schedule', async () => {
    const { rows } = await pool.query(
      `select jobname, schedule, command from cron.job where jobname in ('notify-dispatch', 'removal-expiry', 'open-data', 'upload-cleanup') order by jobname`,
    );
    expect(rows).toEqual([
      {
        jobname: 'notify-dispatch',
        schedule: '* * * * *',
        command: "select private.call_edge_function('notify-dispatch')",
      },
      {
        jobname: 'open-data',
        schedule: '5 * * * *',
        command: "select private.call_edge_function('open-data')",
      },
      {
        jobname: 'removal-expiry',
        schedule: '0 * * * *',
        command: "select private.call_edge_function('removal-expiry')",
      },
      {
        jobname: 'upload-cleanup',
        schedule: '15 * * * *',
        command: "select private.call_edge_function('upload-cleanup')",
      },
    ]);
    const ext = await pool.query(
      `select extname from pg_extension where extname in ('pg_cron', 'pg_net', 'supabase_vault') order by 1`,
    );
    expect(ext.rows.map((r) => r.extname)).toEqual(['pg_cron', 'pg_net', 'supabase_vault']);
  });

  it('each job, run through its SQL, reaches its function with the service role and gets 200', async () => {
    for (const job of ['notify-dispatch', 'removal-expiry', 'open-data', 'upload-cleanup']) {
      const answer = await scheduler.runNow(job);
      expect(answer.status, `${job}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    const runs = await pool.query(
      `select j.jobname, d.status from cron.job_run_details d join cron.job j using (jobid)
       where j.jobname = 'open-data' order by d.runid desc limit 1`,
    );
    expect(runs.rows[0]).toEqual({ jobname: 'open-data', status: 'succeeded' });
  }, 180_000);

  it('holds on: postgres — nobody but the database owner can read the key or call functions with it', async () => {
    for (const role of ['anon', 'authenticated']) {
      const client = await pool.connect();
      try {
        await client.query(`set role ${role}`);
        await expect(client.query('select decrypted_secret from vault.decrypted_secrets')).rejects.toThrow(
          /permission denied/,
        );
        await expect(client.query(`select private.call_edge_function('open-data')`)).rejects.toThrow(
          /permission denied/,
        );
        await expect(client.query(`select net.http_post('http://example.invalid')`)).rejects.toThrow(
          /permission denied/,
        );
      } finally {
        await client.query('reset role');
        client.release();
      }
    }
  });
});

describe('the pg_cron and pg_net stand-ins', () => {
  it('run a job on its schedule, log it, and send what it queues after commit', async () => {
    const calls: { auth?: string; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        calls.push({ auth: req.headers.authorization, body });
        res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const name = `test-${Date.now()}`;
    try {
      await pool.query(`select cron.schedule($1, '1 seconds', $2)`, [
        name,
        `select net.http_post(url := '${url}/ok', headers := '{"Authorization": "Bearer ${SERVICE_ROLE_KEY}"}'::jsonb, body := '{"n": 1}'::jsonb)`,
      ]);
      const deadline = Date.now() + 20_000;
      while (calls.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls[0]).toEqual({ auth: `Bearer ${SERVICE_ROLE_KEY}`, body: '{"n": 1}' });
      const runs = await pool.query(
        `select status, return_message from cron.job_run_details d join cron.job j using (jobid) where j.jobname = $1`,
        [name],
      );
      expect(runs.rows.length).toBeGreaterThanOrEqual(2);
      expect(runs.rows[0]).toEqual({ status: 'succeeded', return_message: '1 row' });
      // A request queued in a transaction that rolls back is never sent.
      const before = calls.length;
      await pool.query(`select cron.unschedule($1)`, [name]);
      const client = await pool.connect();
      await client.query('begin');
      await client.query(`select net.http_post($1)`, [`${url}/rolled-back`]);
      await client.query('rollback');
      client.release();
      const id = (await pool.query(`select net.http_post($1) as id`, [`${url}/fail`])).rows[0].id;
      for (const end = Date.now() + 10_000; Date.now() < end;) {
        const r = await pool.query('select status_code from net._http_response where id = $1', [id]);
        if (r.rows[0]) {
          expect(r.rows[0].status_code).toBe(500);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(calls.length - before).toBeLessThanOrEqual(2);
    } finally {
      await pool.query(`delete from cron.job where jobname = $1`, [name]);
      server.close();
    }
  }, 60_000);

  it('refuses a schedule pg_cron refuses', async () => {
    await expect(pool.query(`select cron.schedule('bad', 'every minute', 'select 1')`)).rejects.toThrow(
      /invalid schedule/,
    );
  });

  it('computes when cron fields are next due, in UTC', () => {
    const from = new Date('2026-11-27T10:03:30Z');
    expect(nextDue('* * * * *', from)?.toISOString()).toBe('2026-11-27T10:04:00.000Z');
    expect(nextDue('5 * * * *', from)?.toISOString()).toBe('2026-11-27T10:05:00.000Z');
    expect(nextDue('0 * * * *', from)?.toISOString()).toBe('2026-11-27T11:00:00.000Z');
    expect(nextDue('30 seconds', from)?.toISOString()).toBe('2026-11-27T10:04:00.000Z');
  });
});
