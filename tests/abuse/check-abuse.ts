/**
 * npm run check:abuse (issue 11): runs the floods of the adversarial test against a local stack at a
 * bounded rate and prints, per write path, how many calls were accepted and how many refused with 429.
 *
 *   npm run check:abuse                          # starts its own stack (test ports + STACK_PORT_OFFSET, default 480)
 *   npm run check:abuse -- --count 80 --rate 40  # calls per path, and calls per second at most
 *   CHECK_API_URL=... CHECK_ANON_KEY=... CHECK_SERVICE_ROLE_KEY=... CHECK_MAILPIT_URL=... npm run check:abuse
 *                                                # against a stack that is already running
 *
 * Each flood comes from a fresh public address in X-Forwarded-For (the local gateway's own hop is
 * loopback, which never counts) and, for signed-in paths, from one fresh account. Exits 1 when a path
 * accepted everything, i.e. has no limit, when a guessing path (codes by token hash, passwords) never
 * answered 429, or when registering a stranger's address delivered more than 5 e-mails to it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { BASE_JPEG } from '../../supabase/tests/image-corpus.ts';

interface Env {
  API_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  MAILPIT_URL: string;
}

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const COUNT = flag('count', 70);
const RATE = flag('rate', 40);

/** At most RATE calls per second across the whole run. */
let nextSlot = 0;
async function paced<T>(call: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const wait = Math.max(0, nextSlot - now);
  nextSlot = Math.max(now, nextSlot) + 1000 / RATE;
  if (wait) await new Promise((r) => setTimeout(r, wait));
  return call();
}

function address(): string {
  const b = randomBytes(4);
  return `2a02:${b.readUInt16BE(0).toString(16)}:${b.readUInt16BE(2).toString(16)}::1`;
}

interface Row {
  path: string;
  sent: number;
  accepted: number;
  refused: number;
  other: Record<string, number>;
  note?: string;
  /** A guessing path: its wrong guesses answer 4xx, so it must have refused some with 429. */
  mustRefuse?: boolean;
}

async function flood(path: string, count: number, call: (i: number) => Promise<Response>): Promise<Row> {
  const row: Row = { path, sent: 0, accepted: 0, refused: 0, other: {} };
  for (let i = 0; i < count; i++) {
    const res = await paced(() => call(i));
    await res.arrayBuffer();
    row.sent++;
    if (res.status === 429) row.refused++;
    else if (res.status < 300) row.accepted++;
    else row.other[res.status] = (row.other[res.status] ?? 0) + 1;
  }
  return row;
}

async function main() {
  let env: Env;
  let stop: (() => Promise<void>) | undefined;
  if (process.env.CHECK_API_URL) {
    env = {
      API_URL: process.env.CHECK_API_URL,
      ANON_KEY: process.env.CHECK_ANON_KEY ?? '',
      SERVICE_ROLE_KEY: process.env.CHECK_SERVICE_ROLE_KEY ?? '',
      MAILPIT_URL: process.env.CHECK_MAILPIT_URL ?? '',
    };
  } else {
    process.env.STACK_PORT_OFFSET ??= '480';
    const { projectTestConfig } = await import('../../supabase/project/index.ts');
    const { startStack } = await import('@scamcheck/local-supabase');
    const fs = await import('node:fs/promises');
    const config = projectTestConfig({ withApp: false });
    await fs.rm(config.dataDir, { recursive: true, force: true });
    console.log(`Starting a stack on port ${config.apiPort} ...`);
    const stack = await startStack(config, (line) => {
      if (/error|fail/i.test(line)) console.log(line);
    });
    env = stack.env as unknown as Env;
    stop = () => stack.stop();
  }

  const rest = (path: string, init: { method?: string; token?: string; xff: string; body?: unknown }) =>
    fetch(`${env.API_URL}/rest/v1/${path}`, {
      method: init.method ?? 'POST',
      headers: {
        apikey: env.ANON_KEY,
        authorization: `Bearer ${init.token ?? env.ANON_KEY}`,
        'content-type': 'application/json',
        'x-forwarded-for': init.xff,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const legacy = (method: string, path: string, init: { token?: string; xff: string; body?: unknown }) =>
    fetch(`${env.API_URL}/functions/v1/api/v1${path}`, {
      method,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        'content-type': 'application/json',
        'x-forwarded-for': init.xff,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const admin = (path: string, body: unknown) =>
    fetch(`${env.API_URL}${path}`, {
      method: 'POST',
      headers: {
        apikey: env.SERVICE_ROLE_KEY,
        authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  /** A fresh confirmed account and its access token. */
  async function account(): Promise<{ id: string; token: string; email: string }> {
    const email = `abuse-${randomBytes(5).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    const created = await admin('/auth/v1/admin/users', { email, password, email_confirm: true });
    const { id } = (await created.json()) as { id: string };
    const signIn = await fetch(`${env.API_URL}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: env.ANON_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { access_token } = (await signIn.json()) as { access_token: string };
    return { id, token: access_token, email };
  }

  /** Reports by the service role (accounts that no longer exist), for requests and notifications to point at. */
  async function reports(n: number, account: (i: number) => string): Promise<string[]> {
    const rows = Array.from({ length: n }, (_, i) => ({
      incident_date: '2026-01-01',
      incident_type: 'scam',
      reported_account_type: 'website',
      reported_account: account(i),
    }));
    const res = await fetch(`${env.API_URL}/rest/v1/reports?select=id`, {
      method: 'POST',
      headers: {
        apikey: env.SERVICE_ROLE_KEY,
        authorization: `Bearer ${env.SERVICE_ROLE_KEY}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
      body: JSON.stringify(rows),
    });
    return ((await res.json()) as { id: string }[]).map((r) => r.id);
  }

  const site = () => `abuse-${randomBytes(4).toString('hex')}.example`;
  const report = (account: string) => ({
    incident_date: '2026-01-01',
    incident_type: 'scam',
    reported_account_type: 'website',
    reported_account: account,
  });
  const rows: Row[] = [];
  const run = async (
    path: string,
    count: number,
    call: (i: number) => Promise<Response>,
    note?: string,
    mustRefuse = false,
  ) => {
    const row = await flood(path, count, call);
    row.note = note;
    row.mustRefuse = mustRefuse;
    rows.push(row);
    console.log(`  ${path}: ${row.accepted} accepted, ${row.refused} refused`);
  };

  console.log(`Flooding each write path with ${COUNT} calls at most ${RATE} per second ...`);
  // The Data API, as the app calls it.
  {
    const xff = address();
    await run('REST contact_messages (anon)', COUNT, (i) =>
      rest('contact_messages', { xff, body: { message: `flood ${i}` } }),
    );
  }
  {
    const xff = address();
    await run('REST rpc/search_reports (anon)', COUNT, (i) =>
      rest('rpc/search_reports', { xff, body: { search_string: `flood-${i}@example.com` } }),
    );
  }
  {
    const u = await account();
    await run('REST reports (one account)', COUNT, () =>
      rest('reports', { xff: address(), token: u.token, body: report(site()) }),
    );
  }
  {
    const u = await account();
    const s = site();
    await run(
      'REST reports, same identifier (one account)',
      Math.min(COUNT, 10),
      () =>
        rest('reports', {
          xff: address(),
          token: u.token,
          body: report(`https://${s}/p${randomBytes(2).toString('hex')}`),
        }),
      'duplicates answer 409',
    );
  }
  {
    const u = await account();
    const ids = await reports(COUNT, () => site());
    await run('REST removal_requests (one account)', COUNT, (i) =>
      rest('removal_requests', {
        xff: address(),
        token: u.token,
        body: { report_id: ids[i], requester_id: u.id, reason: 'flood', contact_email: 'victim@example.com' },
      }),
    );
    const [one] = await reports(1, () => site());
    const v = await account();
    await run(
      'REST removal_requests, same report (one account)',
      Math.min(COUNT, 10),
      () =>
        rest('removal_requests', {
          xff: address(),
          token: v.token,
          body: { report_id: one, requester_id: v.id, reason: 'again', contact_email: 'victim@example.com' },
        }),
      'a second open request answers 409',
    );
  }
  {
    const u = await account();
    await run('REST notify_registrations (one account)', COUNT, () =>
      rest('notify_registrations', {
        xff: address(),
        token: u.token,
        body: { user_id: u.id, asset_name: `${site()}` },
      }),
    );
  }
  // The legacy API and the visitor function.
  {
    const xff = address();
    await run('legacy POST /visitor/contact (anon)', COUNT, (i) =>
      legacy('POST', '/visitor/contact', { xff, body: { message: `flood ${i}`, email: 'a@example.com' } }),
    );
  }
  {
    const xff = address();
    await run('legacy GET /search/:s (anon)', COUNT, (i) =>
      legacy('GET', `/search/legacy-${i}@example.com`, { xff }),
    );
  }
  {
    const xff = address();
    await run('legacy GET /visitor (anon)', COUNT, () => legacy('GET', '/visitor', { xff }));
  }
  {
    const xff = address();
    await run('function visitor (anon)', COUNT, () =>
      fetch(`${env.API_URL}/functions/v1/visitor`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${env.ANON_KEY}`,
          'content-type': 'application/json',
          'x-forwarded-for': xff,
        },
        body: '{"path":"/"}',
      }),
    );
  }
  {
    const u = await account();
    await run('legacy POST /reports (one account)', Math.min(COUNT, 40), () =>
      legacy('POST', '/reports', {
        xff: address(),
        token: u.token,
        body: {
          incidentDate: '2026-01-01',
          incidentType: 'scam',
          reportedAccountType: 'website',
          reportedAccount: site(),
          consentToContact: 'yes',
        },
      }),
    );
  }
  {
    const u = await account();
    const ids = await reports(Math.min(COUNT, 20), () => site());
    await run('legacy POST /removal-requests (one account)', ids.length, (i) =>
      legacy('POST', '/removal-requests', {
        xff: address(),
        token: u.token,
        body: { reportId: ids[i], reason: 'flood', contactEmail: 'victim@example.com' },
      }),
    );
  }
  {
    const u = await account();
    await run('legacy POST /notify (one account)', Math.min(COUNT, 40), () =>
      legacy('POST', '/notify', { xff: address(), token: u.token, body: { assetName: site() } }),
    );
  }

  // Issue 28: guessing codes and passwords, uploads, and a stranger's mailbox.
  {
    const xff = address();
    const hash = () => createHash('sha224').update(randomBytes(16)).digest('hex');
    await run(
      'Auth POST /verify by token hash (one /64, new address each)',
      COUNT,
      (i) =>
        fetch(`${env.API_URL}/auth/v1/verify`, {
          method: 'POST',
          headers: {
            apikey: env.ANON_KEY,
            'content-type': 'application/json',
            'x-forwarded-for': xff.replace(/::1$/, `::${(i + 1).toString(16)}`),
          },
          body: JSON.stringify({ type: 'email', token_hash: hash() }),
        }),
      'wrong hashes answer 403',
      true,
    );
    const legacyXff = address();
    await run(
      'legacy GET /verify/{token hash} (one address)',
      COUNT,
      () =>
        legacy('GET', `/verify/${Buffer.from(`${hash()}.0123456789`).toString('base64')}`, {
          xff: legacyXff,
        }),
      'wrong hashes answer 400',
      true,
    );
  }
  {
    const u = await account();
    await run(
      'legacy POST /auth/login (one account, wrong passwords)',
      Math.min(COUNT, 30),
      (i) =>
        legacy('POST', '/auth/login', { xff: address(), body: { email: u.email, password: `guess ${i}` } }),
      'wrong passwords answer 401',
      true,
    );
  }
  {
    const u = await account();
    const jpeg = new Uint8Array(BASE_JPEG);
    await run('function upload-image (one account)', Math.min(COUNT, 40), () => {
      const body = new FormData();
      body.append('bucket', 'evidence');
      body.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'flood.jpg');
      return fetch(`${env.API_URL}/functions/v1/upload-image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}`, 'x-forwarded-for': address() },
        body,
      });
    });
  }
  let strangerMails = 0;
  {
    const stranger = `stranger-${randomBytes(5).toString('hex')}@example.com`;
    await run("legacy POST /auth/register (a stranger's address, 1 a second)", 8, async (i) => {
      if (i) await new Promise((r) => setTimeout(r, 1100));
      return legacy('POST', '/auth/register', {
        xff: address(),
        body: { name: 'Claim your prize at evil.example', email: stranger, password: 'long enough pw' },
      });
    });
    if (env.MAILPIT_URL) {
      await new Promise((r) => setTimeout(r, 1000));
      const list = (await (
        await fetch(`${env.MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:${stranger}`)}`)
      ).json()) as { messages: unknown[] };
      strangerMails = list.messages.length;
    }
  }

  // Notification flood: one watcher, many reports by other accounts, then the dispatch job.
  let mails = 0;
  const watcher = await account();
  const watched = site();
  await rest('notify_registrations', {
    xff: address(),
    token: watcher.token,
    body: { user_id: watcher.id, asset_name: watched },
  });
  const flooded = 30;
  await reports(flooded, (i) => `https://${watched}/offer-${i}`);
  await fetch(`${env.API_URL}/functions/v1/notify-dispatch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.SERVICE_ROLE_KEY}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (env.MAILPIT_URL) {
    const list = (await (
      await fetch(`${env.MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:${watcher.email}`)}`)
    ).json()) as { messages: unknown[] };
    mails = list.messages.length;
  }
  console.log(
    `\nNotification flood: ${flooded} reports on one watched identifier -> ${mails} e-mails to the watcher`,
  );
  console.log(`Register flood: 8 registrations of one stranger's address -> ${strangerMails} e-mails to it`);

  const width = Math.max(...rows.map((r) => r.path.length));
  console.log(`\n${'write path'.padEnd(width)}  sent  accepted  refused(429)  other`);
  for (const r of rows) {
    const other = Object.entries(r.other)
      .map(([s, n]) => `${n}x${s}`)
      .join(' ');
    console.log(
      `${r.path.padEnd(width)}  ${String(r.sent).padStart(4)}  ${String(r.accepted).padStart(8)}  ${String(r.refused).padStart(12)}  ${other}${r.note ? `  (${r.note})` : ''}`,
    );
  }
  const open = rows.filter((r) => r.accepted === r.sent || (r.mustRefuse && r.refused === 0));
  if (strangerMails > 5) {
    console.log(`\nA stranger's mailbox got ${strangerMails} e-mails (at most 5 a day)`);
    process.exitCode = 1;
  }
  if (stop) await stop();
  if (open.length) {
    console.log(`\nNo limit on: ${open.map((r) => r.path).join(', ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nEvery write path was limited.');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
