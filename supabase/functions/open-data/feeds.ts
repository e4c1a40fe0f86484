/**
 * The threat-intelligence feeds' part of the hourly open-data job (issue 34, docs/feeds.md), in steps
 * that each fit hosted Edge Functions' 2 s of CPU per request (private.feed_build keeps the step):
 *   1. begin: Postgres aggregates again the identifiers whose verified reports changed since the last
 *      build (a queue triggers on public.reports fill), or, once a day, every one
 *      (public.feed_build_start): these are the build's changes;
 *   2. classify: only changed identifiers never classified, or classified under other rules, are
 *      read and classified here (_shared/feeds/classify.ts, the brand look-alike check), in batches
 *      from a cursor, and kept (public.feed_classify_changes / feed_classify_store);
 *   3. sync: Postgres syncs the changed identifiers' feed items from the aggregates and the classes
 *      (public.feed_sync_changes);
 *      TAXII (api function) serves them from there. XARF takedown reports are drafted for newly listed
 *      links, and approved ones sent when sending is on;
 *   4. render: items whose version changed get their CSV line, JSON row, MISP attribute and STIX
 *      indicator rendered by Postgres (public.feed_render_sql, the bytes _shared/feeds/formats.ts
 *      renderItem makes), in batches from a cursor;
 *   5. publish: Postgres assembles each file whose items changed from those fragments, with its
 *      SHA-256 (public.feed_file_body); this function passes the bytes on to the public `feeds` bucket
 *      (TLP:CLEAR) or the private `feeds-partner` bucket (TLP:AMBER), and deletes files no longer built.
 * A request stops taking new work once it has used CPU_BUDGET_MS of CPU, and queues the next request
 * through pg_net (private.call_edge_function), which goes on from the step it stopped at. An hourly
 * run that finds a build under way goes on with it. One request at a time works on the build (an
 * advisory lock); another answers busy.
 * The job uses one direct Postgres connection of its own (service-role entry points only, as
 * _shared/postgres.ts explains), with a longer statement timeout than the API's.
 */
import process from 'node:process';
import pg from 'npm:pg@8.23.1';
import { requireEnv, siteUrl } from '../_shared/env.ts';
import { fetchCheckRules, lookalikeBrand } from '../_shared/check-message.ts';
import type { SupabaseClient } from '../_shared/supabase.ts';
import { sendMail } from '../_shared/mail.ts';
import { Classifier, HOSTING_ROOTS, SHARED_HOSTS } from '../_shared/feeds/classify.ts';
import {
  BUCKET,
  formatKey,
  planFeedFiles,
  sha256Hex,
  type FeedItem,
  type FileGroup,
  type FilePlan,
} from '../_shared/feeds/formats.ts';
import { takedownCandidate, xarfReport, type TakedownDraft } from '../_shared/feeds/xarf.ts';

/** Takedown reports are drafted for links whose last verified report is this recent. */
const TAKEDOWN_RECENT_DAYS = 30;
/** At most this many drafts a run (a first run over years of reports would draft thousands). */
const TAKEDOWN_MAX_PER_RUN = 500;
/** Small files (a day's MISP event, a month's STIX bundle) are uploaded this many at once. */
const UPLOAD_CONCURRENCY = 8;
/** Files over this size are assembled and uploaded one at a time (the function has 256 MB). */
const BIG_FILE_ITEMS = 5000;
/**
 * CPU a request may use before it stops taking new work (hosted allows 2,000 ms). Each unit of work
 * after the check costs well under the rest: a batch of CLASSIFY_BATCH look-alike checks, a batch of
 * RENDER_BATCH items, or one whole-feed file passed on to Storage.
 */
export const CPU_BUDGET_MS = 700;
const CLASSIFY_BATCH = 2000;
/**
 * Wall time after which a request stops taking new work: Postgres's steps (render, assembling files)
 * use no CPU here, so without it one request could run past hosted's 150 s wall clock.
 */
const WALL_BUDGET_MS = 60_000;
/** Items public.feed_render_sql renders in one statement (Postgres's time, not the function's CPU). */
const RENDER_BATCH = 25000;
/** A chain of requests stops after this many (a build of 1M identifiers takes about 100). */
const MAX_REQUESTS = 400;
/** Bump when the classifier's rules change in code, so every identifier is classified again. */
const CLASSIFIER_VERSION = 1;

/** The rows of a query, typed (the pg client's own generics do not reach through Deno's npm types). */
async function rowsOf<T>(client: pg.Client, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query(sql, params)).rows as T[];
}

export type FeedStep = 'idle' | 'classify' | 'sync' | 'render' | 'publish';

export interface FeedOptions {
  /** Queue the next request through pg_net when the build is not finished (the scheduled runs). */
  chain: boolean;
  /** True for a request the job queued itself: it never starts a new build. */
  continuation: boolean;
  budgetMs: number;
  classifyBatch: number;
  renderBatch: number;
}

export const DEFAULT_FEED_OPTIONS: FeedOptions = {
  chain: true,
  continuation: false,
  budgetMs: CPU_BUDGET_MS,
  classifyBatch: CLASSIFY_BATCH,
  renderBatch: RENDER_BATCH,
};

export interface FeedRun {
  /** The step the build is at when this request ends ('idle': finished). */
  step: FeedStep;
  done: boolean;
  busy: boolean;
  /** Requests the build has taken so far, this one included. */
  requests: number;
  /** CPU this request used (process CPU time, or wall time where the runtime does not report it). */
  cpu_ms: number;
  candidates: number;
  /** Identifiers this build syncs (set by the request that started it). */
  changes?: number;
  /** True when the build aggregated every verified report (the first build, then once a day). */
  full?: boolean;
  classified: number;
  listed: { clear: number; amber: number };
  left_out: number;
  sync: { added: number; updated: number; withdrawn: number };
  rendered: number;
  files_written: number;
  files_unchanged: number;
  files_removed: number;
  takedowns_drafted: number;
  takedowns_sent: number;
  ms: Record<string, number>;
}

/**
 * The CPU this request has used, in ms: the process's CPU time (node:process cpuUsage, every thread:
 * at least the JavaScript thread's), or the wall time (never less than one thread's CPU time) where
 * the runtime reports none.
 */
function cpuClock(): () => number {
  const wall = performance.now();
  let start: { user: number; system: number } | null = null;
  try {
    start = process.cpuUsage();
  } catch {
    start = null;
  }
  return () => {
    const elapsed = performance.now() - wall;
    if (!start) return elapsed;
    const used = process.cpuUsage(start);
    const cpu = (used.user + used.system) / 1000;
    // A runtime that stubs cpuUsage reports nothing at all: count wall time then.
    return cpu === 0 && elapsed > 200 ? elapsed : cpu;
  };
}

/** The classifier's rules in a few characters: identifiers classified under others are classified again. */
function rulesKey(shared: string[]): string {
  return sha256Hex(
    JSON.stringify([
      CLASSIFIER_VERSION,
      [...SHARED_HOSTS, ...shared].map((h) => h.toLowerCase()).sort(),
      HOSTING_ROOTS,
    ]),
  ).slice(0, 32);
}

export async function buildFeeds(
  db: SupabaseClient,
  now: Date,
  options: Partial<FeedOptions> = {},
): Promise<FeedRun> {
  const opts = { ...DEFAULT_FEED_OPTIONS, ...options };
  const cpu = cpuClock();
  const site = siteUrl();
  const ms: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const n = performance.now();
    ms[name] = (ms[name] ?? 0) + Math.round(n - t);
    t = n;
  };
  const run: FeedRun = {
    step: 'idle',
    done: false,
    busy: false,
    requests: 0,
    cpu_ms: 0,
    candidates: 0,
    classified: 0,
    listed: { clear: 0, amber: 0 },
    left_out: 0,
    sync: { added: 0, updated: 0, withdrawn: 0 },
    rendered: 0,
    files_written: 0,
    files_unchanged: 0,
    files_removed: 0,
    takedowns_drafted: 0,
    takedowns_sent: 0,
    ms,
  };
  const client = new pg.Client({
    connectionString: requireEnv('SUPABASE_DB_URL'),
    application_name: 'open-data-feeds',
    statement_timeout: 120_000,
  });
  await client.connect();
  try {
    // One request at a time (the lock is the connection's: it goes with it).
    const [{ locked }] = await rowsOf<{ locked: boolean }>(
      client,
      `select pg_try_advisory_lock(hashtextextended('feed_build', 0)) as locked`,
    );
    if (!locked) {
      run.busy = true;
      return run;
    }
    let [{ state }] = await rowsOf<{ state: { step: FeedStep; requests: number; synced_at: string | null } }>(
      client,
      'select public.feed_build_state(true) as state',
    );
    let rules: Awaited<ReturnType<typeof fetchCheckRules>> | undefined;
    const checkRules = async () => (rules ??= await fetchCheckRules(db));
    const rulesKeyOf = (r: Awaited<ReturnType<typeof fetchCheckRules>>) =>
      rulesKey([...r.shorteners, ...r.brands.flatMap((b) => b.official_domains)]);

    if (state.step === 'idle') {
      if (opts.continuation) {
        run.done = true;
        return run;
      }
      // The identifiers whose verified reports changed since the last build (all of them once a day).
      const [{ start }] = await rowsOf<{ start: { candidates: number; changes: number; full: boolean } }>(
        client,
        'select public.feed_build_start($1) as start',
        [rulesKeyOf(await checkRules())],
      );
      run.candidates = start.candidates;
      run.changes = start.changes;
      run.full = start.full;
      state = { step: 'classify', requests: 1, synced_at: null };
      lap('begin');
    }
    run.requests = state.requests;
    let step: FeedStep = state.step;
    const setStep = async (next: FeedStep) => {
      if (next !== 'render' && next !== step) await client.query('select public.feed_build_step($1)', [next]);
      step = next;
    };
    // Where the next batch starts (the last key of the batch before, in this request).
    let classifyAfter = { kind: '', canonical: '' };
    if (step === 'classify') {
      // Where the request before stopped (kept with the build, so no request reads again what the
      // ones before it classified).
      const [{ cursor }] = await rowsOf<{ cursor: { kind: string; canonical: string } }>(
        client,
        'select public.feed_build_cursor() as cursor',
      );
      classifyAfter = cursor;
    }
    let renderAfter = 0;

    // At least one unit of work a request, however small its budget; then while the budget lasts.
    let units = 0;
    const began = performance.now();
    while (
      step !== 'idle' &&
      (units++ === 0 || (cpu() < opts.budgetMs && performance.now() - began < WALL_BUDGET_MS))
    ) {
      if (step === 'classify') {
        const r = await checkRules();
        const extra = [...r.shorteners, ...r.brands.flatMap((b) => b.official_domains)];
        const key = rulesKeyOf(r);
        const batch = await rowsOf<{
          kind: string;
          canonical: string;
          brand_known: boolean;
          brand: string | null;
        }>(
          client,
          'select kind, canonical, brand_known, brand from public.feed_classify_changes($1, $2, $3, $4)',
          [key, opts.classifyBatch, classifyAfter.kind, classifyAfter.canonical],
        );
        lap('classify_read');
        if (!batch.length) {
          await setStep('sync');
          continue;
        }
        classifyAfter = batch[batch.length - 1];
        const classifier = new Classifier(extra);
        const classes = batch.map((c) => {
          const listing = classifier.classify(c.kind, c.canonical);
          if (!listing) return { kind: c.kind, canonical: c.canonical, listed: false, brand: c.brand };
          // The brand an identifier imitates is worked out once, when it is first classified.
          const brand = c.brand_known
            ? c.brand
            : listing.host
              ? (lookalikeBrand(listing.host, r.brands)?.brand.name ?? null)
              : null;
          return {
            kind: c.kind,
            canonical: c.canonical,
            listed: true,
            tlp: listing.tlp,
            indicator_type: listing.type,
            value: listing.value,
            brand,
          };
        });
        lap('classify');
        await client.query('select public.feed_classify_store_at($1::jsonb, $2, $3, $4)', [
          JSON.stringify(classes),
          key,
          classifyAfter.kind,
          classifyAfter.canonical,
        ]);
        run.classified += classes.length;
        lap('classify_store');
      } else if (step === 'sync') {
        const [{ sync }] = await rowsOf<{
          sync: {
            added: number;
            updated: number;
            withdrawn: number;
            new_links: number[];
            left_out: number;
            listed: { clear: number; amber: number };
            candidates: number;
          };
        }>(client, 'select public.feed_sync_changes() as sync');
        run.sync = { added: sync.added, updated: sync.updated, withdrawn: sync.withdrawn };
        run.listed = sync.listed;
        run.left_out = sync.left_out;
        run.candidates = sync.candidates;
        step = 'render';
        lap('sync');
        const takedowns = await takedownReports(client, sync.new_links, site, now);
        run.takedowns_drafted = takedowns.drafted;
        run.takedowns_sent = takedowns.sent;
        lap('takedowns');
      } else if (step === 'render') {
        // Rendered in Postgres (public.feed_render_sql, the bytes formats.ts renderItem makes): no
        // fragment travels, and the function's CPU is not spent on it.
        const [{ rendered, last_id }] = await rowsOf<{ rendered: number; last_id: string }>(
          client,
          'select rendered, last_id from public.feed_render_sql($1, $2, $3, $4)',
          [formatKey(site), site, opts.renderBatch, renderAfter],
        );
        lap('render');
        if (!rendered) {
          await setStep('publish');
          continue;
        }
        renderAfter = Number(last_id);
        run.rendered += rendered;
      } else {
        const finished = await publish(db, client, site, opts, cpu, run);
        lap('publish');
        if (finished) await setStep('idle');
      }
    }
    run.step = step;
    run.done = step === 'idle';
    if (!run.done && opts.chain && run.requests < MAX_REQUESTS) {
      await client.query('select public.feed_build_continue()');
    }
    return run;
  } finally {
    run.cpu_ms = Math.round(cpu());
    await client.end();
  }
}

/**
 * Writes the files whose items changed, while the request's budget lasts. Answers true when every
 * file is written and those no longer built are deleted.
 */
async function publish(
  db: SupabaseClient,
  client: pg.Client,
  site: string,
  opts: FeedOptions,
  cpu: () => number,
  run: FeedRun,
): Promise<boolean> {
  const groups = (
    await rowsOf<FileGroup>(
      client,
      'select tlp, grp, period, items, list_items, newest, id_sum::float8 as id_sum from public.feed_file_groups()',
    )
  ).map((g) => ({ ...g, id_sum: Number(g.id_sum) }));
  const state = await rowsOf<{ name: string; source_key: string }>(
    client,
    'select name, source_key from public.feed_files_state()',
  );
  const previous = new Map(state.map((f) => [f.name, f.source_key]));
  const plans = [...planFeedFiles(groups, 'clear', site), ...planFeedFiles(groups, 'amber', site)];
  const changed = plans.filter((p) => previous.get(p.name) !== p.key);
  run.files_unchanged = plans.length - changed.length;
  // Small files first, several at once; then the whole-feed files one at a time.
  const small = changed.filter((p) => p.items < BIG_FILE_ITEMS);
  const big = changed.filter((p) => p.items >= BIG_FILE_ITEMS);
  // At least one write a call, then while the budget lasts.
  let i = 0;
  let wrote = false;
  while (i < small.length && (!wrote || cpu() < opts.budgetMs)) {
    wrote = true;
    const batch = small.slice(i, i + UPLOAD_CONCURRENCY * 4);
    const done = await Promise.all(batch.map((p) => limit(() => writeFile(db, client, site, p))));
    await record(client, done, []);
    run.files_written += done.length;
    i += batch.length;
  }
  if (i < small.length) return false;
  for (const p of big) {
    if (wrote && cpu() >= opts.budgetMs) return false;
    wrote = true;
    await record(client, [await writeFile(db, client, site, p)], []);
    run.files_written++;
  }
  const names = new Set(plans.map((p) => p.name));
  const removed = state.map((f) => f.name).filter((n) => !names.has(n));
  for (const tlp of ['clear', 'amber'] as const) {
    const gone = removed.filter((n) => n.startsWith(`${tlp}/`));
    if (gone.length) {
      const { error } = await db.storage.from(BUCKET[tlp]).remove(gone);
      if (error) throw new Error(`removing old feed files failed: ${error.message}`);
    }
  }
  if (removed.length) await record(client, [], removed);
  run.files_removed = removed.length;
  return true;
}

let active = 0;
const waiting: (() => void)[] = [];
/** Runs job with at most UPLOAD_CONCURRENCY at once. */
async function limit<T>(job: () => Promise<T>): Promise<T> {
  if (active >= UPLOAD_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  active++;
  try {
    return await job();
  } finally {
    active--;
    waiting.shift()?.();
  }
}

interface Written {
  name: string;
  sha256: string;
  items: number;
  bytes: number;
  source_key: string;
}

/** One file: its body from the database (assembled there, with its SHA-256), passed on to Storage. */
async function writeFile(
  db: SupabaseClient,
  client: pg.Client,
  site: string,
  plan: FilePlan,
): Promise<Written> {
  let blob: Blob;
  let sha256: string;
  let bytes: number;
  if (plan.body !== undefined) {
    blob = new Blob([plan.body], { type: plan.type });
    bytes = blob.size;
    sha256 = sha256Hex(plan.body);
  } else {
    // In pieces of 1 MB: a whole-feed file of 100,000 identifiers (30 to 40 MB) read as one value was
    // held several times over and passed the function's 256 MB. Cut from its UTF-8 bytes
    // (feed_file_pieces), not its characters, which Postgres would walk from the start for each piece.
    const pieces = await rowsOf<{ chunk: string; sha256: string; bytes: number }>(
      client,
      'select chunk, sha256, bytes from public.feed_file_pieces($1, $2, $3, $4, $5, $6, $7, $8)',
      [plan.tlp, plan.part, plan.grp, plan.period, formatKey(site), plan.prefix, plan.separator, plan.suffix],
    );
    ({ sha256, bytes } = pieces[0]);
    blob = new Blob(
      pieces.map((p) => p.chunk),
      { type: plan.type },
    );
    pieces.length = 0;
  }
  const { error } = await db.storage.from(BUCKET[plan.tlp]).upload(plan.name, blob, {
    upsert: true,
    contentType: plan.type,
    // Rewritten at most hourly; clients revalidate with the ETag after 5 minutes.
    cacheControl: '300',
  });
  if (error) throw new Error(`writing ${plan.name} failed: ${error.message}`);
  return { name: plan.name, sha256, items: plan.items, bytes, source_key: plan.key };
}

async function record(client: pg.Client, files: Written[], removed: string[]): Promise<void> {
  await client.query('select public.feed_files_record($1::jsonb, $2::text[])', [
    JSON.stringify(files),
    removed,
  ]);
}

interface Outbox {
  sending: boolean;
  reporter_contact: string | null;
  reports: { id: string; url: string; abuse_contact: string; xarf: Record<string, unknown> }[];
}

/** Drafts XARF reports for newly listed recent links; sends approved ones when sending is on. */
async function takedownReports(
  client: pg.Client,
  newLinks: number[],
  site: string,
  now: Date,
): Promise<{ drafted: number; sent: number }> {
  const [{ outbox }] = await rowsOf<{ outbox: Outbox }>(client, 'select public.takedown_outbox() as outbox');
  const contact = outbox.reporter_contact ?? 'abuse@scamcheck.ph';
  const reporter = { org: 'ScamCheck', contact, domain: contact.split('@')[1] ?? 'scamcheck.ph' };
  const recent = new Date(now.getTime() - TAKEDOWN_RECENT_DAYS * 86_400_000).toISOString();
  // The new links' items, oldest id first, as many as a run drafts (a first build adds thousands).
  const fresh = newLinks.length
    ? await rowsOf<FeedItem>(client, 'select * from public.feed_new_links($1::bigint[], $2, $3)', [
        newLinks,
        recent,
        TAKEDOWN_MAX_PER_RUN,
      ])
    : [];
  const drafts: TakedownDraft[] = fresh
    .map((i) => ({ ...i, id: Number(i.id) }))
    .filter((i) => takedownCandidate(i))
    .map((i) => xarfReport(i, reporter, site, now));
  let drafted = 0;
  if (drafts.length) {
    const [{ n }] = await rowsOf<{ n: number }>(client, 'select public.takedown_add($1::jsonb) as n', [
      JSON.stringify(drafts),
    ]);
    drafted = n;
  }
  let sent = 0;
  for (const report of outbox.reports) {
    try {
      await sendMail({
        to: report.abuse_contact,
        subject: `[XARF] Phishing: ${report.url}`,
        text: `ScamCheck reports a phishing or scam page hosted on your network or registered with you:\n\n  ${report.url}\n\nIt was reported by the public and verified by a ScamCheck moderator. The XARF v4 report follows; reply to ${contact}.\n\n${JSON.stringify(report.xarf, null, 2)}\n`,
      });
      await client.query('select public.takedown_mark($1, null)', [report.id]);
      sent++;
    } catch (e) {
      await client.query('select public.takedown_mark($1, $2)', [
        report.id,
        (e as Error).message || 'sending failed',
      ]);
    }
  }
  return { drafted, sent };
}
