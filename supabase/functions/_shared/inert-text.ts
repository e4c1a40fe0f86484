/**
 * Text that another person wrote, made inert for an e-mail ScamCheck sends (issue 27): a removal
 * requester's reason reached the reporter under ScamCheck's sender with a working phishing link in it.
 * Whatever a stranger wrote (a reason, a contact address, a reported identifier) goes into a mail only
 * through these functions:
 *   - no control characters, at most `max` characters;
 *   - no link a mail client would make: URL schemes are broken (`https://` becomes `hxxps[:]//`),
 *     every dot between letters or digits becomes `[.]` and every `@` becomes `[at]`, the way security
 *     notices quote indicators, so neither the text nor a client's auto-linking gives a clickable
 *     address or host;
 *   - quoted as quotation, never as ScamCheck's own words (`> ` lines in text, a blockquote in HTML,
 *     HTML-escaped).
 */

/** HTML-escapes as mail.ts's escapeHtml does (not imported: this file stays free of the mail transport). */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SCHEME = /\bhttp(s?):/gi;
const OTHER_SCHEME = /\b(ftps?|mailto|tel|sms|callto|javascript|data|file|intent|viber|whatsapp|tg)(:)/gi;
const DOT = /(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}_-])/gu;
// Letters and digits of other scripts that look like a dot (fullwidth, ideographic, one-dot leader).
const DOT_LIKE = /[\uFF0E\u3002\uFF61\u2024]/g;

/** One line of another person's text, link-free: schemes broken, dots and at signs bracketed. */
export function defang(value: string, max = 320): string {
  // eslint-disable-next-line no-control-regex
  let s = value.replace(
    /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u2028-\u202E\u2060-\u206F]/g,
    '',
  );
  if (s.length > max) s = `${s.slice(0, max - 1)}…`;
  return s
    .replace(DOT_LIKE, '.')
    .replace(SCHEME, 'hxxp$1[:]')
    .replace(OTHER_SCHEME, (_m, scheme: string) => `${scheme}[:]`)
    .replace(/:\/\//g, '[:]//')
    .replace(DOT, '[.]')
    .replace(/@/g, '[at]');
}

/** Another person's text as a quotation: its lines defanged, each starting with "> ". */
export function quoteText(value: string, max = 1000): string {
  const lines = defang(value.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n'), max).split('\n');
  // defang dropped control characters but kept newlines (\n is \u000A, not in its class).
  return lines.map((l) => `> ${l}`).join('\n');
}

/** The same quotation as HTML: escaped, in a blockquote, never a link. */
export function quoteHtml(value: string, max = 1000): string {
  const lines = defang(value.replace(/\r\n?/g, '\n').replace(/\n{3,}/g, '\n\n'), max).split('\n');
  return `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc;color:#444">${lines
    .map((l) => escapeHtml(l))
    .join('<br>')}</blockquote>`;
}
