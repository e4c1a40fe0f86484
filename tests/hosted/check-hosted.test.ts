/**
 * npm run check:hosted against the local stack, so the smoke suite an operator runs after deploying
 * stays true to what the project serves; and a failure it must report (a job whose function fails).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { stackEnv } from '../../supabase/tests/helpers.ts';
import { checkHosted, scheduleProblems, type HostedTarget, type ScheduledJob } from './check-hosted.ts';

let pool: pg.Pool;
let target: HostedTarget;
beforeAll(() => {
  pool = new pg.Pool({ connectionString: stackEnv('DB_URL'), max: 2 });
  // A Philippine client address of its own (the test stack trusts one proxy; limits are per address).
  const n = 2 + Math.floor(Math.random() * 250);
  target = {
    url: stackEnv('API_URL'),
    anonKey: stackEnv('ANON_KEY'),
    serviceRoleKey: stackEnv('SERVICE_ROLE_KEY'),
    clientAddress: `120.28.${n}.${n}`,
  };
});
afterAll(() => pool.end());

describe('npm run check:hosted', () => {
  it('passes every step against the local stack and deletes what it made', async () => {
    const lines: string[] = [];
    const results = await checkHosted(target, (l) => lines.push(l));
    expect(
      results.filter((r) => !r.ok),
      lines.join('\n'),
    ).toEqual([]);
    expect(results.map((r) => r.step)).toHaveLength(11);
    // The report was located from the (Philippine) client address, and nothing is left behind.
    expect(results.find((r) => r.step.startsWith('a report'))?.detail).toMatch(
      /located from this address: yes/,
    );
    const left = await pool.query(
      `select (select count(*) from auth.users where email like 'check-hosted-account-%')::int as users,
              (select count(*) from public.reports where reported_account like 'check-hosted-%')::int as reports,
              (select count(*) from public.notify_registrations where asset_name like 'check-hosted-%')::int as registrations`,
    );
    expect(left.rows[0]).toEqual({ users: 0, reports: 0, registrations: 0 });
  }, 120_000);

  it('names a missing job and a function that answered the last call with an error', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      // As if a deploy lacked a job and a function had answered 500 to the scheduler's last call.
      await client.query(`select cron.unschedule('upload-cleanup')`);
      const job = await client.query<{ jobid: number }>(
        `select jobid from cron.job where jobname = 'open-data'`,
      );
      await client.query(
        `insert into cron.job_run_details (jobid, status, return_message, start_time, end_time)
         values ($1, 'succeeded', '1 row', now(), now())`,
        [job.rows[0].jobid],
      );
      const id = -1 - Math.floor(Math.random() * 1e9);
      await client.query(
        `insert into private.edge_function_calls (request_id, function_name, called_at)
         values ($1, 'open-data', now() + interval '1 minute')`,
        [id],
      );
      await client.query(
        `insert into net._http_response (id, status_code, content, timed_out) values ($1, 500, '{"msg":"boom"}', false)`,
        [id],
      );
      await client.query('set local role service_role');
      const { rows } = await client.query<{ status: { jobs: ScheduledJob[] } }>(
        'select public.deployment_status() as status',
      );
      const { problems } = scheduleProblems(rows[0].status.jobs);
      expect(problems).toEqual([
        `open-data's function answered 500 {"msg":"boom"}`,
        'upload-cleanup is not scheduled (npx supabase db push)',
      ]);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('holds on: postgres — deployment_status is for the service role only', async () => {
    for (const role of ['anon', 'authenticated']) {
      const client = await pool.connect();
      try {
        await client.query(`set role ${role}`);
        await expect(client.query('select public.deployment_status()')).rejects.toThrow(/permission denied/);
      } finally {
        await client.query('reset role');
        client.release();
      }
    }
  });
});
