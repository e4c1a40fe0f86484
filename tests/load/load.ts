/**
 * The load check of issue 12: public searches (REST `rpc/search_reports` and the legacy API's
 * `GET /api/v1/search/{q}`, half each; identifiers of every kind, some hot (reported, asked again and
 * again), most never seen before) plus report writes (signed-in users through `POST /api/v1/reports`,
 * multipart with an evidence photo), each at a fixed rate, then checks that every write answered 2xx is
 * in the database, whole and with its evidence object.
 *
 * Open loop: request i of a stream is due at start + i / rate and is sent then whether or not earlier
 * ones have answered, and its latency is counted from when it was due. A closed-loop tool (a fixed set of
 * connections, each waiting for its answer before the next request) sends less when the server slows down
 * and measures only the requests it managed to send: the "coordinated omission" that hides queueing.
 * HTTP goes through undici (Node's own HTTP client library) with a keep-alive pool; it costs the
 * generator far less CPU per request than fetch, which matters when it shares two cores with the stack.
 *
 * The product's rate limits stay as they are. The test stack trusts one proxy in front of it
 * (X-Forwarded-For), and the generator stands in for that proxy: every simulated visitor has its own
 * public address and every writer its own account and address, as a real crowd would, so the
 * per-address and per-user limits (search.ip 60/min, report.user 20/h, report.ip 30/h) are not what is
 * measured. 429 answers are counted and printed separately.
 */
import type pg from 'pg';
import { Pool } from 'undici';
import { BASE_JPEG } from '../../supabase/tests/image-corpus.ts';
import { clientAddress } from '../own-stack.ts';

export interface StreamStats {
  sent: number;
  answered: number;
  /** Answers per second over the run's duration. */
  rate: number;
  p50: number;
  p99: number;
  max: number;
  byStatus: Record<string, number>;
}

export interface LoadResult {
  seconds: number;
  rest: StreamStats;
  api: StreamStats;
  writes: StreamStats;
  fiveXx: number;
  tooMany: number;
  errors: number;
  acknowledged: number;
  lost: string[];
  damaged: string[];
  /** The first answers of each 5xx status, to tell a gateway timeout from an error the API named. */
  failures: string[];
  /** The seconds of the run (by when requests fell due) in which 1 % of the requests or more waited over a second. */
  slowSeconds: number[];
  /** Load average (1 min) of the machine before and after. */
  loadBefore: number;
  loadAfter: number;
}

interface Sample {
  latency: number;
  status: number | 'error';
  /** When the request fell due, in ms after the run's start. */
  due: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function stats(samples: Sample[], sent: number, seconds: number): StreamStats {
  const latencies = samples.map((s) => s.latency).sort((a, b) => a - b);
  const byStatus: Record<string, number> = {};
  for (const s of samples) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  return {
    sent,
    answered: samples.filter((s) => s.status !== 'error').length,
    rate: samples.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    byStatus,
  };
}

async function loadAverage(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  return Number((await readFile('/proc/loadavg', 'utf8')).split(' ')[0]);
}

const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

/** An identifier nobody searched or reported before, of a random kind. */
function freshIdentifier(): string {
  switch (Math.floor(Math.random() * 5)) {
    case 0:
      return `0917 ${digits(3)} ${digits(4)}`;
    case 1:
      return `+63 9${digits(2)} ${digits(3)} ${digits(4)}`;
    case 2:
      return `load${digits(8)}@example.com`;
    case 3:
      return `https://load-${digits(8)}.example.com/claim`;
    default:
      return `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}`;
  }
}

/** A multipart body as the app's report form sends it: the fields and one evidence photo. */
function reportForm(fields: Record<string, string>): { body: Buffer; type: string } {
  const boundary = `----load${digits(12)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="evidence"; filename="evidence.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    Buffer.from(BASE_JPEG),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Runs the load. `env` is the stack's status (API_URL, ANON_KEY, SERVICE_ROLE_KEY); `pool` a superuser pool
 * on its database for arranging users and checking writes.
 */
export async function runLoad(opts: {
  env: Record<string, string>;
  pool: pg.Pool;
  seconds: number;
  searchRate: number;
  writeRate: number;
  log?: (line: string) => void;
  /** Called (and awaited) right before the first request is due and after the last one is answered. */
  onStart?: () => Promise<void>;
  onEnd?: () => Promise<void>;
}): Promise<LoadResult> {
  const log = opts.log ?? (() => undefined);
  const api = new URL(opts.env.API_URL);
  const http = new Pool(api.origin, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
  const anon = { apikey: opts.env.ANON_KEY, authorization: `Bearer ${opts.env.ANON_KEY}` };
  const service = { apikey: opts.env.SERVICE_ROLE_KEY, authorization: `Bearer ${opts.env.SERVICE_ROLE_KEY}` };
  const run = `${Date.now().toString(36)}${digits(4)}`;

  // Writers: report.user allows 20 an hour, so each account files at most 15 in the run.
  const totalWrites = Math.ceil(opts.writeRate * opts.seconds);
  const writerCount = Math.max(2, Math.ceil(totalWrites / 15));
  log(`creating ${writerCount} signed-in writers...`);
  const writers: { id: string; token: string; address: string }[] = [];
  for (let batch = 0; batch < writerCount; batch += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, writerCount - batch) }, async (_, j) => {
        const n = batch + j;
        const email = `load-${run}-${n}@example.com`;
        const password = `load test password ${run}`;
        const address = clientAddress(200_000 + n);
        const created = await http.request({
          method: 'POST',
          path: '/auth/v1/admin/users',
          headers: { ...service, 'content-type': 'application/json' },
          body: JSON.stringify({
            email,
            password,
            email_confirm: true,
            user_metadata: { name: `Load ${n}` },
          }),
        });
        const user = (await created.body.json()) as { id?: string };
        if (created.statusCode !== 200 || !user.id)
          throw new Error(`creating a writer: ${created.statusCode}`);
        const login = await http.request({
          method: 'POST',
          path: '/auth/v1/token?grant_type=password',
          headers: {
            apikey: opts.env.ANON_KEY,
            'content-type': 'application/json',
            'x-forwarded-for': address,
          },
          body: JSON.stringify({ email, password }),
        });
        const session = (await login.body.json()) as { access_token?: string };
        if (login.statusCode !== 200 || !session.access_token)
          throw new Error(`signing a writer in: ${login.statusCode}`);
        return { id: user.id, token: session.access_token, address };
      }),
    );
    writers.push(...made);
  }
  // Hot identifiers: reported ones (the seed's), searched over and over.
  const { rows: hot } = await opts.pool.query<{ reported_account: string }>(
    'select distinct reported_account from public.reports order by 1 limit 30',
  );
  const hotIds = hot.map((r) => r.reported_account);
  if (hotIds.length === 0) hotIds.push('0917 123 4567');

  const restSamples: Sample[] = [];
  const apiSamples: Sample[] = [];
  const writeSamples: Sample[] = [];
  const acked: { id: string; description: string }[] = [];
  let restSent = 0;
  let apiSent = 0;
  let writesSent = 0;
  let visitor = 0;
  let writeNo = 0;
  const inFlight = new Set<Promise<void>>();
  const failures: string[] = [];

  const send = (
    samples: Sample[],
    due: number,
    req: Parameters<Pool['request']>[0],
    onAnswer?: (status: number, text: string) => void,
  ) => {
    const p = (async () => {
      try {
        const res = await http.request({ ...req, headersTimeout: 60_000, bodyTimeout: 60_000 });
        const text = await res.body.text();
        samples.push({ latency: performance.now() - due, status: res.statusCode, due: due - start });
        if (res.statusCode >= 500 && failures.length < 10)
          failures.push(`${req.method} ${req.path.split('?')[0]}: ${res.statusCode} ${text.slice(0, 200)}`);
        onAnswer?.(res.statusCode, text);
      } catch {
        samples.push({ latency: performance.now() - due, status: 'error', due: due - start });
      }
    })();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const searchTerm = () =>
    Math.random() < 0.3 ? hotIds[Math.floor(Math.random() * hotIds.length)] : freshIdentifier();
  const fireSearch = (due: number) => {
    // a crowd: a new visitor address for every few searches (search.ip allows 60 a minute)
    const address = clientAddress(1 + (visitor++ % 50_000));
    if (restSent <= apiSent) {
      restSent++;
      send(restSamples, due, {
        method: 'POST',
        path: '/rest/v1/rpc/search_reports',
        headers: { ...anon, 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ search_string: searchTerm() }),
      });
    } else {
      apiSent++;
      send(apiSamples, due, {
        method: 'GET',
        path: `/functions/v1/api/v1/search/${encodeURIComponent(searchTerm())}`,
        headers: { 'x-forwarded-for': address },
      });
    }
  };
  const fireWrite = (due: number) => {
    const n = writeNo++;
    const writer = writers[n % writers.length];
    const description = `load ${run} write ${n}: asked for a GCash OTP to "verify" a prize.`;
    const form = reportForm({
      incidentDate: new Date().toISOString().slice(0, 10),
      incidentType: 'scam',
      reportedAccountType: 'mobile no.',
      reportedAccount: `0917 ${digits(3)} ${digits(4)}`,
      consentToContact: 'yes',
      incidentDescription: description,
      location: 'Quezon City',
      loc: '14.6760,121.0437',
      country: 'PH',
      source: 'sms',
    });
    writesSent++;
    send(
      writeSamples,
      due,
      {
        method: 'POST',
        path: '/functions/v1/api/v1/reports',
        headers: {
          authorization: `Bearer ${writer.token}`,
          'content-type': form.type,
          'x-forwarded-for': writer.address,
        },
        body: form.body,
      },
      (status, text) => {
        if (status < 200 || status > 299) return;
        try {
          const body = JSON.parse(text) as { _id?: string; report?: { _id?: string } };
          const id = body._id ?? body.report?._id;
          if (id) acked.push({ id, description });
        } catch {
          // a 2xx without JSON: counted as not acknowledged
        }
      },
    );
  };

  const loadBefore = await loadAverage();
  log(
    `load average ${loadBefore}; ${opts.searchRate} searches/s + ${opts.writeRate} writes/s for ${opts.seconds} s`,
  );
  await opts.onStart?.();
  const start = performance.now();
  const end = start + opts.seconds * 1000;
  let nextSearch = 0;
  let nextWrite = 0;
  // The schedule: every request is due at a fixed time; a late timer sends everything that has fallen due.
  while (performance.now() < end) {
    const now = performance.now();
    while (
      start + (nextSearch * 1000) / opts.searchRate <= now &&
      nextSearch < opts.searchRate * opts.seconds
    )
      fireSearch(start + (nextSearch++ * 1000) / opts.searchRate);
    while (start + (nextWrite * 1000) / opts.writeRate <= now && nextWrite < totalWrites)
      fireWrite(start + (nextWrite++ * 1000) / opts.writeRate);
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all([...inFlight]);
  const seconds = (performance.now() - start) / 1000;
  await opts.onEnd?.();
  const loadAfter = await loadAverage();
  await http.close();

  // Every acknowledged write is there, with its text and its evidence object.
  const { rows } = await opts.pool.query<{ id: string; incident_description: string; has_object: boolean }>(
    `select r.id, r.incident_description,
            exists (select 1 from storage.objects o where o.bucket_id = 'evidence' and o.name = r.evidence_path) as has_object
       from public.reports r where r.reporter_id = any($1::uuid[])`,
    [writers.map((w) => w.id)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const lost = acked.filter((a) => !byId.has(a.id)).map((a) => a.id);
  const damaged = acked
    .filter(
      (a) =>
        byId.has(a.id) &&
        (byId.get(a.id)!.incident_description !== a.description || !byId.get(a.id)!.has_object),
    )
    .map((a) => a.id);

  const all = [...restSamples, ...apiSamples, ...writeSamples];
  return {
    slowSeconds: slowSeconds(all),
    seconds,
    rest: stats(restSamples, restSent, seconds),
    api: stats(apiSamples, apiSent, seconds),
    writes: stats(writeSamples, writesSent, seconds),
    fiveXx: all.filter((s) => typeof s.status === 'number' && s.status >= 500).length,
    tooMany: all.filter((s) => s.status === 429).length,
    errors: all.filter((s) => s.status === 'error').length,
    acknowledged: acked.length,
    lost,
    damaged,
    failures,
    loadBefore,
    loadAfter,
  };
}

/** The seconds (by due time) whose p99 latency was over a second: when the tail's queues formed. */
function slowSeconds(samples: Sample[]): number[] {
  const bySecond = new Map<number, number[]>();
  for (const s of samples) {
    const second = Math.floor(s.due / 1000);
    const list = bySecond.get(second) ?? [];
    list.push(s.latency);
    bySecond.set(second, list);
  }
  return [...bySecond]
    .filter(
      ([, latencies]) =>
        quantile(
          latencies.sort((a, b) => a - b),
          0.99,
        ) > 1000,
    )
    .map(([second]) => second)
    .sort((a, b) => a - b);
}

/** Seconds as ranges: [0, 1, 2, 7] -> '0-2, 7'. */
function ranges(seconds: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < seconds.length;) {
    let j = i;
    while (j + 1 < seconds.length && seconds[j + 1] === seconds[j] + 1) j++;
    out.push(i === j ? `${seconds[i]}` : `${seconds[i]}-${seconds[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** The figures as lines for a terminal or a log. */
export function describeLoad(r: LoadResult): string[] {
  // A stream that sent nothing has no quantiles (NaN, which reaches a parent process as null).
  const ms = (x: number | null) => (x === null || Number.isNaN(x) ? '-' : x.toFixed(0));
  const line = (name: string, s: StreamStats) =>
    `${name.padEnd(26)} sent ${String(s.sent).padStart(6)}  answered ${String(s.answered).padStart(6)}  ${s.rate.toFixed(1).padStart(6)}/s  p50 ${ms(s.p50).padStart(5)} ms  p99 ${ms(s.p99).padStart(6)} ms  max ${ms(s.max).padStart(6)} ms  ${JSON.stringify(s.byStatus)}`;
  return [
    line('REST rpc/search_reports', r.rest),
    line('GET /api/v1/search/{q}', r.api),
    line('POST /api/v1/reports', r.writes),
    `searches ${((r.rest.answered + r.api.answered) / r.seconds).toFixed(1)}/s, writes ${(r.writes.answered / r.seconds).toFixed(1)}/s over ${r.seconds.toFixed(1)} s (latency counted from when each request was due)`,
    `5xx: ${r.fiveXx}; 429: ${r.tooMany}; no answer (connection error or 60 s timeout): ${r.errors}`,
    `seconds of the run in which 1 % of the requests or more waited over 1 s (by when they fell due): ${r.slowSeconds.length ? ranges(r.slowSeconds) : 'none'}`,
    ...r.failures.map((f) => `  ${f}`),
    `writes acknowledged 2xx: ${r.acknowledged}; lost: ${r.lost.length}; damaged or without evidence: ${r.damaged.length}`,
    `load average (1 min): ${r.loadBefore} before, ${r.loadAfter} after`,
  ];
}
