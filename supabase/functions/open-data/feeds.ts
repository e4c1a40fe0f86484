/**
 * The threat-intelligence feeds' part of the hourly open-data job (issue 34, docs/feeds.md):
 *   1. reads every identifier with a verified report (public.feed_candidates) and decides what each is
 *      listed as (_shared/feeds/classify.ts);
 *   2. stores that list (public.feed_sync): TAXII (api function) serves it from there;
 *   3. writes the files that changed to the public `feeds` bucket (TLP:CLEAR) and the private
 *      `feeds-partner` bucket (TLP:AMBER), and deletes those no longer built;
 *   4. drafts XARF takedown reports for newly listed links, and sends approved ones when sending is on.
 * The big reads and the sync go over one direct Postgres connection of the job's own (service-role
 * entry points only, as _shared/postgres.ts explains), with a longer statement timeout than the API's.
 */
import pg from 'npm:pg@8.23.1';
import { requireEnv, siteUrl } from '../_shared/env.ts';
import { fetchCheckRules, lookalikeBrand } from '../_shared/check-message.ts';
import type { SupabaseClient } from '../_shared/supabase.ts';
import { sendMail } from '../_shared/mail.ts';
import { Classifier } from '../_shared/feeds/classify.ts';
import {
  BUCKET,
  buildFeedFiles,
  sha256Bytes,
  type FeedFile,
  type FeedItem,
} from '../_shared/feeds/formats.ts';
import { takedownCandidate, xarfReport, type TakedownDraft } from '../_shared/feeds/xarf.ts';

/** Takedown reports are drafted for links whose last verified report is this recent. */
const TAKEDOWN_RECENT_DAYS = 30;
/** At most this many drafts a run (a first run over years of reports would draft thousands). */
const TAKEDOWN_MAX_PER_RUN = 500;
const UPLOAD_CONCURRENCY = 16;

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface Candidate {
  kind: string;
  canonical: string;
  written: string;
  first_reported: string;
  last_reported: string;
  reports: number;
  reporters: number;
  scam_type: string;
}

export const ITEM_COLUMNS = `id::int as id, kind, canonical, tlp, indicator_type, value, written,
  ${iso('first_reported')} as first_reported, ${iso('last_reported')} as last_reported, reports, reporters,
  scam_type, brand, stix_id::text as stix_id, event_day::text as event_day, ${iso('added_at')} as added_at,
  ${iso('version_at')} as version_at`;

/** The rows of a query, typed (the pg client's own generics do not reach through Deno's npm types). */
async function rowsOf<T>(client: pg.Client, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query(sql, params)).rows as T[];
}

/** Runs jobs with at most `limit` at once. */
async function inParallel<T>(items: T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await job(items[next++]);
    }),
  );
}

export interface FeedRun {
  candidates: number;
  listed: { clear: number; amber: number };
  left_out: number;
  sync: { added: number; updated: number; withdrawn: number };
  files_written: number;
  files_unchanged: number;
  files_removed: number;
  takedowns_drafted: number;
  takedowns_sent: number;
  ms: Record<string, number>;
}

export async function buildFeeds(db: SupabaseClient, now: Date): Promise<FeedRun> {
  const site = siteUrl();
  const ms: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const n = performance.now();
    ms[name] = Math.round(n - t);
    t = n;
  };
  const client = new pg.Client({
    connectionString: requireEnv('SUPABASE_DB_URL'),
    application_name: 'open-data-feeds',
    statement_timeout: 120_000,
  });
  await client.connect();
  try {
    const rules = await fetchCheckRules(db);
    const classifier = new Classifier([
      ...rules.shorteners,
      ...rules.brands.flatMap((b) => b.official_domains),
    ]);
    const candidates = await rowsOf<Candidate>(
      client,
      `select kind, canonical, written, ${iso('first_reported')} as first_reported,
              ${iso('last_reported')} as last_reported, reports, reporters, scam_type
       from public.feed_candidates()`,
    );
    // The brand an identifier imitates is worked out once, when it is first listed.
    const known = await rowsOf<{ kind: string; canonical: string; brand: string | null }>(
      client,
      'select kind, canonical, brand from public.feed_items_current()',
    );
    const brands = new Map(known.map((k) => [`${k.kind}\u0000${k.canonical}`, k.brand]));
    lap('read');

    const items = [];
    let leftOut = 0;
    const listed = { clear: 0, amber: 0 };
    for (const c of candidates) {
      const listing = classifier.classify(c.kind, c.canonical);
      if (!listing) {
        leftOut++;
        continue;
      }
      listed[listing.tlp]++;
      const key = `${c.kind}\u0000${c.canonical}`;
      const brand = brands.has(key)
        ? brands.get(key)!
        : listing.host
          ? (lookalikeBrand(listing.host, rules.brands)?.brand.name ?? null)
          : null;
      items.push({ ...c, tlp: listing.tlp, indicator_type: listing.type, value: listing.value, brand });
    }
    lap('classify');

    const [{ sync }] = await rowsOf<{
      sync: { added: number; updated: number; withdrawn: number; new_links: number[] };
    }>(client, 'select public.feed_sync($1::jsonb) as sync', [JSON.stringify(items)]);
    lap('sync');

    const current = await rowsOf<FeedItem>(client, `select ${ITEM_COLUMNS} from public.feed_items_current()`);
    lap('read_current');

    const state = await rowsOf<{ name: string; source_key: string }>(
      client,
      'select name, source_key from public.feed_files_state()',
    );
    const previous = new Map(state.map((f) => [f.name, f.source_key]));
    const clear = buildFeedFiles(current, 'clear', site, previous);
    const amber = buildFeedFiles(current, 'amber', site, previous);
    const changed = [...clear.files, ...amber.files];
    const names = new Set([...changed.map((f) => f.name), ...clear.kept, ...amber.kept]);
    const removed = state.map((f) => f.name).filter((n) => !names.has(n));
    lap('build');

    const written = await Promise.all(
      changed.map(async (file) => {
        const bytes = new TextEncoder().encode(file.body);
        return { file, bytes, sha256: await sha256Bytes(bytes) };
      }),
    );
    lap('hash');

    await inParallel(written, UPLOAD_CONCURRENCY, async ({ file, bytes }) => upload(db, file, bytes));
    for (const tlp of ['clear', 'amber'] as const) {
      const gone = removed.filter((n) => n.startsWith(`${tlp}/`));
      if (gone.length) {
        const { error } = await db.storage.from(BUCKET[tlp]).remove(gone);
        if (error) throw new Error(`removing old feed files failed: ${error.message}`);
      }
    }
    await client.query('select public.feed_files_record($1::jsonb, $2::text[])', [
      JSON.stringify(
        written.map(({ file, bytes, sha256 }) => ({
          name: file.name,
          sha256,
          items: file.items,
          bytes: bytes.length,
          source_key: file.key,
        })),
      ),
      removed,
    ]);
    lap('upload');

    const takedowns = await takedownReports(client, current, sync.new_links, site, now);
    lap('takedowns');

    return {
      candidates: candidates.length,
      listed,
      left_out: leftOut,
      sync: { added: sync.added, updated: sync.updated, withdrawn: sync.withdrawn },
      files_written: changed.length,
      files_unchanged: clear.kept.length + amber.kept.length,
      files_removed: removed.length,
      takedowns_drafted: takedowns.drafted,
      takedowns_sent: takedowns.sent,
      ms,
    };
  } finally {
    await client.end();
  }
}

async function upload(db: SupabaseClient, file: FeedFile, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const tlp = file.name.startsWith('clear/') ? 'clear' : 'amber';
  const { error } = await db.storage
    .from(BUCKET[tlp])
    .upload(file.name, new Blob([bytes], { type: file.type }), {
      upsert: true,
      contentType: file.type,
      // Rewritten at most hourly; clients revalidate with the ETag after 5 minutes.
      cacheControl: '300',
    });
  if (error) throw new Error(`writing ${file.name} failed: ${error.message}`);
}

interface Outbox {
  sending: boolean;
  reporter_contact: string | null;
  reports: { id: string; url: string; abuse_contact: string; xarf: Record<string, unknown> }[];
}

/** Drafts XARF reports for newly listed recent links; sends approved ones when sending is on. */
async function takedownReports(
  client: pg.Client,
  current: FeedItem[],
  newLinks: number[],
  site: string,
  now: Date,
): Promise<{ drafted: number; sent: number }> {
  const [{ outbox }] = await rowsOf<{ outbox: Outbox }>(client, 'select public.takedown_outbox() as outbox');
  const contact = outbox.reporter_contact ?? 'abuse@scamcheck.ph';
  const reporter = { org: 'ScamCheck', contact, domain: contact.split('@')[1] ?? 'scamcheck.ph' };
  const fresh = new Set(newLinks);
  const recent = now.getTime() - TAKEDOWN_RECENT_DAYS * 86_400_000;
  const drafts: TakedownDraft[] = current
    .filter((i) => fresh.has(i.id) && takedownCandidate(i) && Date.parse(i.last_reported) >= recent)
    .slice(0, TAKEDOWN_MAX_PER_RUN)
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
