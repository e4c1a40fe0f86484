/**
 * Scheduled job, hourly: applies the 1-week removal policy (docs/behaviour.md §11). A removal request
 * that went 7 days from the confirmation of its contact address without an answer from the reporter
 * (to any of the report's requests) goes to the admins' queue (public.expire_removal_requests,
 * executable by the service role only); its report is hidden only when it is still pending, never when
 * an admin verified it (issue 27). The person who asked is told at the contact address they gave when
 * the report was hidden. A pg_cron job of the migrations (..._scheduled_jobs.sql) calls it with
 * pg_net, on hosted and on the local stack alike.
 */
import { serveScheduledJob } from '../_shared/scheduled.ts';
import { serviceClient } from '../_shared/service.ts';
import { escapeHtml, sendMail } from '../_shared/mail.ts';
import { defang } from '../_shared/inert-text.ts';

const WEEK_MS = 7 * 86_400_000;

serveScheduledJob(async () => {
  const db = serviceClient();
  // The requests about to expire, read first so their requesters can be told afterwards.
  const { data: due, error: dueError } = await db
    .from('removal_requests')
    .select('id, contact_email, reports(reported_account)')
    .eq('status', 'open')
    .lt('contact_confirmed_at', new Date(Date.now() - WEEK_MS).toISOString());
  if (dueError) throw new Error(`reading due removal requests failed: ${dueError.message}`);

  const { data: removed, error } = await db.rpc('expire_removal_requests');
  if (error) throw new Error(`expire_removal_requests failed: ${error.message}`);

  let notified = 0;
  const ids = (due ?? []).map((r) => r.id);
  if (ids.length) {
    const { data: done } = await db
      .from('removal_requests')
      .select('id')
      .in('id', ids)
      .eq('status', 'report_removed');
    const doneIds = new Set((done ?? []).map((r) => r.id));
    for (const r of due ?? []) {
      if (!doneIds.has(r.id)) continue;
      // Written by the reporter: link-free in the mail (issue 27).
      const account = r.reports?.reported_account
        ? defang(r.reports.reported_account)
        : 'the identifier you asked about';
      const text = `The report about ${account} you asked us to remove has been removed: its reporter did not answer within 7 days.`;
      try {
        await sendMail({
          to: r.contact_email,
          subject: `ScamCheck: the report about ${account} was removed`,
          text,
          html: `<p>${escapeHtml(text)}</p>`,
        });
        notified++;
      } catch (e) {
        // The removal stands either way; a lost courtesy e-mail is only logged.
        console.error(`removal request ${r.id}: requester not e-mailed`, e);
      }
    }
  }
  return { removed: removed ?? 0, notified };
});
