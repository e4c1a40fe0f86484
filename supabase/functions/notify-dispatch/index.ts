/**
 * Scheduled job, every minute: e-mails the notifications the database queued (a registered identifier
 * was reported, a removal was requested, a report was moderated). A pg_cron job of the migrations
 * (..._scheduled_jobs.sql) calls it with pg_net, on hosted and on the local stack alike. Only the
 * service-role key may run it.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { dispatchPending } from '../_shared/dispatch.ts';

serveScheduledJob(() => dispatchPending());
