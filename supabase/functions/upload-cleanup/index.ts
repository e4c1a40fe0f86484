/**
 * Scheduled job, hourly: removes uploaded images no row refers to. A form uploads its image before it
 * saves its row (upload-image answers the path the row then names), so an image whose row was never
 * saved, or was saved with another image since, stays behind; after a grace period of a day
 * (public.orphan_uploads, which also says what counts as a reference) it is removed through Storage, so
 * the object and its file go together. A pg_cron job of the migrations (..._scheduled_jobs.sql) calls
 * it with pg_net, hosted and local alike. Answers { removed, failed }.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { serviceClient } from '../_shared/service.ts';

/** How old an unreferenced image must be before it goes: a day, in seconds. */
const GRACE_SECONDS = 86_400;
/** Objects removed per run, at most (in Storage calls of 100). */
const BATCH = 500;

serveScheduledJob(async () => {
  const db = serviceClient();
  const { data, error } = await db.rpc('orphan_uploads', { p_grace_seconds: GRACE_SECONDS, p_limit: BATCH });
  if (error) throw new Error(`orphan_uploads failed: ${error.message}`);
  const byBucket = new Map<string, string[]>();
  for (const row of data ?? []) byBucket.set(row.bucket, [...(byBucket.get(row.bucket) ?? []), row.path]);
  let removed = 0;
  let failed = 0;
  for (const [bucket, paths] of byBucket) {
    for (let i = 0; i < paths.length; i += 100) {
      const part = paths.slice(i, i + 100);
      const { data: gone, error: removeError } = await db.storage.from(bucket).remove(part);
      if (removeError) {
        console.error(`removing ${part.length} orphan images from ${bucket} failed`, removeError);
        failed += part.length;
      } else removed += gone?.length ?? 0;
    }
  }
  return { removed, failed };
});
