/**
 * E-mails the in-app notifications the database creates (public.notifications with emailed_at null):
 * a report about an identifier a user registered, a removal request against a user's report, a
 * moderation decision. Run every minute by the `notify-dispatch` function (pg_cron + pg_net on
 * Supabase, supabase/local/scheduler.ts locally) and nudged by the api right after it files a report.
 *
 * Each notification is claimed first (emailed_at set where it was null), so two runs at once never
 * send the same e-mail twice; a failed send releases the claim for the next run.
 *
 * Uses the service-role client: notifications belong to other users, and this code only reads what
 * it needs to write their e-mails (recipient address, report summary, the removal request).
 */
import { serviceClient } from './service.ts';
import { escapeHtml, sendMail, type Mail } from './mail.ts';
import { siteUrl } from './env.ts';

interface NotificationRow {
  id: string;
  user_id: string;
  kind: 'identifier_reported' | 'removal_requested' | 'report_status_changed';
  report_id: string | null;
  identifier: string | null;
  created_at: string;
}

interface ReportSummary {
  id: string;
  created_at: string;
  reported_account: string;
  reported_account_type: string;
  incident_type: string;
  status: string;
}

export interface DispatchResult {
  sent: number;
  failed: number;
}

function paragraphs(lines: string[]): string {
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
}

function link(url: string, label: string): string {
  return `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;
}

async function compose(n: NotificationRow, report: ReportSummary | null): Promise<Omit<Mail, 'to'> | null> {
  const site = siteUrl();
  const identifier = report?.reported_account ?? n.identifier ?? '';
  if (n.kind === 'identifier_reported') {
    const url = `${site}/search/${encodeURIComponent(identifier)}`;
    const lines = [
      `Someone reported ${identifier}, which you asked ScamCheck to watch.`,
      report
        ? `Incident type: ${report.incident_type}. The report is ${report.status === 'verified' ? 'verified' : 'waiting for review'}.`
        : '',
      'Be careful with any message, call or payment request that involves it.',
    ].filter(Boolean);
    return {
      subject: `ScamCheck: ${identifier} was reported`,
      text: `${lines.join('\n\n')}\n\nSee the reports: ${url}\n`,
      html: `${paragraphs(lines)}${link(url, 'See the reports')}`,
    };
  }
  if (n.kind === 'removal_requested') {
    if (!n.report_id) return null;
    const { data: request } = await serviceClient()
      .from('removal_requests')
      .select('id, reason, contact_email, created_at')
      .eq('report_id', n.report_id)
      .eq('status', 'open')
      .order('created_at', { ascending: false })
      .limit(1)
      .maybeSingle();
    if (!request) return null;
    const deleteUrl = `${site}/dashboard/delete-report/${n.report_id}`;
    const reviewUrl = `${site}/dashboard/all-reports/${n.report_id}`;
    const lines = [
      `The holder of ${identifier} asked us to remove your report about it.`,
      `Their reason: ${request.reason}`,
      `Their contact e-mail: ${request.contact_email}`,
      'If you agree, you can delete the report at once. If you do not answer within 7 days, the report is removed automatically.',
    ];
    return {
      subject: `ScamCheck: removal requested for your report about ${identifier}`,
      text: `${lines.join('\n\n')}\n\nDelete the report now: ${deleteUrl}\nReview or answer: ${reviewUrl}\n`,
      html: `${paragraphs(lines)}${link(deleteUrl, 'Delete the report now')}${link(reviewUrl, 'Review or answer')}`,
    };
  }
  if (n.kind === 'report_status_changed') {
    if (!report) return null;
    const url = `${site}/dashboard/all-reports/${report.id}`;
    const lines = [`Your report about ${identifier} is now ${report.status}.`];
    return {
      subject: `ScamCheck: your report about ${identifier} is ${report.status}`,
      text: `${lines.join('\n\n')}\n\nSee it: ${url}\n`,
      html: `${paragraphs(lines)}${link(url, 'See your report')}`,
    };
  }
  return null;
}

/** Sends up to `limit` pending notification e-mails; returns how many went out and how many failed. */
export async function dispatchPending(limit = 100): Promise<DispatchResult> {
  const db = serviceClient();
  const { data: pending, error } = await db
    .from('notifications')
    .select('id, user_id, kind, report_id, identifier, created_at')
    .is('emailed_at', null)
    .order('created_at', { ascending: true })
    .limit(limit);
  if (error) throw new Error(`reading pending notifications failed: ${error.message}`);
  const result: DispatchResult = { sent: 0, failed: 0 };
  const queue = [...((pending ?? []) as NotificationRow[])];
  // A few SMTP conversations at once: a burst of reports on a watched identifier still leaves within a minute.
  await Promise.all(
    Array.from({ length: SEND_CONCURRENCY }, async () => {
      for (let n = queue.shift(); n; n = queue.shift()) await dispatchOne(n, result);
    }),
  );
  return result;
}

const SEND_CONCURRENCY = 4;
/** A report that was already this old when it was queued came from an import or backfill: not news. */
const STALE_REPORT_MS = 86_400_000;

async function dispatchOne(n: NotificationRow, result: DispatchResult): Promise<void> {
  const db = serviceClient();
  // The claim is judged by the count of rows it changed, not by returned rows, so it never depends
  // on how the updated row reads back.
  const { count: claimed, error: claimError } = await db
    .from('notifications')
    .update({ emailed_at: new Date().toISOString() }, { count: 'exact' })
    .eq('id', n.id)
    .is('emailed_at', null);
  if (claimError || claimed !== 1) return; // another run took it
  try {
    const { data: profile } = await db.from('profiles').select('email').eq('id', n.user_id).maybeSingle();
    const report = n.report_id
      ? ((
          await db
            .from('reports')
            .select('id, created_at, reported_account, reported_account_type, incident_type, status')
            .eq('id', n.report_id)
            .maybeSingle()
        ).data as ReportSummary | null)
      : null;
    const stale =
      n.kind === 'identifier_reported' &&
      report &&
      Date.parse(n.created_at) - Date.parse(report.created_at) > STALE_REPORT_MS;
    const mail = stale ? null : await compose(n, report);
    // Nothing to say (old news, the report or request is gone) or nobody to tell: the claim stays,
    // so it is not retried; the in-app notification remains.
    if (!mail || !profile?.email) return;
    await sendMail({ ...mail, to: profile.email });
    result.sent++;
  } catch (e) {
    console.error(`notification ${n.id} could not be e-mailed`, e);
    await db.from('notifications').update({ emailed_at: null }).eq('id', n.id);
    result.failed++;
  }
}

/** Runs a dispatch after the current answer, without delaying it; failures only reach the log. */
export function dispatchSoon(): void {
  const task = dispatchPending().catch((e) => console.error('notification dispatch failed', e));
  // On Supabase's edge runtime, waitUntil keeps the worker alive until the background task ends.
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime;
  runtime?.waitUntil?.(task);
}
