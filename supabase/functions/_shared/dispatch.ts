/**
 * E-mails the in-app notifications the database creates (public.notifications with emailed_at null):
 * a report about an identifier a user registered, a removal request against a user's report, a
 * moderation decision. Run every minute by the `notify-dispatch` function (a pg_cron job calling it
 * with pg_net) and nudged by the api right after it files a report.
 *
 * Each notification is claimed first (emailed_at set where it was null), so two runs at once never
 * send the same e-mail twice; a failed send releases the claim for the next run.
 *
 * Uses the service-role client: notifications belong to other users, and this code only reads what
 * it needs to write their e-mails (recipient address, report summary, the removal request).
 */
import { z } from 'npm:zod@4.6.7';
import { serviceClient } from './service.ts';
import type { Tables } from './database.ts';
import { escapeHtml, sendMail, type Mail } from './mail.ts';
import { siteUrl } from './env.ts';
import { mailLanguage, mailText, type MailLanguage } from './dispatch-messages.ts';
import { defang, quoteHtml, quoteText } from './inert-text.ts';

type NotificationRow = Pick<
  Tables<'notifications'>,
  'id' | 'user_id' | 'kind' | 'report_id' | 'identifier' | 'created_at'
>;

type ReportSummary = Pick<
  Tables<'reports'>,
  | 'id'
  | 'created_at'
  | 'reported_account'
  | 'reported_account_type'
  | 'incident_type'
  | 'status'
  | 'status_reason'
  | 'status_note'
>;

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

async function compose(
  n: NotificationRow,
  report: ReportSummary | null,
  lang: MailLanguage = 'en',
): Promise<Omit<Mail, 'to'> | null> {
  const site = siteUrl();
  const m = mailText[lang];
  // Written by a reporter, not by ScamCheck: in the mail only as link-free text (issue 27).
  const written = report?.reported_account ?? n.identifier ?? '';
  const identifier = defang(written);
  if (n.kind === 'identifier_reported') {
    const url = `${site}/search/${encodeURIComponent(written)}`;
    const lines = [
      m.reported.intro(identifier),
      report ? m.reported.incident(report.incident_type, report.status === 'verified') : '',
      m.reported.careful,
    ].filter(Boolean);
    return {
      subject: m.reported.subject(identifier),
      text: `${lines.join('\n\n')}\n\n${m.reported.see}: ${url}\n`,
      html: `${paragraphs(lines)}${link(url, m.reported.see)}`,
    };
  }
  if (n.kind === 'removal_requested') {
    if (!n.report_id) return null;
    const { data: request } = await serviceClient()
      .from('removal_requests')
      .select('id, reason, created_at, contact_confirmed_at')
      .eq('report_id', n.report_id)
      .eq('status', 'open')
      .not('contact_confirmed_at', 'is', null)
      .order('contact_confirmed_at', { ascending: false })
      .limit(1)
      .maybeSingle();
    if (!request?.contact_confirmed_at) return null;
    const deleteUrl = `${site}/dashboard/delete-report/${n.report_id}`;
    const reviewUrl = `${site}/dashboard/all-reports/${n.report_id}`;
    // The week runs from the confirmation of the requester's contact address (expire_removal_requests).
    const deadline = new Date(Date.parse(request.contact_confirmed_at) + REMOVAL_WEEK_MS)
      .toISOString()
      .replace('T', ' ')
      .slice(0, 16);
    // The requester's reason is theirs: quoted, link-free, never as ScamCheck's words. Their contact
    // address is not the reporter's to see (issue 31): only admins and the requester read it.
    const before = [m.removal.intro(identifier), m.removal.reason];
    const after = [m.removal.deadline(deadline), m.removal.noAnswer];
    return {
      subject: m.removal.subject(identifier),
      text: `${before.join('\n\n')}\n\n${quoteText(request.reason)}\n\n${after.join('\n\n')}\n\n${m.removal.review}: ${reviewUrl}\n${m.removal.deleteNow}: ${deleteUrl}\n`,
      html: `${paragraphs(before)}${quoteHtml(request.reason)}${paragraphs(after)}${link(reviewUrl, m.removal.review)}${link(deleteUrl, m.removal.deleteNow)}`,
    };
  }
  if (n.kind === 'report_status_changed') {
    if (!report) return null;
    const url = `${site}/dashboard/all-reports/${report.id}`;
    // Issue 31: a rejected or removed report says why; the admin's note is quoted, link-free.
    const lines = [m.status.line(identifier, report.status)];
    if (report.status_reason) lines.push(m.status.reason(report.status_reason));
    const note = report.status_note ? [m.status.note] : [];
    return {
      subject: m.status.subject(identifier, report.status),
      text: `${[...lines, ...note].join('\n\n')}${report.status_note ? `\n\n${quoteText(report.status_note)}` : ''}\n\n${m.status.seeIt}: ${url}\n`,
      html: `${paragraphs([...lines, ...note])}${report.status_note ? quoteHtml(report.status_note) : ''}${link(url, m.status.seeReport)}`,
    };
  }
  return null;
}

/**
 * Mails the confirmation link of every new removal request to its contact address (issue 11): the
 * reporter is told of a request only once its requester proved they read that address. The database
 * issues the tokens (public.issue_removal_confirmations) and withholds them past a few a day per
 * address; a failed send is only logged (the request then stays unconfirmed and harmless). Written in
 * the requester's profile language.
 */
export async function sendRemovalConfirmations(result: DispatchResult): Promise<void> {
  const { data, error } = await serviceClient().rpc('issue_removal_confirmations', { max_rows: 50 });
  if (error) throw new Error(`issuing removal confirmations failed: ${error.message}`);
  const site = siteUrl();
  // c.language: the language of the user who filed the request (the contact address has no profile).
  for (const c of data ?? []) {
    const url = `${site}/api/v1/removal-requests/${c.request_id}/confirm?token=${c.token}`;
    const m = mailText[mailLanguage(c.language)].confirmRemoval;
    const lines = m.lines(defang(c.reported_account));
    try {
      await sendMail({
        to: c.contact_email,
        subject: m.subject,
        text: `${lines.join('\n\n')}\n\n${m.confirm}: ${url}\n`,
        html: `${paragraphs(lines)}${link(url, m.confirmLink)}`,
      });
      result.sent++;
    } catch (e) {
      console.error(`removal request ${c.request_id}: confirmation not e-mailed`, e);
      result.failed++;
    }
  }
}

/** Sends up to `limit` pending notification e-mails; returns how many went out and how many failed. */
export async function dispatchPending(limit = 100): Promise<DispatchResult> {
  const db = serviceClient();
  const result: DispatchResult = { sent: 0, failed: 0 };
  await sendRemovalConfirmations(result);
  const { data: pending, error } = await db
    .from('notifications')
    .select('id, user_id, kind, report_id, identifier, created_at')
    .is('emailed_at', null)
    .or(`email_deferred_until.is.null,email_deferred_until.lt.${new Date().toISOString()}`)
    .order('created_at', { ascending: true })
    .limit(limit);
  if (error) throw new Error(`reading pending notifications failed: ${error.message}`);
  // Per recipient, oldest first: each user's own limit decides between single e-mails and a digest.
  const byUser = new Map<string, NotificationRow[]>();
  for (const n of pending ?? []) byUser.set(n.user_id, [...(byUser.get(n.user_id) ?? []), n]);
  const users = [...byUser.values()];
  // A few SMTP conversations at once: a burst of reports on a watched identifier still leaves within a minute.
  await Promise.all(
    Array.from({ length: SEND_CONCURRENCY }, async () => {
      for (let notes = users.shift(); notes; notes = users.shift()) await dispatchUser(notes, result);
    }),
  );
  return result;
}

const SEND_CONCURRENCY = 4;
/** The reporter's time to answer a removal request, from its contact confirmation. */
const REMOVAL_WEEK_MS = 7 * 86_400_000;
/** A report that was already this old when it was queued came from an import or backfill: not news. */
const STALE_REPORT_MS = 86_400_000;
/** How many notifications a digest names one by one; the rest are counted. */
const DIGEST_LINES = 20;

/** The part of public.rate_limit_check's answer (jsonb) the dispatcher reads. */
const limitAnswerSchema = z.object({ allowed: z.boolean(), retry_after: z.number().int() });
type LimitAnswer = z.infer<typeof limitAnswerSchema>;

async function takeLimit(name: string, userId: string): Promise<LimitAnswer> {
  const { data, error } = await serviceClient().rpc('rate_limit_check', {
    name,
    subject: `user:${userId}`,
    cost: 1,
  });
  if (error) throw new Error(`rate limit ${name} failed: ${error.message}`);
  return limitAnswerSchema.parse(data);
}

/**
 * One recipient's pending notifications: e-mailed one by one while the user's `email.user` limit
 * allows (a few an hour), the rest together in one digest (`email.digest`, one an hour); when neither
 * allows, they wait (email_deferred_until) for the next digest. The in-app notifications are unchanged.
 */
async function dispatchUser(notes: NotificationRow[], result: DispatchResult): Promise<void> {
  const userId = notes[0].user_id;
  // A removal request's notice carries the reporter's deadline: always an e-mail of its own, never
  // held back by the limit or folded into (or cut from) a digest (issue 27). Their number is bounded
  // by the confirmed requests (one open per requester and report, removal_confirm.address).
  for (const n of notes.filter((x) => x.kind === 'removal_requested')) await dispatchOne(n, result);
  let rest = notes.filter((x) => x.kind !== 'removal_requested');
  while (rest.length) {
    const single = await takeLimit('email.user', userId);
    if (!single.allowed) break;
    await dispatchOne(rest[0], result);
    rest = rest.slice(1);
  }
  if (!rest.length) return;
  const digest = await takeLimit('email.digest', userId);
  const db = serviceClient();
  if (!digest.allowed) {
    const until = new Date(Date.now() + digest.retry_after * 1000).toISOString();
    await db
      .from('notifications')
      .update({ email_deferred_until: until })
      .in(
        'id',
        rest.map((n) => n.id),
      )
      .is('emailed_at', null);
    return;
  }
  await sendDigest(userId, result);
}

/** Claims every pending notification of the user and e-mails them as one digest. */
async function sendDigest(userId: string, result: DispatchResult): Promise<void> {
  const db = serviceClient();
  const { data: claimed, error } = await db
    .from('notifications')
    .update({ emailed_at: new Date().toISOString() })
    .eq('user_id', userId)
    .is('emailed_at', null)
    .neq('kind', 'removal_requested')
    .select('id, user_id, kind, report_id, identifier, created_at');
  if (error || !claimed?.length) return;
  const notes = claimed.sort((a, b) => a.created_at.localeCompare(b.created_at));
  try {
    const { data: profile } = await db
      .from('profiles')
      .select('email, language')
      .eq('id', userId)
      .maybeSingle();
    if (!profile?.email) return;
    const lang = mailLanguage(profile.language);
    const m = mailText[lang].digest;
    const site = siteUrl();
    const lines = notes.slice(0, DIGEST_LINES).map((n) => digestLine(n, lang));
    const more = notes.length - lines.length;
    const url = `${site}/dashboard/notify-me`;
    const intro = m.intro(notes.length);
    const tail = more > 0 ? [m.more(more)] : [];
    await sendMail({
      to: profile.email,
      subject: m.subject(notes.length),
      text: `${[intro, ...lines, ...tail].join('\n\n')}\n\n${m.seeAll}: ${url}\n`,
      html: `${paragraphs([intro])}<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>${paragraphs(tail)}${link(url, m.seeAllLink)}`,
    });
    result.sent++;
  } catch (e) {
    console.error(`digest for ${userId} could not be e-mailed`, e);
    await db
      .from('notifications')
      .update({ emailed_at: null })
      .in(
        'id',
        notes.map((n) => n.id),
      );
    result.failed++;
  }
}

function digestLine(n: NotificationRow, lang: MailLanguage): string {
  const m = mailText[lang].digest;
  const what = n.identifier == null ? m.anIdentifier : defang(n.identifier);
  if (n.kind === 'identifier_reported') return m.reported(what);
  if (n.kind === 'removal_requested') return m.removal(what);
  return m.status(what);
}

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
    const { data: profile } = await db
      .from('profiles')
      .select('email, language')
      .eq('id', n.user_id)
      .maybeSingle();
    const report: ReportSummary | null = n.report_id
      ? (
          await db
            .from('reports')
            .select(
              'id, created_at, reported_account, reported_account_type, incident_type, status, status_reason, status_note',
            )
            .eq('id', n.report_id)
            .maybeSingle()
        ).data
      : null;
    const stale =
      n.kind === 'identifier_reported' &&
      report &&
      Date.parse(n.created_at) - Date.parse(report.created_at) > STALE_REPORT_MS;
    const mail = stale ? null : await compose(n, report, mailLanguage(profile?.language));
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

/**
 * Runs `task` now or, when a run is already under way, once more right after it, however many calls
 * came meanwhile: whatever was there before a run started is seen by that run, and a burst of calls
 * costs two runs instead of one each. A run that fails does not stop the next. The promise settles when
 * the runs it joined are done.
 */
export function coalesce(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await task().catch(() => undefined);
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

const dispatchCoalesced = coalesce(async () => {
  await dispatchPending().catch((e) => console.error('notification dispatch failed', e));
});

/**
 * Runs a dispatch after the current answer, without delaying it; failures only reach the log. Under a
 * burst of reports the dispatches of one function instance queue up as one more run (coalesce), not
 * one run per report: each run reads every pending notification.
 */
export function dispatchSoon(): void {
  const task = dispatchCoalesced();
  // On Supabase's edge runtime, waitUntil keeps the worker alive until the background task ends.
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (p: Promise<unknown>) => void } }).EdgeRuntime;
  runtime?.waitUntil?.(task);
}
