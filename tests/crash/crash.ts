/**
 * The crash test of issue 12: a durable stack (as `npm start` runs it) takes reports with evidence
 * through the legacy API from several signed-in users while Postgres is killed with SIGKILL, all its
 * processes at once, round after round. The stack starts Postgres again (crash recovery). At the end,
 * every report whose request was answered 2xx must be there, whole (its fields as sent) and with its
 * evidence object readable, and no report may point at evidence that is not stored.
 *
 * `npm run check:crash` runs 20 rounds; the vitest file beside it runs a short version in `npm test`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  postgresDataDir,
  type RunningStack,
  type StackConfig,
  startStack,
  statusEnv,
  testDataDir,
  testPorts,
} from '@scamcheck/local-supabase';
import { projectTestConfig } from '../../supabase/project/index.ts';
import { childPids } from '../bench/load.ts';

export interface CrashResult {
  rounds: number;
  attempted: number;
  acknowledged: number;
  refused: number;
  lost: string[];
  damaged: string[];
  dangling: number;
  seconds: number;
  /** Answers other than 2xx, by status ('network' for a cut connection). */
  statuses: Record<string, number>;
}

interface Ack {
  id: string;
  account: string;
  description: string;
}

function postmasterPid(config: StackConfig): number {
  return Number(
    readFileSync(path.join(postgresDataDir(config.dataDir), 'postmaster.pid'), 'utf8').split('\n')[0],
  );
}

async function waitForDatabase(url: string, timeoutMs = 60_000) {
  const began = Date.now();
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() - began > timeoutMs) throw new Error('Postgres did not come back within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function runCrashTest(opts: {
  rounds: number;
  writers?: number;
  offset?: number;
  durable?: boolean;
  log?: (l: string) => void;
}): Promise<CrashResult> {
  const log = opts.log ?? (() => undefined);
  const offset = opts.offset ?? Number(process.env.STACK_PORT_OFFSET ?? 0) + 80;
  const config = projectTestConfig({
    ...testPorts(offset),
    dataDir: testDataDir(offset),
    durable: opts.durable ?? true,
    verbose: false,
  });
  const began = Date.now();
  const stack: RunningStack = await startStack(config, () => undefined);
  const env = statusEnv(config);
  // The helpers of the function tests read the stack's address and keys from these variables.
  for (const [k, v] of Object.entries(env)) process.env[`STACK_${k}`] = v;
  const { createUser, formOf, reportFields, tinyJpeg } =
    await import('../../supabase/tests/functions/helpers.ts');
  const admin = new pg.Pool({ connectionString: env.DB_URL, max: 2 });
  admin.on('error', () => undefined);
  try {
    // The test files reports far faster than the product's per-user and per-address limits allow.
    await admin.query('update private.rate_limits set max_calls = 100000000');
    const users = await Promise.all(Array.from({ length: opts.writers ?? 4 }, () => createUser('crash')));
    const acked: Ack[] = [];
    let attempted = 0;
    let refused = 0;
    const statuses: Record<string, number> = {};
    let writing = true;
    const writer = async (token: string, n: number) => {
      for (let i = 0; writing; i++) {
        const fields = reportFields({
          incidentDescription: `crash test ${n}.${i} ${Math.random().toString(36).slice(2)}`,
        });
        attempted++;
        try {
          const res = await fetch(`${env.API_URL}/functions/v1/api/v1/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}` },
            body: formOf(fields, {
              field: 'evidence',
              bytes: tinyJpeg(),
              name: 'evidence.jpg',
              type: 'image/jpeg',
            }),
            signal: AbortSignal.timeout(30_000),
          });
          const body = (await res.json().catch(() => ({}))) as { _id?: string; report?: { _id?: string } };
          const id = body._id ?? body.report?._id;
          if (res.status >= 200 && res.status < 300 && id)
            acked.push({ id, account: fields.reportedAccount, description: fields.incidentDescription });
          else {
            refused++;
            statuses[res.status] = (statuses[res.status] ?? 0) + 1;
            await new Promise((r) => setTimeout(r, 100));
          }
        } catch {
          statuses.network = (statuses.network ?? 0) + 1;
          refused++;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const writers = users.map((u, n) => writer(u.token, n));
    for (let round = 1; round <= opts.rounds; round++) {
      await new Promise((r) => setTimeout(r, 700 + Math.random() * 800));
      const pid = postmasterPid(config);
      const before = acked.length;
      for (const p of [pid, ...childPids(pid)]) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await waitForDatabase(env.DB_URL);
      log(
        `round ${round}: killed Postgres ${pid} with SIGKILL after ${before} acknowledged reports; it is back`,
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
    writing = false;
    await Promise.all(writers);

    const { rows } = await admin.query<{
      id: string;
      reported_account: string;
      incident_description: string;
      evidence_path: string | null;
      has_object: boolean;
    }>(
      `select r.id, r.reported_account, r.incident_description, r.evidence_path,
              exists (select 1 from storage.objects o where o.bucket_id = 'evidence' and o.name = r.evidence_path) as has_object
         from public.reports r where r.reporter_id = any($1::uuid[])`,
      [users.map((u) => u.id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const lost: string[] = [];
    const damaged: string[] = [];
    for (const a of acked) {
      const row = byId.get(a.id);
      if (!row) lost.push(a.id);
      else if (row.incident_description !== a.description || !row.evidence_path || !row.has_object)
        damaged.push(a.id);
    }
    // Every stored evidence object of an acknowledged report must be readable with its bytes.
    for (const a of acked.slice(-20)) {
      const row = byId.get(a.id);
      if (!row?.evidence_path) continue;
      const res = await fetch(`${env.API_URL}/storage/v1/object/evidence/${row.evidence_path}`, {
        headers: { apikey: env.SERVICE_ROLE_KEY, authorization: `Bearer ${env.SERVICE_ROLE_KEY}` },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || bytes[0] !== 0xff || bytes[1] !== 0xd8)
        damaged.push(`${a.id} (evidence unreadable: ${res.status})`);
    }
    const dangling = rows.filter((r) => r.evidence_path && !r.has_object).length;
    return {
      rounds: opts.rounds,
      statuses,
      attempted,
      acknowledged: acked.length,
      refused,
      lost,
      damaged,
      dangling,
      seconds: (Date.now() - began) / 1000,
    };
  } finally {
    await admin.end().catch(() => undefined);
    await stack.stop();
  }
}
