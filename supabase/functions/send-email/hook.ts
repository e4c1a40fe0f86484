/**
 * What the Send Email hook receives and which e-mails it makes of it (issue 28, "Mail"). GoTrue, hosted
 * and the local stand-in alike, posts {user, email_data} instead of sending an e-mail itself; this module
 * checks that body and renders the e-mails from the same templates config.toml names (templates.ts,
 * embedded by `npm run templates:embed`), in the user's language. No Deno API here, so the unit tests run
 * it as it is.
 */
import { z } from 'npm:zod@4.6.7';
import { htmlToText, parseTemplate, renderTemplate } from '../_shared/go-template.ts';
import { TEMPLATES, type TemplateKind } from './templates.ts';

/** The largest hook body taken (GoTrue's is a user and a few tokens: a few KB; metadata is capped at 4 KB). */
export const MAX_HOOK_BODY_BYTES = 64 * 1024;

const ACTION_TEMPLATES: Record<string, TemplateKind> = {
  signup: 'confirmation',
  recovery: 'recovery',
  magiclink: 'magic_link',
  invite: 'invite',
  email_change: 'email_change',
  reauthentication: 'reauthentication',
};

export const hookInputSchema = z.object({
  user: z.looseObject({
    email: z.string().max(320).optional().default(''),
    new_email: z.string().max(320).optional().default(''),
    user_metadata: z.record(z.string(), z.unknown()).optional().default({}),
  }),
  email_data: z.object({
    token: z.string().max(64).optional().default(''),
    token_hash: z.string().max(200).optional().default(''),
    redirect_to: z.string().max(2048).optional().default(''),
    email_action_type: z.enum(Object.keys(ACTION_TEMPLATES) as [string, ...string[]]),
    site_url: z.string().max(2048).optional().default(''),
    token_new: z.string().max(64).optional().default(''),
    token_hash_new: z.string().max(200).optional().default(''),
  }),
});
export type HookInput = z.infer<typeof hookInputSchema>;

export interface AuthMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * The recipients and their code: one e-mail, or two for a secure e-mail change. GoTrue's e-mail change
 * keeps a historical quirk (Supabase's send-email-hook guide, "Email change behavior"): with Secure Email
 * Change, `token` is the current address's code and `token_new` the new one's, but `token_hash` belongs
 * to the NEW address and `token_hash_new` to the current one. Without it only `token`/`token_hash` are
 * set, for the new address.
 */
export function recipients(input: HookInput): { to: string; token: string; tokenHash: string }[] {
  const { user, email_data: d } = input;
  if (d.email_action_type !== 'email_change')
    return [{ to: user.email, token: d.token, tokenHash: d.token_hash }];
  if (!d.token_new) return [{ to: user.new_email, token: d.token, tokenHash: d.token_hash }];
  return [
    { to: user.new_email, token: d.token_new, tokenHash: d.token_hash },
    { to: user.email, token: d.token, tokenHash: d.token_hash_new },
  ];
}

/** The link GoTrue's own e-mails carry: its /verify with the token hash, the type and the redirect. */
export function confirmationUrl(
  authUrl: string,
  tokenHash: string,
  type: string,
  redirectTo: string,
): string {
  // As GoTrue writes it: the redirect is escaped only when it holds '&', '=' or '#' (else it is taken
  // to be escaped already), so the hook's mails carry the same link as Auth's own.
  const redirect = /[&=#]/.test(redirectTo) ? encodeURIComponent(redirectTo) : redirectTo;
  return `${authUrl}/verify?token=${encodeURIComponent(tokenHash)}&type=${encodeURIComponent(type)}&redirect_to=${redirect}`;
}

/** The e-mails for one hook call, rendered as GoTrue renders its templates (same variables). */
export function renderMails(input: HookInput, authUrl: string): AuthMail[] {
  const { user, email_data: d } = input;
  const template = TEMPLATES[ACTION_TEMPLATES[d.email_action_type]];
  return recipients(input).map(({ to, token, tokenHash }) => {
    const data = {
      SiteURL: d.site_url,
      ConfirmationURL: confirmationUrl(authUrl, tokenHash, d.email_action_type, d.redirect_to || d.site_url),
      Email: user.email,
      NewEmail: user.new_email,
      SendingTo: to,
      Token: token,
      TokenHash: tokenHash,
      RedirectTo: d.redirect_to,
      Data: user.user_metadata,
    };
    const html = renderTemplate(parseTemplate(template.body), data);
    return {
      to,
      subject: renderTemplate(parseTemplate(template.subject), data, false),
      html,
      text: htmlToText(html),
    };
  });
}
