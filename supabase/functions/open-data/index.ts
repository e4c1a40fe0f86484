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
 * collection's table and the takedown report drafts.
 * A pg_cron job of the migrations (..._scheduled_jobs.sql) calls it with pg_net, hosted and local alike.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { serviceClient } from '../_shared/service.ts';
import { EXPORT_DAYS, buildExport, buildModerationExport } from './export.ts';
import { buildFeeds } from './feeds.ts';

serveScheduledJob(async () => {
  const db = serviceClient();
  const { data: refreshed, error: refreshError } = await db.rpc('refresh_public_statistics');
  if (refreshError) throw new Error(`refresh_public_statistics failed: ${refreshError.message}`);

  const { data: rows, error } = await db.rpc('open_data_daily', { days: EXPORT_DAYS });
  if (error) throw new Error(`open_data_daily failed: ${error.message}`);
  const { data: moderation, error: moderationError } = await db.rpc('moderation_statistics');
  if (moderationError) throw new Error(`moderation_statistics failed: ${moderationError.message}`);
  const files = [...buildExport(rows ?? [], new Date()), buildModerationExport(moderation, new Date())];
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
  const feeds = await buildFeeds(db, new Date());
  return { refreshed, rows: (rows ?? []).length, files: files.map((f) => f.name), feeds };
});
