/**
 * What a verified identifier is listed as in the threat-intelligence feeds (issue 34, docs/feeds.md):
 * its TLP, its indicator type and the value the feed lists, or nothing.
 *
 * Kinds are read generically, by the shape of the canonical value, so kinds added later (social media
 * and chat accounts, short links, platform accounts) need no change here:
 *   - a value that is a host, or a host with a path ('bit.ly/abc', 'facebook.com/some.page'), is a
 *     link: TLP:CLEAR, listed as a domain (host only) or a URL (host and path). The whole domain of a
 *     shared platform or a link shortener is never listed, only the account or short link on it:
 *     a bare host is left out when it is on the list of shorteners and platforms (SHARED_HOSTS, plus the
 *     admins' shortener list, plus the brands' own domains) or is itself a private suffix (tldts: a
 *     hosting platform such as blogspot.com or web.app, whose subdomains belong to its users);
 *   - crypto addresses: TLP:CLEAR (public ledgers; blocklists share them);
 *   - mobile numbers, e-wallet accounts, e-mail addresses and any other kind: TLP:AMBER, the partner
 *     feed only (personal data under the Data Privacy Act).
 */
import { parse as parseHost } from 'npm:tldts@7.5.4';

export type Tlp = 'clear' | 'amber';

/** How a feed lists an identifier. `type` names the indicator: url, domain, ip, email, phone, ewallet, crypto, account. */
export interface Listing {
  tlp: Tlp;
  type: string;
  /** What the feed lists: a URL (https://host/path), a host, an address or a number. */
  value: string;
  /** The host of a link (url, domain, ip), for brand matching and takedown reports. */
  host?: string;
}

/**
 * Hosts of shared platforms where anyone gets an account or page, and of link shorteners. Their whole
 * domain is never listed (nor any subdomain of it), only a path on it. The admins' shortener list
 * (public.check_domain_lists) and the brands' official domains are added at run time.
 */
export const SHARED_HOSTS: readonly string[] = [
  // social media, chat, video
  'facebook.com',
  'fb.com',
  'fb.me',
  'messenger.com',
  'm.me',
  'instagram.com',
  'threads.net',
  'tiktok.com',
  'x.com',
  'twitter.com',
  'youtube.com',
  'youtu.be',
  'linkedin.com',
  'reddit.com',
  'pinterest.com',
  't.me',
  'telegram.me',
  'telegram.org',
  'wa.me',
  'whatsapp.com',
  'viber.com',
  'line.me',
  'discord.com',
  'discord.gg',
  'snapchat.com',
  'kakao.com',
  'wechat.com',
  'weixin.qq.com',
  // documents, forms and pages on big shared domains
  'sites.google.com',
  'docs.google.com',
  'drive.google.com',
  'forms.gle',
  'google.com',
  'goo.gl',
  'forms.office.com',
  'onedrive.live.com',
  '1drv.ms',
  'sharepoint.com',
  'dropbox.com',
  'github.com',
  'gitlab.com',
  'medium.com',
  'linktr.ee',
  'typeform.com',
  'jotform.com',
  // marketplaces where shops are accounts
  'shopee.ph',
  'lazada.com.ph',
  'carousell.ph',
  'marketplace.facebook.com',
  // link shorteners (the admins' list in public.check_domain_lists is added at run time)
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'is.gd',
  'v.gd',
  'cutt.ly',
  'rb.gy',
  'shorturl.at',
  'ow.ly',
  's.id',
  'tiny.cc',
  'rebrand.ly',
  't.ly',
];

/**
 * Site builders and hosts whose subdomains are their users' own sites (name.wordpress.com), not all
 * of them in the Public Suffix List: the bare domain (and www) is never listed, a user's subdomain is.
 * Those in the list's private section (blogspot.com, web.app, github.io ...) tldts finds by itself.
 */
export const HOSTING_ROOTS: readonly string[] = [
  'wordpress.com',
  'wixsite.com',
  'weebly.com',
  'webflow.io',
  'carrd.co',
  'notion.site',
  'canva.site',
  'blogspot.com',
  'square.site',
  'mystrikingly.com',
  'godaddysites.com',
  'firebaseapp.com',
  'web.app',
  'netlify.app',
  'vercel.app',
  'pages.dev',
  'github.io',
  'glitch.me',
  'replit.app',
  '000webhostapp.com',
];

/** Link-like canonical values: a host (with a dot) and an optional path, scheme optional. */
const LINK =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^\s/?#@:]+\.[^\s/?#@:.]{2,}|\d{1,3}(?:\.\d{1,3}){3})\.?(?::\d+)?([/?#]\S*)?$/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True when host is one of the hosts or below one of them. */
function under(host: string, hosts: ReadonlySet<string>): boolean {
  for (let i = -1; ;) {
    if (hosts.has(i < 0 ? host : host.slice(i + 1))) return true;
    i = host.indexOf('.', i + 1);
    if (i < 0) return false;
  }
}

/** The host and path (without the query and fragment) of a link-like value, or null. */
export function splitLink(value: string): { host: string; path: string } | null {
  const m = LINK.exec(value.trim());
  if (!m) return null;
  const host = m[1].toLowerCase().replace(/\.$/, '');
  const rest = m[2] ?? '';
  // The query and fragment often carry a victim's token or e-mail address: never listed.
  const path = rest.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return { host, path };
}

export class Classifier {
  private readonly shared: ReadonlySet<string>;
  private readonly roots: ReadonlySet<string> = new Set(HOSTING_ROOTS);

  /** extraShared: hosts added to SHARED_HOSTS (shorteners from the database, brands' own domains). */
  constructor(extraShared: Iterable<string> = []) {
    this.shared = new Set([...SHARED_HOSTS, ...extraShared].map((h) => h.toLowerCase()));
  }

  /** How a host (with an optional path) is listed, or null when only its whole shared domain would be. */
  private link(host: string, path: string): Listing | null {
    if (IPV4.test(host)) {
      return path
        ? { tlp: 'clear', type: 'url', value: `http://${host}${path}`, host }
        : { tlp: 'clear', type: 'ip', value: host, host };
    }
    if (path) return { tlp: 'clear', type: 'url', value: `https://${host}${path}`, host };
    if (under(host, this.shared)) return null;
    if (this.roots.has(host.replace(/^www\./, ''))) return null;
    const parsed = parseHost(host, { allowPrivateDomains: true });
    // The host is itself a (private or ICANN) suffix: a platform's own domain, shared by its users.
    if (!parsed.domain || parsed.publicSuffix === host) return null;
    return { tlp: 'clear', type: 'domain', value: host, host };
  }

  /** The listing of one verified identifier (kind as stored, canonical form), or null. */
  classify(kind: string, canonical: string): Listing | null {
    const value = canonical.trim();
    if (!value) return null;
    switch (kind) {
      case 'mobile':
        return { tlp: 'amber', type: 'phone', value };
      case 'ewallet':
        return { tlp: 'amber', type: 'ewallet', value };
      case 'email':
        return EMAIL.test(value)
          ? { tlp: 'amber', type: 'email', value }
          : { tlp: 'amber', type: 'account', value };
      case 'crypto':
        return { tlp: 'clear', type: 'crypto', value };
    }
    const link = splitLink(value);
    if (link) return this.link(link.host, link.path);
    // A kind this code does not know and that is not a link (a chat handle, say): personal, partners only.
    return { tlp: 'amber', type: kind === 'website' ? 'domain' : 'account', value };
  }
}
