/**
 * `npm run check:hosted -- --url https://<ref>.supabase.co --anon-key <anon> --service-role-key <service_role>`
 * (or SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY): the smoke suite an operator runs after
 * deploying (docs/deploying.md, step 6). It uses the project as its users and the scheduler do, through
 * its public URL only:
 *
 * - the functions are up and configured (`health`), the statistics page's call, a search;
 * - an account (made with the service role, confirmed, no e-mail sent) signs in through the legacy API;
 * - it files a report with evidence as the app does (image through `upload-image`, the row through the
 *   Data API, its location set by `visitor` from the caller's address) and reads both back;
 * - a Notify Me registration through the legacy API, listed and deleted again;
 * - the legacy range lookup, with its ETag and 304;
 * - the location data (`public.locate_address` for a Philippine and a foreign address);
 * - each scheduled job (`public.deployment_status`): present, active, its last run and the answer its
 *   function gave to the last call.
 *
 * Everything it makes is deleted at the end (report, image, registration, account); the searches stay
 * in the search log like anyone's. A job that has not run yet is said, not failed (a new project's
 * hourly jobs have not). Exit code 1 when any step failed. CI runs it against the local stack
 * (check-hosted.test.ts), so it stays true to what the project serves.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import WebSocket from 'ws';

// Node 20 has no global WebSocket, which supabase-js needs to construct its (unused here) realtime client.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

export interface HostedTarget {
  /** The project URL, https://<ref>.supabase.co (or the local stack's API URL). */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /**
   * Sent as X-Forwarded-For on every request. Only for the local stack, which trusts one proxy and
   * shares its rate limits among tests; on hosted the caller's own address counts.
   */
  clientAddress?: string;
}

export interface StepResult {
  step: string;
  ok: boolean;
  /** What was seen, or why it failed. */
  detail: string;
  ms: number;
}

/** The pg_cron jobs the migrations schedule (supabase/migrations/*_scheduled_jobs.sql). */
export const SCHEDULED_JOBS = ['notify-dispatch', 'open-data', 'removal-expiry', 'upload-cleanup'];

/** A Philippine address (Quezon City in the GeoLite2 data) and a foreign one, for the location lookup. */
const PH_ADDRESS = '202.90.128.1';
const FOREIGN_ADDRESS = '8.8.8.8';

class StepFailure extends Error {}
function expectThat(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StepFailure(message);
}

/** A valid 8 x 8 PNG (a colour ramp), built here so the check needs no file. */
export function smallPng(): Uint8Array<ArrayBuffer> {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  const chunk = (type: string, data: Uint8Array | number[]) => {
    const body = Uint8Array.from([...Buffer.from(type, 'latin1'), ...data]);
    return [...u32(data.length), ...body, ...u32(crc(body))];
  };
  const rows: number[] = [];
  for (let y = 0; y < 8; y++) {
    rows.push(0);
    for (let x = 0; x < 8; x++) rows.push(x * 30, y * 30, 120);
  }
  return Uint8Array.from([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk('IHDR', [...u32(8), ...u32(8), 8, 2, 0, 0, 0]),
    ...chunk('IDAT', [...deflateSync(Uint8Array.from(rows))]),
    ...chunk('IEND', []),
  ]);
}

/** Runs every step; never throws for a step's failure (it is a result). */
export async function checkHosted(
  target: HostedTarget,
  log: (line: string) => void = () => undefined,
): Promise<StepResult[]> {
  const base = target.url.replace(/\/+$/, '');
  const fn = (name: string) => `${base}/functions/v1/${name}`;
  const forwarded: Record<string, string> = target.clientAddress
    ? { 'x-forwarded-for': target.clientAddress }
    : {};
  const fetchAs: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(forwarded)) headers.set(k, v);
    return fetch(input, { ...init, headers });
  };
  const clientOptions = {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { fetch: fetchAs },
    realtime: { transport: WebSocket as unknown as Transport },
  };
  const anon = createClient(base, target.anonKey, clientOptions);
  const service = createClient(base, target.serviceRoleKey, clientOptions);
  const anonHeaders = { apikey: target.anonKey, authorization: `Bearer ${target.anonKey}` };

  const results: StepResult[] = [];
  /** Runs one step; `needs` are what earlier steps made: if one is missing the step is not run. */
  async function step(name: string, run: () => Promise<string>, needs: unknown[] = []): Promise<void> {
    const started = Date.now();
    let result: StepResult;
    if (needs.some((n) => n === undefined)) {
      result = { step: name, ok: false, detail: 'not run: an earlier step it needs failed', ms: 0 };
      results.push(result);
      log(`FAIL ${name}: ${result.detail}`);
      return;
    }
    try {
      result = { step: name, ok: true, detail: await run(), ms: Date.now() - started };
    } catch (e) {
      const detail = e instanceof StepFailure ? e.message : `${(e as Error).message ?? e}`;
      result = { step: name, ok: false, detail, ms: Date.now() - started };
    }
    results.push(result);
    log(`${result.ok ? 'ok  ' : 'FAIL'} ${name} (${result.ms} ms): ${result.detail}`);
  }

  /** A function's JSON answer and status; the steps check the answer's fields one by one. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(url: string, init: RequestInit): Promise<{ status: number; body: any; res: Response }> {
    const res = await fetchAs(url, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the message
    }
    return { status: res.status, body, res };
  }
  const said = (a: { status: number; body: unknown }) =>
    `${a.status} ${JSON.stringify(a.body).slice(0, 300)}`;

  const tag = randomBytes(6).toString('hex');
  // A reserved domain (RFC 2606): nothing is ever delivered to it, and nobody's identifier is touched.
  const identifier = `check-hosted-${tag}@example.com`;
  const account = {
    email: `check-hosted-account-${tag}@example.com`,
    password: randomBytes(18).toString('base64url'),
  };
  let userId: string | undefined;
  let token: string | undefined;
  let reportId: string | undefined;
  let evidencePath: string | undefined;

  try {
    await step('functions are up and configured (health)', async () => {
      const a = await call(fn('health'), { headers: anonHeaders });
      expectThat(a.status === 200, `health answered ${said(a)}`);
      const b = a.body as Record<string, unknown>;
      const missing = ['hasAnonKey', 'hasServiceRoleKey', 'hasDbUrl'].filter((k) => b[k] !== true);
      expectThat(missing.length === 0, `the functions lack ${missing.join(', ')}`);
      return `SUPABASE_URL ${String(b.supabaseUrl)}`;
    });

    await step('statistics (public.public_statistics as a visitor)', async () => {
      const { data, error } = await anon.rpc('public_statistics', { period: 'last_30_days' });
      expectThat(!error, `public_statistics failed: ${error?.message}`);
      const d = data as Record<string, unknown> | null;
      expectThat(d && d.period === 'last_30_days', `unexpected answer ${JSON.stringify(data).slice(0, 200)}`);
      return `answered for ${String(d.period)}`;
    });

    await step('search as a visitor (search function)', async () => {
      const a = await call(fn('search'), {
        method: 'POST',
        headers: { ...anonHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ searchString: identifier }),
      });
      expectThat(a.status === 200, `search answered ${said(a)}`);
      expectThat(
        typeof a.body?.count === 'number' && Array.isArray(a.body?.reports) && a.body?.summary,
        `search answer has an unexpected shape: ${said(a)}`,
      );
      expectThat(a.body.count === 0, `a new identifier has ${a.body.count} reports`);
      return `risk ${a.body.summary.risk_label}, ${a.body.count} reports`;
    });

    await step('an account (service role; confirmed, no e-mail)', async () => {
      const { data, error } = await service.auth.admin.createUser({
        email: account.email,
        password: account.password,
        email_confirm: true,
        user_metadata: { name: 'check:hosted' },
      });
      expectThat(!error && data.user, `creating the account failed: ${error?.message}`);
      userId = data.user.id;
      return account.email;
    });

    await step(
      'legacy login (POST /api/v1/auth/login)',
      async () => {
        const a = await call(fn('api/v1/auth/login'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: account.email, password: account.password }),
        });
        expectThat(a.status === 200 && typeof a.body?.token === 'string', `login answered ${said(a)}`);
        token = a.body.token as string;
        return `token for ${a.body.user?.email ?? account.email}`;
      },
      [userId],
    );

    const asUser = (): SupabaseClient =>
      createClient(base, target.anonKey, { ...clientOptions, accessToken: async () => token! });

    await step(
      'a report with evidence (upload-image, Data API, visitor)',
      async () => {
        const form = new FormData();
        form.append('bucket', 'evidence');
        form.append('file', new Blob([smallPng()], { type: 'image/png' }), 'evidence.png');
        const up = await call(fn('upload-image'), {
          method: 'POST',
          headers: { apikey: target.anonKey, authorization: `Bearer ${token}` },
          body: form,
        });
        expectThat(
          up.status === 201 && typeof up.body?.path === 'string',
          `upload-image answered ${said(up)}`,
        );
        evidencePath = up.body.path as string;
        const user = asUser();
        const { data, error } = await user
          .from('reports')
          .insert({
            reporter_id: userId!,
            incident_date: new Date().toISOString().slice(0, 10),
            incident_type: 'scam',
            reported_account_type: 'email',
            reported_account: identifier,
            consent_to_contact: false,
            incident_description: 'A smoke test of the deployment (npm run check:hosted); deleted at once.',
            evidence_path: evidencePath,
            source: 'dashboard',
          } as never)
          .select('id')
          .single();
        expectThat(!error && data, `filing the report failed: ${error?.message}`);
        reportId = (data as { id: string }).id;
        const located = await call(fn('visitor'), {
          method: 'POST',
          headers: {
            apikey: target.anonKey,
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ paths: [], report: reportId }),
        });
        expectThat(located.status === 200 || located.status === 201, `visitor answered ${said(located)}`);
        const back = await user
          .from('reports')
          .select('id, status, evidence_path')
          .eq('id', reportId)
          .single();
        expectThat(
          !back.error && back.data?.evidence_path === evidencePath,
          `reading the report back failed: ${back.error?.message}`,
        );
        const image = await user.storage.from('evidence').download(evidencePath);
        expectThat(
          !image.error && image.data.size > 0,
          `reading the evidence back failed: ${image.error?.message}`,
        );
        return `report ${reportId} (${back.data.status}), evidence ${image.data.size} bytes, located from this address: ${located.body?.reportLocated === true ? 'yes' : 'no'}`;
      },
      [token],
    );

    await step(
      'Notify Me registration (POST, GET, DELETE /api/v1/notify)',
      async () => {
        const auth = { authorization: `Bearer ${token}` };
        const post = await call(fn('api/v1/notify'), {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ assetName: identifier }),
        });
        expectThat(post.status === 201, `registering answered ${said(post)}`);
        const list = await call(fn('api/v1/notify'), { headers: auth });
        const mine = (list.body?.assets ?? []).find(
          (r: { assetName?: string }) => r.assetName === identifier,
        );
        expectThat(list.status === 200 && mine, `the registration is not listed: ${said(list)}`);
        const del = await call(fn(`api/v1/notify/${mine._id}`), { method: 'DELETE', headers: auth });
        expectThat(del.status === 200, `deleting the registration answered ${said(del)}`);
        return `registered, listed as ${mine.canonical ?? identifier}, deleted`;
      },
      [token],
    );

    await step('range lookup (GET /api/v1/range/{prefix}, ETag and 304)', async () => {
      const url = fn(`api/v1/range/${randomBytes(3).toString('hex').slice(0, 5)}`);
      const a = await call(url, {});
      expectThat(a.status === 200 && Array.isArray(a.body?.entries), `range answered ${said(a)}`);
      const etag = a.res.headers.get('etag');
      expectThat(etag, 'the range answer has no ETag');
      const again = await call(url, { headers: { 'if-none-match': etag } });
      expectThat(again.status === 304, `the same range with its ETag answered ${again.status}, not 304`);
      return `${a.body.entries.length} entries (padded), 304 on its ETag`;
    });

    await step('location data (public.locate_address)', async () => {
      const status = await service.rpc('deployment_status');
      expectThat(!status.error, `deployment_status failed: ${status.error?.message}`);
      const loaded = (status.data as { locations: { version: string; rows: number } | null }).locations;
      expectThat(
        loaded,
        'no location data: run npm run locations:load -- <database URL> (docs/deploying.md step 3)',
      );
      const ph = await service.rpc('locate_address', { address: PH_ADDRESS });
      const row = (ph.data as { city: string | null; country: string; loc: string | null }[] | null)?.[0];
      expectThat(
        !ph.error && row?.country === 'PH' && row.city && row.loc,
        `${PH_ADDRESS} located as ${JSON.stringify(ph.data ?? ph.error?.message)}`,
      );
      const foreign = await service.rpc('locate_address', { address: FOREIGN_ADDRESS });
      const other = (foreign.data as { country: string }[] | null)?.[0];
      expectThat(
        !foreign.error && other?.country && other.country !== 'PH',
        `${FOREIGN_ADDRESS} located as ${JSON.stringify(foreign.data ?? foreign.error?.message)}`,
      );
      return `${loaded.rows} ranges (${loaded.version}); ${PH_ADDRESS} in ${row.city}, ${FOREIGN_ADDRESS} in ${other.country}`;
    });

    await step('scheduled jobs (pg_cron, pg_net, Vault)', async () => {
      const { data, error } = await service.rpc('deployment_status');
      expectThat(!error, `deployment_status failed: ${error?.message}`);
      const { problems, notes } = scheduleProblems((data as { jobs: ScheduledJob[] }).jobs);
      expectThat(problems.length === 0, problems.join('; '));
      return notes.join('; ');
    });
  } finally {
    await step('clean up (report, evidence, account)', async () => {
      const left: string[] = [];
      if (reportId) {
        const { error } = await service.from('reports').delete().eq('id', reportId);
        if (error) left.push(`report ${reportId}: ${error.message}`);
      }
      if (evidencePath) {
        const { error } = await service.storage.from('evidence').remove([evidencePath]);
        if (error) left.push(`evidence ${evidencePath}: ${error.message}`);
      }
      if (userId) {
        const { error } = await service.auth.admin.deleteUser(userId);
        if (error) left.push(`account ${account.email}: ${error.message}`);
      }
      expectThat(left.length === 0, `left behind: ${left.join('; ')}`);
      return userId ? 'deleted what the check made' : 'nothing to delete';
    });
  }
  return results;
}

/** One job of public.deployment_status(). */
export interface ScheduledJob {
  jobname: string;
  schedule: string;
  active: boolean;
  last_run: { status: string; start: string; message: string | null } | null;
  last_call: {
    at: string;
    status_code: number | null;
    timed_out: boolean | null;
    error: string | null;
    body: string | null;
  } | null;
}

/**
 * What is wrong with the schedules: a job missing or inactive, a last run that failed, a function that
 * answered the last call with an error. A job that has not run yet, or whose call has no answer yet,
 * is a note: a new project's hourly jobs have not run.
 */
export function scheduleProblems(jobs: ScheduledJob[]): { problems: string[]; notes: string[] } {
  const notes: string[] = [];
  const problems: string[] = [];
  for (const name of SCHEDULED_JOBS) {
    const job = jobs.find((j) => j.jobname === name);
    if (!job) {
      problems.push(`${name} is not scheduled (npx supabase db push)`);
      continue;
    }
    if (!job.active) problems.push(`${name} is not active`);
    if (!job.last_run) {
      notes.push(`${name}: not run yet (${job.schedule})`);
      continue;
    }
    if (job.last_run.status === 'failed')
      problems.push(`${name}'s last run failed: ${job.last_run.message ?? 'no message'}`);
    const c = job.last_call;
    if (!c) notes.push(`${name}: ran ${job.last_run.start}, no answer yet`);
    else if (c.timed_out || c.error || c.status_code === null || c.status_code < 200 || c.status_code > 299)
      problems.push(
        `${name}'s function answered ${c.status_code ?? (c.timed_out ? 'nothing in time' : c.error)} ${c.body ?? ''}`.trim(),
      );
    else notes.push(`${name}: ${c.status_code} at ${c.at}`);
  }
  return { problems, notes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const value = (flag: string, env: string) => {
    const i = args.indexOf(flag);
    return (i >= 0 ? args[i + 1] : undefined) ?? process.env[env];
  };
  const target = {
    url: value('--url', 'SUPABASE_URL'),
    anonKey: value('--anon-key', 'SUPABASE_ANON_KEY'),
    serviceRoleKey: value('--service-role-key', 'SUPABASE_SERVICE_ROLE_KEY'),
  };
  const missing = Object.entries({
    '--url': target.url,
    '--anon-key': target.anonKey,
    '--service-role-key': target.serviceRoleKey,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) {
    console.error(
      `check:hosted needs ${missing.join(', ')} (or SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY):\n` +
        '  npm run check:hosted -- --url https://<ref>.supabase.co --anon-key <anon key> --service-role-key <service_role key>',
    );
    process.exitCode = 2;
  } else {
    const started = Date.now();
    checkHosted(target as HostedTarget, (line) => console.log(line))
      .then((results) => {
        const failed = results.filter((r) => !r.ok).length;
        console.log(
          `check:hosted: ${results.length - failed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
        process.exitCode = failed ? 1 : 0;
      })
      .catch((e) => {
        console.error(`check:hosted could not run: ${(e as Error).stack}`);
        process.exitCode = 2;
      });
  }
}
