/**
 * An admin replies by e-mail to a contact message (issue 31 item 4, docs/moderation.md):
 * `POST { message: <contact message id>, body: <the reply, 1-5,000 characters> }`.
 *
 * The database decides and keeps the record: `public.admin_reply_contact_message`, called as the caller,
 * refuses anyone but an admin, stores the reply and marks the message handled by them; this function then
 * sends the e-mail over the product's SMTP (implicit TLS, _shared/mail.ts: what hosted allows) and records
 * the outcome with `public.record_contact_reply_sent` (service role). Answers 201 with the reply when it
 * was sent, 502 when the e-mail failed (the reply stays stored, with the error, and can be sent again by
 * replying again).
 */
import { preflight } from '../_shared/cors.ts';
import { HttpError, json, toErrorResponse } from '../_shared/http.ts';
import { readFields } from '../_shared/body.ts';
import { clientFor, requireUser } from '../_shared/supabase.ts';
import { serviceClient } from '../_shared/service.ts';
import { escapeHtml, sendMail } from '../_shared/mail.ts';
import { quoteHtml, quoteText } from '../_shared/inert-text.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Stored {
  reply_id: string;
  to: string;
  nickname: string | null;
  subject: string | null;
  message: string;
  received_at: string;
  body: string;
}

/** The reply e-mail: the admin's words, then the sender's own message quoted as inert text. */
function replyMail(s: Stored): { subject: string; text: string; html: string } {
  const subject = s.subject?.trim()
    ? `Re: ${s.subject.trim().slice(0, 180)}`
    : 'Re: your message to ScamCheck';
  const date = s.received_at.slice(0, 16).replace('T', ' ');
  const intro = `You wrote to ScamCheck on ${date} (UTC):`;
  const sign = 'ScamCheck';
  const paragraphs = s.body.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  return {
    subject,
    text: `${s.body}\n\n${sign}\n\n${intro}\n\n${quoteText(s.message, 5000)}\n`,
    html: `${paragraphs.join('')}<p>${sign}</p><p>${escapeHtml(intro)}</p>${quoteHtml(s.message, 5000)}`,
  };
}

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    if (req.method !== 'POST') throw new HttpError(405, 'Use POST');
    const caller = await requireUser(req);
    const fields = await readFields(req, 20_000);
    if (typeof fields.message !== 'string' || !UUID.test(fields.message))
      throw new HttpError(400, 'message must be a contact message id');
    if (typeof fields.body !== 'string') throw new HttpError(400, 'body is required');
    const { data, error } = await clientFor(caller).rpc('admin_reply_contact_message', {
      message_id: fields.message,
      body: fields.body,
    });
    if (error?.code === '42501') throw new HttpError(403, error.message);
    if (error?.code === 'P0002') throw new HttpError(404, error.message);
    if (error?.code === '22023') throw new HttpError(400, error.message);
    if (error) throw new HttpError(502, 'Could not store the reply right now, please try again');
    const stored = data as unknown as Stored;
    let failure: string | null = null;
    try {
      await sendMail({ to: stored.to, ...replyMail(stored) });
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
      console.error('contact reply e-mail failed', failure);
    }
    const { error: recordError } = await serviceClient().rpc('record_contact_reply_sent', {
      reply_id: stored.reply_id,
      error: failure ?? undefined,
    });
    if (recordError) console.error('recording the reply outcome failed', recordError.message);
    if (failure)
      return json(
        { reply: stored.reply_id, sent: false, msg: 'The reply is saved but the e-mail failed' },
        502,
      );
    return json({ reply: stored.reply_id, sent: true, to: stored.to }, 201);
  } catch (e) {
    return toErrorResponse(e);
  }
});
