/**
 * Canonical identifiers: the one written form of a mobile number, e-mail, website, e-wallet or crypto
 * address, however it was typed. This is the TypeScript twin of public.canonical_identifier and
 * public.detect_identifier_kind (supabase/migrations/20261122000200_identifiers.sql, whose
 * header lists the rules); supabase/tests/canonical-vectors.json pins both to the same answers.
 *
 * Pure TypeScript (no Deno or Node APIs): the SPA imports it through src/lib and the edge functions
 * through this folder.
 */

export const IDENTIFIER_KINDS = ['mobile', 'email', 'website', 'ewallet', 'crypto'] as const;
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
  let s = btrim(value ?? '');
  if (s === '') return null;
  switch (kind) {
    case 'mobile':
      return canonicalPhone(s);
    case 'email':
      return btrim(s.replace(/^(mailto: *)+/i, '')).toLowerCase() || null;
    case 'website':
      return canonicalHost(s);
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
  const s = btrim(value ?? '').replace(/[\u3002\uff0e\uff61]/g, '.');
  if (s === '') return null;
  if (PAYMENT_SCHEME.test(s) || EVM.test(s) || BECH32.test(s)) return 'crypto';
  if (/^mailto:/i.test(s) || EMAIL.test(s)) return 'email';
  if (IPV4.test(s)) return 'website';
  const digitCount = s.replace(/[^0-9]/g, '').length;
  if (PHONE_LIKE.test(s) && digitCount >= 7 && digitCount <= 15) return 'mobile';
  if (BASE58_BITCOIN.test(s)) return 'crypto';
  if (URL_SCHEME.test(s) || HOST_LIKE.test(s)) return 'website';
  if (BASE58_LONG.test(s)) return 'crypto';
  return 'ewallet';
}

/** Canonical form of an identifier whose kind is detected from how it looks (what search looks up). */
export function canonicalIdentifierAuto(value: string): string | null {
  const kind = detectIdentifierKind(value);
  return kind ? canonicalIdentifier(kind, value) : null;
}
