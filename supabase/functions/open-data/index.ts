/**
 * Scheduled job, hourly: refreshes the statistics the trigger cannot keep (monthly medians, the
 * most-reported identifiers of the last 30 days; public.refresh_public_statistics) and rewrites the
 * daily open-data export, the last 365 days as CSV and JSON, in the public `open-data` bucket at
 * stable addresses:
 *   {SUPABASE_URL}/storage/v1/object/public/open-data/reports-daily.csv
 *   {SUPABASE_URL}/storage/v1/object/public/open-data/reports-daily.json
 *   {SUPABASE_URL}/storage/v1/object/public/open-data/moderation.json (the moderation figures)
 * and rebuilds the threat-intelligence feeds of verified identifiers (feeds.ts, docs/feeds.md): the
 * public `feeds` bucket (TLP:CLEAR), the private `feeds-partner` bucket (TLP:AMBER), the TAXII
 * collection's table and the takedown report drafts. The feeds build goes in steps that each fit
 * hosted's 2 s of CPU per request: when one request has not finished it, it queues the next with
 * {"feeds_continue": true}, which only goes on with the feeds (feeds.ts). A caller that drives the build
 * itself (tests, the bench) sends {"feeds": {"chain": false}}; "budget_ms", "classify_batch" and
 * "render_batch" there shrink a request's share (tests).
 * A pg_cron job of the migrations (..._scheduled_jobs.sql) calls it with pg_net, hosted and local alike.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { serviceClient } from '../_shared/service.ts';
import { EXPORT_DAYS, buildExport, buildModerationExport } from './export.ts';
import { buildFeeds, type FeedOptions } from './feeds.ts';

/** The feeds options a caller may set (the service role only reaches this function). */
function feedOptions(body: Record<string, unknown>): Partial<FeedOptions> {
  const f = (body.feeds ?? {}) as Record<string, unknown>;
  const positive = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
  const opts: Partial<FeedOptions> = { continuation: body.feeds_continue === true };
  if (typeof f.chain === 'boolean') opts.chain = f.chain;
  if (positive(f.budget_ms)) opts.budgetMs = positive(f.budget_ms);
  if (positive(f.classify_batch)) opts.classifyBatch = positive(f.classify_batch);
  if (positive(f.render_batch)) opts.renderBatch = positive(f.render_batch);
  return opts;
}

serveScheduledJob(async (body) => {
  const db = serviceClient();
  const options = feedOptions(body);
  // A follow-up request of an unfinished feeds build does only that.
  if (options.continuation || body.feeds_only === true)
    return { feeds: await buildFeeds(db, new Date(), options) };
  const { data: refreshed, error: refreshError } = await db.rpc('refresh_public_statistics');
  if (refreshError) throw new Error(`refresh_public_statistics failed: ${refreshError.message}`);

  const { data: rows, error } = await db.rpc('open_data_daily', { days: EXPORT_DAYS });
  if (error) throw new Error(`open_data_daily failed: ${error.message}`);
  const { data: moderation, error: moderationError } = await db.rpc('moderation_statistics');
  if (moderationError) throw new Error(`moderation_statistics failed: ${moderationError.message}`);
  const now = new Date();
  const files = [...buildExport(rows ?? [], now), buildModerationExport(moderation, now)];
  for (const file of files) {
    const { error: uploadError } = await db.storage
      .from('open-data')
      .upload(file.name, new Blob([file.body], { type: file.type }), {
        upsert: true,
        contentType: file.type,
        // Rewritten every hour: caches may keep a copy for 5 minutes.
        cacheControl: '300',
      });
    if (uploadError) throw new Error(`writing ${file.name} failed: ${uploadError.message}`);
  }
  // The threat-intelligence feeds (issue 34): same schedule, their own buckets.
  const feeds = await buildFeeds(db, new Date(), options);
  return { refreshed, rows: (rows ?? []).length, files: files.map((f) => f.name), feeds };
});
