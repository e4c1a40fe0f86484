/**
 * Auth's Send Email hook (issue 28, "Mail"): with `[auth.hook.send_email]` enabled in config.toml, GoTrue
 * (hosted, and the local stand-in the same way) sends no e-mail itself but posts {user, email_data} here,
 * signed with Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`, the secret
 * SEND_EMAIL_HOOK_SECRET as "v1,whsec_<base64>"). This function:
 *
 * 1. refuses anything not signed with the secret, or signed more than 5 minutes ago (401);
 * 2. spends each recipient's daily allowance of e-mails in Postgres (public.mail_recipient_take, limit
 *    `mail.recipient`), the per-recipient cap every e-mail the product sends goes through; past it, Auth
 *    is told to answer 429, so a flood of sign-ups, e-mail changes or codes to one address stops there;
 * 3. renders the e-mail from the templates config.toml names (English or Filipino by the user's locale)
 *    and sends it through the product's SMTP transport (_shared/mail.ts).
 *
 * Errors go back in the shape GoTrue turns into its answer: `{"error": {"http_code", "message"}}` with
 * status 200 (GoTrue treats any other status as the hook failing: a 500 to the caller).
 * docs/security.md "E-mail" and docs/deploying.md say how to configure it.
 */
import { Webhook } from 'npm:standardwebhooks@1.1.1';
import { requireEnv } from '../_shared/env.ts';
import { json } from '../_shared/http.ts';
import { sendMail } from '../_shared/mail.ts';
import { serviceClient } from '../_shared/service.ts';
import { hookInputSchema, MAX_HOOK_BODY_BYTES, recipients, renderMails } from './hook.ts';

function hookError(status: number, message: string, httpCode = status): Response {
  return json({ error: { http_code: httpCode, message } }, status);
}

/** The webhook secret without its "v1,whsec_" prefix, as the standardwebhooks package takes it. */
function hookSecret(): string {
  return requireEnv('SEND_EMAIL_HOOK_SECRET').replace(/^v1,whsec_/, '');
}

Deno.serve(async (req) => {
  if (req.method !== 'POST') return hookError(405, 'Method not allowed');
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_HOOK_BODY_BYTES) return hookError(413, 'Payload too large');
  const payload = await req.text();
  if (new TextEncoder().encode(payload).length > MAX_HOOK_BODY_BYTES)
    return hookError(413, 'Payload too large');

  let body: unknown;
  try {
    body = new Webhook(hookSecret()).verify(payload, Object.fromEntries(req.headers));
  } catch (e) {
    console.warn(`send-email: refused an unsigned or badly signed call: ${(e as Error).message}`);
    return hookError(401, 'Invalid webhook signature');
  }
  const parsed = hookInputSchema.safeParse(body);
  if (!parsed.success) return hookError(400, `Invalid hook payload: ${parsed.error.issues[0]?.message}`);
  const input = parsed.data;

  // The cap first, for every recipient: nothing leaves when one of them has had today's e-mails.
  for (const { to } of recipients(input)) {
    if (!to) return hookError(400, 'Invalid hook payload: no recipient address');
    const { data, error } = await serviceClient().rpc('mail_recipient_take', { p_email: to });
    if (error) {
      console.error('send-email: mail_recipient_take failed', error);
      return hookError(200, 'Could not send the e-mail right now, please try again', 503);
    }
    if (Number(data) > 0)
      return hookError(200, 'Too many e-mails were sent to this address today; please try again later', 429);
  }

  const authUrl = `${requireEnv('SUPABASE_URL').replace(/\/+$/, '')}/auth/v1`;
  for (const mail of renderMails(input, authUrl)) {
    try {
      await sendMail(mail);
    } catch (e) {
      console.error(`send-email: sending a ${input.email_data.email_action_type} e-mail failed`, e);
      return hookError(200, 'Could not send the e-mail right now, please try again', 500);
    }
  }
  return json({});
});
