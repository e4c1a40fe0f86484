/**
 * Which social and chat accounts the `ownership` function can prove by a code in their public bio
 * (issue 32, docs/right-of-reply.md), and where each one's public page is. Dependency-free: the app
 * imports it too, to say whether "Check now" can work or evidence for an admin's review is the way.
 *
 * Only Telegram: t.me/<name> (users, bots, channels, groups and invite links) is served as plain HTML
 * to a visitor who is not signed in, with the bio in `og:description` and `.tgme_page_description`.
 * The others need a sign-in or render the bio in the browser with JavaScript (Facebook, Instagram, X,
 * TikTok, Shopee, Lazada, WhatsApp groups), answer robots with a consent or login wall, or have no bio
 * (Google Forms, Marketplace items): their owners send evidence for an admin's review instead.
 */

export type BioPlatform = 'telegram';

/** The public page's base address per platform; tests point it at a server they start. */
export type BioPageBases = Record<BioPlatform, string>;

export const DEFAULT_BIO_PAGE_BASES: BioPageBases = { telegram: 'https://t.me/' };

/** The platform whose public page shows the bio of this canonical 'social' account, or null. */
export function bioPlatform(canonical: string): BioPlatform | null {
  // Telegram names are letters, digits and _; invite links' hashes are base64url.
  return /^t\.me\/(\+?[A-Za-z0-9_-]+|joinchat\/[A-Za-z0-9_-]+)$/.test(canonical) ? 'telegram' : null;
}

/** The address of the account's public page (from `bases`), or null when no platform shows its bio. */
export function bioPageUrl(canonical: string, bases: BioPageBases = DEFAULT_BIO_PAGE_BASES): string | null {
  const platform = bioPlatform(canonical);
  if (!platform) return null;
  // bioPlatform let only letters, digits, _, -, + and one joinchat/ through: nothing to escape.
  return new URL(canonical.slice('t.me/'.length), bases[platform]).href;
}
