/**
 * Scheduled job, every minute: e-mails the notifications the database queued (a registered identifier
 * was reported, a removal was requested, a report was moderated). Supabase runs it with pg_cron +
 * pg_net (README, "Scheduled functions"); the local stack with supabase/local/scheduler.ts. Only the
 * service-role key may run it.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { dispatchPending } from '../_shared/dispatch.ts';

serveScheduledJob(dispatchPending);
