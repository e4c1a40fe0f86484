/**
 * What one person may put in an e-mail ScamCheck sends to another (issue 28, "attacker-worded mail"):
 * only quoted, link-free text. `quotedText` turns free text into a short plain quotation that no mail
 * client can show as a link, and `takeRecipient` spends the recipient's daily allowance of e-mails
 * (public.mail_recipient_take, limit mail.recipient) before the product sends one. Removal notices,
 * the legacy register's notices and e-mail changes use both; docs/security.md "E-mail".
 */
import { HttpError } from './http.ts';
import { serviceClient } from './service.ts';

/** The longest quotation, in characters, after cleaning. */
export const QUOTE_MAX_CHARS = 300;

const LINK_LIKE = [
  // scheme:// and the schemes mail clients make clickable without slashes
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/\S*/gi,
  /\b(?:mailto|tel|sms|javascript|data|file|ftp|www):\S*/gi,
  // anything a client autolinks as a host: labels joined by dots (or look-alike dots) ending in letters
  /\b(?:[\p{L}\p{N}-]+[.\u3002\uff0e\uff61\u2024]\s?)+\p{L}{2,}\b\S*/giu,
  // e-mail addresses
  /\S+@\S+/g,
];

/**
 * Free text as a quotation that carries no link: control characters, bidirectional controls and
 * zero-width characters removed, whitespace folded, anything a mail client could show as a link
 * (URLs, host names, addresses) replaced by "[link removed]", cut to QUOTE_MAX_CHARS, and wrapped in
 * quotation marks. The result is plain text: HTML mail must still escape it.
 */
export function quotedText(text: string, maxChars = QUOTE_MAX_CHARS): string {
  let s = text
    .normalize('NFKC')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  for (const pattern of LINK_LIKE) s = s.replace(pattern, '[link removed]');
  // Quotation marks inside cannot close the quotation early.
  s = s.replace(/["\u201c\u201d]/g, "'");
  const chars = [...s];
  if (chars.length > maxChars) s = `${chars.slice(0, maxChars - 1).join('')}…`;
  return `"${s}"`;
}

/**
 * Spends one e-mail of `to`'s daily allowance (public.mail_recipient_take); 429 with Retry-After when
 * the address has had its e-mails for today. Call it before sending anything someone else caused.
 */
export async function takeRecipient(to: string): Promise<void> {
  const { data, error } = await serviceClient().rpc('mail_recipient_take', { p_email: to });
  if (error) {
    console.error('mail_recipient_take failed', error);
    throw new HttpError(502, 'Could not send the e-mail right now, please try again');
  }
  const wait = Number(data);
  if (wait > 0)
    throw new HttpError(
      429,
      'Too many e-mails were sent to this address today; please try again later',
      { retryAfter: wait },
      { 'Retry-After': String(wait) },
    );
}
