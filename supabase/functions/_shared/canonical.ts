/**
 * Canonical identifiers: the one written form of a mobile number, e-mail, website, e-wallet, crypto
 * address or social media / chat account, however it was typed or pasted. This is the TypeScript twin of
 * public.canonical_identifier and public.detect_identifier_kind (supabase/migrations/20261122000200_identifiers.sql,
 * replaced by supabase/migrations/20261127130100_canonical_social_accounts.sql, whose
 * header lists the rules); supabase/tests/canonical-vectors.json pins both to the same answers.
 *
 * Pure TypeScript (no Deno or Node APIs): the SPA imports it through src/lib and the edge functions
 * through this folder.
 */

export const IDENTIFIER_KINDS = ['mobile', 'email', 'website', 'ewallet', 'crypto', 'social'] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/**
 * White space, spelled out: JavaScript's \s (Unicode White_Space and U+FEFF). Postgres's \s follows the
 * database's locale (with glibc it leaves out the no-break space U+00A0, which pasted numbers often
 * carry), so the SQL twin uses this same list and both sides agree on every database.
 */
const WS = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const PAYMENT_SCHEME = /^(bitcoin|ethereum|litecoin|tron|solana|dogecoin|bitcoincash):/i;
const EVM = /^0x[0-9a-f]{40}$/i;
const BECH32 = /^(bc|tb|ltc)1[02-9ac-hj-np-z]{6,87}$/i;
const BASE58_BITCOIN = /^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/;
const BASE58_LONG = /^[1-9A-HJ-NP-Za-km-z]{25,}$/;
const PHONE_CHARS = new RegExp(`^\\+?[0-9${WS}().-]+$`);
/** A phone number as detection reads it: its '+' may follow an opening bracket, '(+63) 917 123 4567'. */
const PHONE_LIKE = new RegExp(`^[${WS}(]*\\+?[0-9${WS}().-]+$`);
const EMAIL = new RegExp(`^[^${WS}@/:]+@[^${WS}@/:]+\\.[^${WS}@/:]+$`);
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
// 'u': the top-level label's length (at least 2) counts code points, as Postgres does ('!.\u{10000}' is 1).
const HOST_LIKE = new RegExp(`^(//)?[^${WS}/@]+\\.[^${WS}/@.:]{2,}\\.?([:/?#][\\s\\S]*)?$`, 'u');
const INTERNATIONAL = new RegExp(`^[${WS}]*(\\+|00)`);
const ANY_WS = new RegExp(`[${WS}]`, 'g');
/** Characters no host name has: white space and control characters. */
// eslint-disable-next-line no-control-regex
const NOT_IN_HOST = new RegExp(`[${WS}\\u0000-\\u001f\\u007f]`);

/** Trims like SQL btrim: spaces only. */
function btrim(value: string): string {
  return value.replace(/^ +| +$/g, '');
}

// ---------------------------------------------------------------------------------------------
// Clean-up of pasted text (issue 30): what every kind reads before anything else
// ---------------------------------------------------------------------------------------------
/** Unicode format characters (category Cf) that copied text carries: direction marks, zero-width ones. */
const FORMAT_CHARS = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
/** Dashes and minus signs people and phones put between digits. */
const DASHES = /[\u2010-\u2015\u2043\u2212\ufe58\ufe63\uff0d]/g;

/**
 * What a pasted identifier reads as: compatibility forms folded (NFKC: full-width digits and letters,
 * U+FF0E), format characters dropped (WhatsApp's U+202A/U+202C, U+200E, U+200B), dashes made '-', and
 * defanging undone (hxxps://, [.], (.), {.}, [dot], (dot), [:], [@], (@), [at], (at), [/]).
 */
export function cleanIdentifierText(value: string): string {
  return (
    value
      .normalize('NFKC')
      .replace(FORMAT_CHARS, '')
      .replace(DASHES, '-')
      // After any white space the kinds later drop (crypto drops it all), so a second pass changes nothing.
      .replace(new RegExp(`^([${WS}]*)h(xx)p(s?)(\\[:\\]|:)//`, 'i'), '$1http$3://')
      .replace(/\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)/gi, '.')
      .replace(/\[:\]/g, ':')
      .replace(/\[@\]|\(@\)|\[at\]|\(at\)/gi, '@')
      .replace(/\[\/\]/g, '/')
  );
}

// ---------------------------------------------------------------------------------------------
// Accounts on shared platforms (issue 30)
// ---------------------------------------------------------------------------------------------
/** Hosts (without www.) of the platforms whose accounts are identifiers, and the platform each is. */
export const PLATFORM_HOSTS: Record<string, string> = {
  'facebook.com': 'facebook',
  'm.facebook.com': 'facebook',
  'web.facebook.com': 'facebook',
  'mbasic.facebook.com': 'facebook',
  'touch.facebook.com': 'facebook',
  'mobile.facebook.com': 'facebook',
  'business.facebook.com': 'facebook',
  'fb.com': 'facebook',
  'fb.me': 'facebook',
  'm.me': 'facebook',
  'messenger.com': 'messenger',
  'instagram.com': 'instagram',
  'm.instagram.com': 'instagram',
  'instagr.am': 'instagram',
  'tiktok.com': 'tiktok',
  'm.tiktok.com': 'tiktok',
  'x.com': 'x',
  'twitter.com': 'x',
  'mobile.twitter.com': 'x',
  'mobile.x.com': 'x',
  'youtube.com': 'youtube',
  'm.youtube.com': 'youtube',
  't.me': 'telegram',
  'telegram.me': 'telegram',
  'telegram.dog': 'telegram',
  'wa.me': 'whatsapp',
  'api.whatsapp.com': 'whatsapp',
  'whatsapp.com': 'whatsapp',
  'web.whatsapp.com': 'whatsapp',
  'chat.whatsapp.com': 'whatsapp-group',
  'shopee.ph': 'shopee',
  'lazada.com.ph': 'lazada',
  'docs.google.com': 'google-docs',
  'sites.google.com': 'google-sites',
  'linktr.ee': 'linktree',
};

/** Link shorteners: a short link is its host with its path (bit.ly/abc); the host alone is no one's. */
export const SHORTENER_HOSTS = [
  'bit.ly',
  'bitly.com',
  'tinyurl.com',
  't.co',
  'goo.gl',
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
  'shorte.st',
  'buff.ly',
  'qrco.de',
  'surl.li',
  'short.gy',
  'l.ead.me',
  'u.to',
  'clck.ru',
  'tny.im',
  'forms.gle',
  'maps.app.goo.gl',
  'vt.tiktok.com',
  'vm.tiktok.com',
  'fb.watch',
  'lnkd.in',
  'bit.do',
  'shorturl.asia',
  'tinyurl.ph',
  'go.gov.ph',
  'shope.ee',
  's.lazada.com.ph',
  'bitly.ws',
  'cutt.us',
  'linkin.bio',
] as const;

/**
 * Whether a canonical website host is one of the platforms listed here (a social network's or chat
 * app's own host, a link shortener, google.com): the part of isSharedPlatformHost
 * (platform-hosts.ts) that needs no Public Suffix List, so the SPA's results page can answer it
 * without loading tldts.
 */
export function isListedPlatformHost(host: string): boolean {
  return (
    host in PLATFORM_HOSTS || (SHORTENER_HOSTS as readonly string[]).includes(host) || host === 'google.com'
  );
}

/** First path parts that are a platform's own pages, not an account ('facebook.com/login'). */
const RESERVED: Record<string, string[]> = {
  facebook: [
    'login',
    'login.php',
    'home.php',
    'watch',
    'events',
    'photo.php',
    'photo',
    'photos',
    'story.php',
    'permalink.php',
    'help',
    'policies',
    'privacy',
    'settings',
    'search',
    'hashtag',
    'reel',
    'reels',
    'gaming',
    'marketplace',
    'groups',
    'pages',
    'people',
    'share',
    'sharer',
    'sharer.php',
    'dialog',
    'plugins',
    'notifications',
    'messages',
    'friends',
    'bookmarks',
    'recover',
    'r.php',
    'l.php',
    'video.php',
    'stories',
    'profile.php',
    'ads',
    'business',
    'legal',
    'about',
    'careers',
    'terms',
    'fundraisers',
  ],
  instagram: [
    'p',
    'reel',
    'reels',
    'explore',
    'accounts',
    'tv',
    'stories',
    'direct',
    'about',
    'legal',
    'developer',
  ],
  x: [
    'home',
    'i',
    'search',
    'intent',
    'share',
    'hashtag',
    'explore',
    'settings',
    'messages',
    'notifications',
    'login',
    'signup',
    'tos',
    'privacy',
  ],
  youtube: ['watch', 'results', 'shorts', 'playlist', 'feed', 'embed', 'live', 'premium', 'account', 'about'],
  telegram: ['share', 'addstickers', 'addemoji', 'login', 'setlanguage', 'proxy', 'socks', 'iv'],
  shopee: [
    'search',
    'cart',
    'buyer',
    'user',
    'mall',
    'daily_discover',
    'flash_sale',
    'm',
    'verify',
    'checkout',
    'product',
    'shop',
    'seller',
    'universal-link',
    'docs',
    'events3',
  ],
  linktree: ['s', 'admin', 'login', 'register'],
};

const ACCOUNT_NAME = /^[a-z0-9._-]+$/i;
const NUMERIC_ID = /^[0-9]{5,20}$/;
const URL_SAFE = /^[a-z0-9._~+=-]+$/i;

/** Lowercase as the SQL twin does (full Unicode mapping of U+0130). */
function lower(value: string): string {
  return value.toLowerCase();
}

/** The query parameter `name` of a query string (without '?'), percent-decoded for '+' and spaces only. */
function queryParam(query: string, name: string): string | null {
  const m = new RegExp(`(^|&)${name}=([^&]*)`, 'i').exec(query);
  if (!m) return null;
  return m[2].replace(/%2b/gi, '+').replace(/%20/g, ' ');
}

export interface PlatformAccount {
  /** 'social' for an account on a platform, 'mobile' for a chat link to a phone number, 'website' for a short link. */
  kind: 'social' | 'mobile' | 'website';
  canonical: string;
}

/**
 * The account a link on a shared platform names, in its one canonical form: 'facebook.com/<page>',
 * 'facebook.com/profile.php?id=<n>', 'facebook.com/groups/<group>', 'facebook.com/marketplace/item/<n>',
 * 'instagram.com/<name>', 'tiktok.com/@<name>', 'x.com/<name>', 'youtube.com/@<name>', 't.me/<name>',
 * 'chat.whatsapp.com/<code>', 'shopee.ph/<shop>', 'shopee.ph/shop/<id>', 'lazada.com.ph/shop/<name>',
 * 'docs.google.com/forms/d/e/<id>', 'sites.google.com/view/<name>', 'linktr.ee/<name>'; a WhatsApp or
 * Viber chat link is its phone number; a short link is its host and path (case kept: 'bit.ly/AbC').
 * null when the value is not such a link, or names no account (the platform's own pages, its home).
 * `value` is already cleaned (cleanIdentifierText) and trimmed.
 */
export function platformAccount(value: string): PlatformAccount | null {
  let s = value;
  if (/^viber:\/\//i.test(s)) {
    const q = s.includes('?') ? s.slice(s.indexOf('?') + 1) : '';
    const number = queryParam(q.replace(/#[\s\S]*$/, ''), 'number');
    const phone = number ? canonicalPhone(number) : null;
    return phone && /^\+?[0-9]{7,15}$/.test(phone) ? { kind: 'mobile', canonical: phone } : null;
  }
  if (/^https?:\/\//i.test(s)) s = s.replace(/^https?:\/\//i, '');
  else if (s.startsWith('//')) s = s.slice(2);
  else if (URL_SCHEME.test(s)) return null;
  const hostEnd = s.search(/[/?#]/);
  let host = lower(hostEnd < 0 ? s : s.slice(0, hostEnd));
  const rest = hostEnd < 0 ? '' : s.slice(hostEnd);
  host = host
    .replace(/:[0-9]*$/, '')
    .replace(/\.+$/, '')
    .replace(/^www\./, '');
  const path = rest.replace(/[?#][\s\S]*$/, '');
  const qm = /^[^?#]*\?([^#]*)/.exec(rest);
  const query = qm ? qm[1] : '';
  const segs = path.split('/').filter((p) => p !== '');
  if (segs.some((p) => NOT_IN_HOST.test(p))) return null;
  const first = segs[0] ?? '';
  const firstLower = lower(first);

  if ((SHORTENER_HOSTS as readonly string[]).includes(host)) {
    if (segs.length === 0 || !segs.every((p) => URL_SAFE.test(p))) return null;
    return { kind: 'website', canonical: `${host}/${segs.join('/')}` };
  }
  const platform = PLATFORM_HOSTS[host];
  if (!platform) return null;
  const reserved = RESERVED[platform] ?? [];
  const name = (n: string | undefined) => (n !== undefined && ACCOUNT_NAME.test(n) ? lower(n) : null);
  const social = (c: string | null): PlatformAccount | null => (c ? { kind: 'social', canonical: c } : null);
  switch (platform) {
    case 'facebook': {
      const fbId = (id: string | null | undefined) =>
        id && NUMERIC_ID.test(id) ? `facebook.com/profile.php?id=${id}` : null;
      if (firstLower === 'profile.php') return social(fbId(queryParam(query, 'id')));
      if (firstLower === 'people') return social(fbId(segs[2]));
      if (firstLower === 'pages') return social(fbId(segs[segs.length - 1]));
      if (firstLower === 'groups') {
        const g = name(segs[1]);
        return social(g ? `facebook.com/groups/${g}` : null);
      }
      if (firstLower === 'marketplace' && lower(segs[1] ?? '') === 'item')
        return social(NUMERIC_ID.test(segs[2] ?? '') ? `facebook.com/marketplace/item/${segs[2]}` : null);
      if (NUMERIC_ID.test(first)) return social(fbId(first));
      if (reserved.includes(firstLower)) return null;
      const n = name(first);
      return social(n ? `facebook.com/${n}` : null);
    }
    case 'messenger': {
      if (firstLower !== 't') return null;
      const id = segs[1] ?? '';
      if (NUMERIC_ID.test(id)) return social(`facebook.com/profile.php?id=${id}`);
      const n = name(id);
      return social(n ? `facebook.com/${n}` : null);
    }
    case 'instagram': {
      const n = firstLower === 'stories' ? name(segs[1]) : reserved.includes(firstLower) ? null : name(first);
      return social(n ? `instagram.com/${n}` : null);
    }
    case 'tiktok': {
      const n = first.startsWith('@') ? name(first.slice(1)) : null;
      return social(n ? `tiktok.com/@${n}` : null);
    }
    case 'x': {
      const n = reserved.includes(firstLower) ? null : name(first);
      return social(n ? `x.com/${n}` : null);
    }
    case 'youtube': {
      if (first.startsWith('@')) {
        const n = name(first.slice(1));
        return social(n ? `youtube.com/@${n}` : null);
      }
      if (firstLower === 'channel' && segs[1] && URL_SAFE.test(segs[1]))
        return social(`youtube.com/channel/${segs[1]}`);
      if (firstLower === 'c' || firstLower === 'user') {
        const n = name(segs[1]);
        return social(n ? `youtube.com/${firstLower}/${n}` : null);
      }
      return null;
    }
    case 'telegram': {
      if (first.startsWith('+') && URL_SAFE.test(first)) return social(`t.me/${first}`);
      if (firstLower === 'joinchat' && segs[1] && URL_SAFE.test(segs[1]))
        return social(`t.me/joinchat/${segs[1]}`);
      const n = firstLower === 's' ? name(segs[1]) : reserved.includes(firstLower) ? null : name(first);
      return social(n ? `t.me/${n}` : null);
    }
    case 'whatsapp': {
      let number: string | null = null;
      if (host === 'wa.me') {
        if (firstLower === 'message' && segs[1] && URL_SAFE.test(segs[1]))
          return social(`wa.me/message/${segs[1]}`);
        number = first;
      } else if (firstLower === 'send' || segs.length === 0) number = queryParam(query, 'phone');
      if (!number || !/^\+?[0-9]{7,15}$/.test(number.replace(/[ ]/g, ''))) return null;
      // wa.me numbers are international without '+'; a local '0917...' is read as typed
      const phone = canonicalPhone(/^[+0]/.test(number) ? number : `+${number}`);
      return phone ? { kind: 'mobile', canonical: phone } : null;
    }
    case 'whatsapp-group':
      return segs[0] && URL_SAFE.test(segs[0]) && firstLower !== 'invite'
        ? social(`chat.whatsapp.com/${segs[0]}`)
        : null;
    case 'shopee': {
      // a product page names its shop: /Name-of-item-i.<shop>.<item> or /product/<shop>/<item>
      const product = /-i\.([0-9]+)\.[0-9]+$/.exec(segs[segs.length - 1] ?? '');
      if (product) return social(`shopee.ph/shop/${product[1]}`);
      if ((firstLower === 'product' || firstLower === 'shop') && segs[1] && /^[0-9]+$/.test(segs[1]))
        return social(`shopee.ph/shop/${segs[1]}`);
      if (reserved.includes(firstLower) || segs.length !== 1) return null;
      const n = name(first);
      return social(n ? `shopee.ph/${n}` : null);
    }
    case 'lazada': {
      const n = firstLower === 'shop' ? name(segs[1]) : null;
      return social(n ? `lazada.com.ph/shop/${n}` : null);
    }
    case 'google-docs': {
      if (firstLower !== 'forms' || lower(segs[1] ?? '') !== 'd') return null;
      if (lower(segs[2] ?? '') === 'e')
        return segs[3] && URL_SAFE.test(segs[3]) ? social(`docs.google.com/forms/d/e/${segs[3]}`) : null;
      return segs[2] && URL_SAFE.test(segs[2]) ? social(`docs.google.com/forms/d/${segs[2]}`) : null;
    }
    case 'google-sites': {
      const n = firstLower === 'view' || firstLower === 'site' ? name(segs[1]) : null;
      return social(n ? `sites.google.com/${firstLower}/${n}` : null);
    }
    case 'linktree': {
      const n = reserved.includes(firstLower) ? null : name(first);
      return social(n ? `linktr.ee/${n}` : null);
    }
    default:
      return null;
  }
}

/** Phone number in E.164 form; Philippine mobiles typed locally (0917..., 917...) become +639XXXXXXXXX. */
export function canonicalPhone(value: string): string | null {
  let international = INTERNATIONAL.test(value);
  let digits = value.replace(/[^0-9]/g, '');
  if (digits === '') return btrim(value).toLowerCase() || null;
  // '00' starts an international number however it is written ('(00) 63 ...'), and no country code
  // starts with 0: '+00 63...', '0063...' and '+63...' are one number.
  if (digits.startsWith('00')) international = true;
  if (international) digits = digits.replace(/^0+/, '');
  if (digits === '') return null;
  if (/^639\d{9}$/.test(digits)) return `+${digits}`;
  if (/^6309\d{9}$/.test(digits)) return `+63${digits.slice(3)}`;
  if (/^09\d{9}$/.test(digits) && !international) return `+63${digits.slice(1)}`;
  if (/^9\d{9}$/.test(digits) && !international) return `+63${digits}`;
  if (international) return `+${digits}`;
  return digits;
}

const PUNY = { base: 36, tmin: 1, tmax: 26, skew: 38, damp: 700, initialBias: 72, initialN: 128 };

function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  const { base, tmin, tmax, skew, damp } = PUNY;
  delta = firstTime ? Math.floor(delta / damp) : Math.floor(delta / 2);
  delta += Math.floor(delta / numPoints);
  let k = 0;
  while (delta > Math.floor(((base - tmin) * tmax) / 2)) {
    delta = Math.floor(delta / (base - tmin));
    k += base;
  }
  return k + Math.floor(((base - tmin + 1) * delta) / (delta + skew));
}

function punyDigit(d: number): string {
  return String.fromCharCode(d < 26 ? 97 + d : 22 + d);
}

/** Punycode (RFC 3492) of one DNS label with the xn-- prefix; ASCII labels come back unchanged. */
export function punycodeLabel(label: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\x01-\x7f]/.test(label)) return label;
  const { base, tmin, tmax, initialBias, initialN } = PUNY;
  const cps = Array.from(label, (ch) => ch.codePointAt(0)!);
  let output = cps
    .filter((c) => c < 128)
    .map((c) => String.fromCharCode(c))
    .join('');
  const b = output.length;
  let h = b;
  if (b > 0) output += '-';
  let n = initialN;
  let delta = 0;
  let bias = initialBias;
  while (h < cps.length) {
    const m = Math.min(...cps.filter((c) => c >= n));
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of cps) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = base; ; k += base) {
          const t = k <= bias ? tmin : k >= bias + tmax ? tmax : k - bias;
          if (q < t) break;
          output += punyDigit(t + ((q - t) % (base - t)));
          q = Math.floor((q - t) / (base - t));
        }
        output += punyDigit(q);
        bias = adapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
    }
    delta++;
    n++;
  }
  return `xn--${output}`;
}

/** Host of a website address in the form DNS uses: lowercase ASCII, punycode labels, without www. */
export function canonicalHost(value: string): string | null {
  let s = btrim(value).normalize('NFC').toLowerCase();
  s = s.replace(/[\u3002\uff0e\uff61]/g, '.');
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  s = s.replace(/^\/\//, '');
  s = s.replace(/[/?#\\][\s\S]*$/, '');
  s = s.replace(/^[\s\S]*@/, '');
  s = s.replace(/:\d*$/, '');
  s = s.replace(/\.+$/, '');
  s = s.replace(/^www\./, '');
  if (s === '' || NOT_IN_HOST.test(s)) return null;
  return s.split('.').map(punycodeLabel).join('.');
}

/** The canonical form of an identifier of a given kind; null for an empty value. */
export function canonicalIdentifier(kind: IdentifierKind, value: string): string | null {
  let s = btrim(cleanIdentifierText(value ?? ''));
  if (s === '') return null;
  switch (kind) {
    case 'mobile': {
      // a WhatsApp or Viber chat link is its number (its other digits are not)
      const chat = platformAccount(s);
      return chat?.kind === 'mobile' ? chat.canonical : canonicalPhone(s);
    }
    case 'email':
      return btrim(s.replace(/^(mailto: *)+/i, '')).toLowerCase() || null;
    case 'website':
      // an account on a shared platform, a chat link's number or a short link is that, not the platform
      return platformAccount(s)?.canonical ?? canonicalHost(s);
    case 'social': {
      const account = platformAccount(s);
      return account?.kind === 'social' ? account.canonical : null;
    }
    case 'ewallet':
      if (PHONE_CHARS.test(s) && /\d/.test(s)) return canonicalPhone(s);
      return s.toLowerCase();
    case 'crypto':
      s = s
        .replace(ANY_WS, '')
        .replace(PAYMENT_SCHEME, '')
        .replace(/[?@][\s\S]*$/, '');
      if (EVM.test(s) || BECH32.test(s)) return s.toLowerCase();
      return s || null;
    default:
      throw new Error(`unknown identifier kind: ${String(kind)}`);
  }
}

/** The kind a typed identifier most likely is (what search assumes); null for an empty value. */
export function detectIdentifierKind(value: string): IdentifierKind | null {
  // ideographic and full-width full stops separate labels as '.' does
  const s = btrim(cleanIdentifierText(value ?? '')).replace(/[\u3002\uff0e\uff61]/g, '.');
  if (s === '') return null;
  if (PAYMENT_SCHEME.test(s) || EVM.test(s) || BECH32.test(s)) return 'crypto';
  if (/^mailto:/i.test(s) || EMAIL.test(s)) return 'email';
  if (IPV4.test(s)) return 'website';
  const digitCount = s.replace(/[^0-9]/g, '').length;
  if (PHONE_LIKE.test(s) && digitCount >= 7 && digitCount <= 15) return 'mobile';
  if (BASE58_BITCOIN.test(s)) return 'crypto';
  if (URL_SCHEME.test(s) || HOST_LIKE.test(s)) return platformAccount(s)?.kind ?? 'website';
  if (BASE58_LONG.test(s)) return 'crypto';
  return 'ewallet';
}

/** Canonical form of an identifier whose kind is detected from how it looks (what search looks up). */
export function canonicalIdentifierAuto(value: string): string | null {
  const kind = detectIdentifierKind(value);
  return kind ? canonicalIdentifier(kind, value) : null;
}
