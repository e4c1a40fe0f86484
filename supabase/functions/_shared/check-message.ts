/**
 * Checking a whole message (issue 13): every mobile number, link, e-mail and crypto address in a text,
 * chat or e-mail, each with signals that say why it may be a scam, and an open verdict that names the
 * signals that decided it. One implementation for the browser (/check, through src/lib) and the edge
 * functions (POST /api/v1/check-message).
 *
 * The libraries do what they are good at: linkify-it finds links and e-mails, tldts splits hosts at the
 * public suffix, libphonenumber-js finds phone numbers however they are written, punycode turns IDN
 * labels back into Unicode and unhomoglyph (Unicode's confusables table) folds look-alike characters.
 * Brands, official domains, shorteners and abused TLDs are data (public.brands and
 * public.check_domain_lists) passed in as `CheckRules`; report counts come from one SQL call
 * (public.check_identifiers), passed in as `lookups`.
 *
 * Pure TypeScript (no Deno or Node APIs).
 */
import LinkifyIt from 'npm:linkify-it@5.0.2';
import { parse as parseHost } from 'npm:tldts@7.5.4';
import { findPhoneNumbersInText } from 'npm:libphonenumber-js@1.13.16';
import { toUnicode } from 'npm:punycode@2.3.1/punycode.es6.js';
import unhomoglyph from 'npm:unhomoglyph@1.0.6';
import { z } from 'npm:zod@4.6.7';
import {
  canonicalIdentifier,
  canonicalIdentifierAuto,
  platformAccount,
  type IdentifierKind,
} from './canonical.ts';
import { findCryptoAddresses, type CryptoNetwork } from './crypto-address.ts';
import { textSignals, type TextSignal, type TextSignalCode } from './text-signals.ts';

export { TEXT_RULES, textSignals, type TextSignal, type TextSignalCode } from './text-signals.ts';

/** The longest text the check accepts, in characters as people count them (code points; 413 above it). */
export const MESSAGE_MAX_LENGTH = 5000;

/** A message's length as people count it: code points, so an emoji is one character, not two. */
export function messageLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** How long extraction may take before it stops and reports what it found so far (milliseconds). */
export const EXTRACTION_BUDGET_MS = 400;
/** At most this many distinct identifiers are looked up for one message. */
export const MESSAGE_MAX_ITEMS = 50;

export type BrandCategory = 'bank' | 'ewallet' | 'government' | 'courier' | 'shop' | 'telco' | 'utility';

/** One row of public.brands. */
export interface Brand {
  name: string;
  category: BrandCategory;
  /** Registrable domains the brand uses; they and their subdomains are never flagged. */
  official_domains: string[];
  /** Matched anywhere inside a host label (long, distinctive words: 'gcash', 'metrobank'). */
  keywords: string[];
  /** Matched only as a whole part of a host ('bpi' in bpi.com.ph.x.ru) or a whole word of the text. */
  short_keywords: string[];
}

export interface CheckRules {
  brands: Brand[];
  /** Hosts of link shorteners (registrable domains). */
  shorteners: string[];
  /** TLDs much used for abuse, without the dot. */
  abusedTlds: string[];
}

/** What public.check_identifiers knows about one canonical identifier. */
export interface Lookup {
  count: number;
  riskLevel: number;
  riskLabel: 'low' | 'medium' | 'high';
  /**
   * How many of `count` an admin verified. Absent means all of them (the range lookup lists verified
   * reports only). With none verified the lookup is never a high signal (issue 27): pending reports
   * can be bought with free accounts.
   */
  verifiedCount?: number;
}

export type SignalCode =
  | 'lookalike-brand'
  | 'reported'
  | 'shortener'
  | 'ip-host'
  | 'new-tld'
  | 'invalid-checksum'
  | 'personal-number-as-business'
  | TextSignalCode;

export interface Signal {
  code: SignalCode;
  /** A short explanation in plain words. */
  message: string;
  /** How much this signal weighs in the verdict. */
  severity: 'high' | 'medium';
  [evidence: string]: unknown;
}

/** What a phone number is: a mobile, a landline, a freephone number or a foreign number. */
export type PhoneKind = 'mobile' | 'landline' | 'freephone' | 'international';

export interface ExtractedItem {
  type: IdentifierKind;
  /** For phone numbers (type 'mobile'): which kind of number it is. */
  phoneKind?: PhoneKind;
  /** The text as found (the first written form). */
  value: string;
  /** Every written form, in order of appearance. */
  forms: string[];
  canonical: string;
  /** Offset of the first form in the text. */
  index: number;
  /** For websites and e-mails: the host in canonical (punycode) form. */
  host?: string;
  network?: CryptoNetwork;
  /** false for a crypto address whose checksum or encoding fails. */
  valid: boolean;
}

export interface CheckedItem extends ExtractedItem {
  count: number;
  riskLevel: number;
  riskLabel: 'low' | 'medium' | 'high';
  signals: Signal[];
}

export interface Verdict {
  /** danger: a high signal; suspicious: medium signals only; no-known-risk: nothing found against it. */
  level: 'danger' | 'suspicious' | 'no-known-risk' | 'nothing-found';
  summary: string;
  /** The signals that decided the level, each with the identifier it concerns. */
  reasons: { code: SignalCode; value: string; message: string }[];
}

export interface CheckResult {
  items: CheckedItem[];
  /** What the words of the message say (named rules with the words that triggered them). */
  textSignals?: TextSignal[];
  verdict: Verdict;
}

// ---------------------------------------------------------------------------------------------
// Defanged text
// ---------------------------------------------------------------------------------------------
const DEFANG =
  /\b(h[xX]{2}p(s?))(?=\[?:\]?\/\/)|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\[:\]|\[@\]|\(@\)|\[at\]|\(at\)|\[\/\]/gi;

/** Format characters copied text carries (direction marks, zero-width ones): dropped. */
const FORMAT_CHAR = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
const DASH_CHAR = /[\u2010-\u2015\u2043\u2212\ufe58\ufe63]/;

/** One UTF-16 unit as the matchers read it: full-width forms as ASCII, dashes '-', format characters gone. */
function normalChar(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0);
  if (code === 0x3000) return ' ';
  if (code === 0x3002 || code === 0xff61) return '.';
  if (FORMAT_CHAR.test(c)) return '';
  if (DASH_CHAR.test(c)) return '-';
  return c;
}

/**
 * Undoes defanging (hxxps://, example[.]com, example(.)com, user[at]mail.com), reads full-width
 * characters as ASCII and dashes as '-', drops format characters, and keeps, for every
 * character of the result, the offset it came from, so matches can be reported as written.
 */
export function refang(text: string): { text: string; origin: number[] } {
  let out = '';
  const origin: number[] = [];
  let last = 0;
  const push = (s: string, from: number) => {
    for (let i = 0; i < s.length; i++) origin.push(from);
    out += s;
  };
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const c = normalChar(text[i]);
      if (c === '') continue;
      out += c;
      origin.push(i);
    }
  };
  for (const m of text.matchAll(DEFANG)) {
    copy(last, m.index);
    const token = m[0].toLowerCase();
    let replacement: string;
    if (m[1]) replacement = `http${m[2] ? 's' : ''}`;
    else if (token.includes('.') || token.includes('dot')) replacement = '.';
    else if (token.includes(':')) replacement = ':';
    else if (token.includes('/')) replacement = '/';
    else replacement = '@';
    push(replacement, m.index);
    last = m.index + m[0].length;
  }
  copy(last, text.length);
  origin.push(text.length);
  return { text: out, origin };
}

// ---------------------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------------------
/** TLDs linkify-it should accept in bare domains beyond its defaults (com, net, org, ph, ...). */
const EXTRA_TLDS =
  'app|dev|io|ai|co|me|cc|info|online|site|store|shop|xyz|top|icu|club|vip|click|link|live|buzz|cyou|sbs|cfd|bond|lol|monster|quest|work|support|help|rest|tk|ml|ga|cf|gq|website|space|fun|today|world|life|tech|cloud|digital|services|finance|bank|money|loan|cash|win|bid|trade|gov|mobi|asia|ly|gy|gd|gl|ws'.split(
    '|',
  );

type LinkMatch = NonNullable<ReturnType<LinkifyIt['match']>>[number];

let linkifier: LinkifyIt | null = null;
function linkify(): LinkifyIt {
  if (!linkifier) {
    linkifier = new LinkifyIt(undefined, { fuzzyIP: true, fuzzyEmail: true, fuzzyLink: true });
    linkifier.tlds(EXTRA_TLDS, true);
  }
  return linkifier;
}

/** Words before a number that make it a code or reference, not a phone number. */
const NOT_A_PHONE_BEFORE =
  /(otp|one[- ]time|pin|code|ref(erence)?|order|tracking|track|txn|transaction|trans|invoice|acct|account|a\/c|card|receipt|control|tin|id|no\.?|number|#)\s*[:#.-]?\s*$/i;

const FILE_LIKE_TLDS = /\.(md|py|sh|rs|pl|ps)$/i;

const IPV4_HOST = /^\d{1,3}(\.\d{1,3}){3}$/;

function isIpHost(host: string): boolean {
  return IPV4_HOST.test(host) || host.startsWith('[') || /^[0-9a-f:]+$/i.test(host);
}

/** Host of a URL or bare domain as written (before canonicalisation), without port or brackets. */
function hostOf(url: string): string {
  const s = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^/?#@]*@/, '');
  const host = s.replace(/[/?#\\][\s\S]*$/, '');
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}

interface RawMatch {
  type: IdentifierKind;
  phoneKind?: PhoneKind;
  index: number;
  end: number;
  written: string;
  canonical: string;
  host?: string;
  network?: CryptoNetwork;
  valid: boolean;
}

/**
 * Bounds on what the backtracking matchers (linkify-it's regular expressions) see, issue 28: linkify-it's
 * match() takes time exponential in the number of labels of a host like 'xn--a.xn--a.(...)xn--' (each
 * label can be read two ways by its domain pattern), 24 labels took 13 s. A run of text without white
 * space is cut (a space put in its place, offsets kept) after MAX_DOTS_IN_RUN dots and every
 * MAX_RUN_LENGTH characters, so a host has at most 11 labels (no real host of a message has more; 12
 * labels match in under a millisecond) and no run grows without bound.
 */
export const MAX_DOTS_IN_RUN = 10;
export const MAX_RUN_LENGTH = 256;

/** The text with every run of non-space characters bounded as above; same length, same offsets. */
export function boundRuns(text: string): string {
  let out = '';
  let dots = 0;
  let run = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      dots = 0;
      run = 0;
      continue;
    }
    run++;
    if (c === '.') dots++;
    if (run > MAX_RUN_LENGTH || dots > MAX_DOTS_IN_RUN) {
      out += text.slice(from, i) + ' ';
      from = i + 1;
      dots = 0;
      run = 0;
    }
  }
  return out + text.slice(from);
}

/** The text in pieces of about `size` characters, each ending at white space (links never hold any). */
function pieces(text: string, size: number): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start) end = space + 1;
    }
    out.push({ start, text: text.slice(start, end) });
    start = end;
  }
  return out;
}

/** linkify-it's matches over bounded text, piece by piece, until the deadline passes. */
function linkifyMatches(text: string, deadline: number): { matches: LinkMatch[]; complete: boolean } {
  const matches: LinkMatch[] = [];
  for (const piece of pieces(boundRuns(text), 1000)) {
    if (now() > deadline) return { matches, complete: false };
    for (const m of linkify().match(piece.text) ?? [])
      matches.push({ ...m, index: m.index + piece.start, lastIndex: m.lastIndex + piece.start });
  }
  return { matches, complete: true };
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function linkMatches(found: LinkMatch[]): RawMatch[] {
  const out: RawMatch[] = [];
  for (const m of found) {
    if (m.schema === 'mailto:') {
      let address = m.url.replace(/^mailto:/i, '');
      let { index, raw } = m;
      // linkify lets a name hold ':', which no mail address has and search reads as a scheme or port:
      // "Re:juan@x.ph" is juan@x.ph.
      const colon = raw.slice(0, raw.lastIndexOf('@')).lastIndexOf(':');
      if (colon >= 0 && !/^mailto:/i.test(raw)) {
        index += colon + 1;
        raw = raw.slice(colon + 1);
        address = address.slice(address.lastIndexOf(':') + 1);
      }
      const domain = address.slice(address.lastIndexOf('@') + 1);
      const canonical = canonicalIdentifier('email', address);
      if (!canonical || canonicalIdentifierAuto(address) !== canonical) continue;
      out.push({
        type: 'email',
        index,
        end: m.lastIndex,
        written: raw,
        canonical,
        host: canonicalHostOf(domain),
        valid: true,
      });
      continue;
    }
    if (m.schema !== '' && !/^https?:$/i.test(m.schema) && m.schema !== '//') continue;
    const host = hostOf(m.url);
    if (!host) continue;
    const parsed = parseHost(host.replace(/^\[|\]$/g, ''));
    // A bare word.word is a domain only under a real public suffix (so file.txt is not a website), and
    // a bare name ending like a source file (README.md, setup.py) is a file.
    if (m.schema === '' && !parsed.isIp && (!parsed.isIcann || (FILE_LIKE_TLDS.test(host) && m.raw === host)))
      continue;
    // A host under no public suffix ("http://09171234567", "http://intranet", "http://2026-11-23.1") is
    // no site on the internet; what follows the scheme is read as what it is (a number) or not at all.
    if (!parsed.isIp && !parsed.isIcann) continue;
    // "night.To be" or "done.The": a sentence's end without its space, not a domain (a capitalised
    // word after the dot, no scheme, no path).
    if (m.schema === '' && m.raw === host && /\.[A-Z][a-z]+$/.test(host) && host.split('.').length === 2)
      continue;
    // An account on a shared platform, a chat link's number or a short link is that identifier (issue
    // 30), never the platform: a report of one Facebook page marks that page only.
    const account = platformAccount(m.url.replace(/^mailto:/i, ''));
    if (account) {
      out.push({
        type: account.kind === 'website' ? 'website' : account.kind,
        index: m.index,
        end: m.lastIndex,
        written: m.raw,
        canonical: account.canonical,
        ...(account.kind === 'website' ? { host: canonicalHostOf(host) } : {}),
        ...(account.kind === 'mobile' ? { phoneKind: phoneKindOf(account.canonical) } : {}),
        valid: true,
      });
      continue;
    }
    const canonical = canonicalIdentifier('website', m.url);
    if (!canonical) continue;
    out.push({
      type: 'website',
      index: m.index,
      end: m.lastIndex,
      written: m.raw,
      canonical,
      host: canonical,
      valid: true,
    });
  }
  return out;
}

function canonicalHostOf(domain: string): string {
  return canonicalIdentifier('website', domain) ?? domain.toLowerCase();
}

/** Where the span [start, end) ends once its last `drop` digits (and what lies between) are cut off. */
function endOfDigits(text: string, start: number, end: number, drop: number): number {
  const digits = [...text.slice(start, end).matchAll(/\d/g)];
  const last = digits[digits.length - 1 - drop];
  return last?.index === undefined ? end : start + last.index + 1;
}

/**
 * The span of a number as search reads it: as found ("(0917) 123 4567" keeps its brackets) if search
 * finds the number from it, else without stray marks around it ("[+63 (917) 123-4567" loses "[" and
 * the unclosed "("). Digits or marks search does not read (full-width digits, "0917/123/4567") keep the
 * span libphonenumber found.
 */
function searchableSpan(text: string, start: number, end: number, canonical: string): [number, number] {
  const found = (s: number, e: number) => canonicalIdentifierAuto(text.slice(s, e)) === canonical;
  if (found(start, end)) return [start, end];
  let s = start;
  let e = end;
  while (s < e && !/[\d+(]/.test(text[s])) s++;
  while (e > s && !/[\d)]/.test(text[e - 1])) e--;
  if (found(s, e)) return [s, e];
  const first = text.slice(s, e).search(/[\d+]/);
  const last = endOfDigits(text, s, e, 0);
  if (first >= 0 && found(s + first, last)) return [s + first, last];
  return [start, end];
}

/** The text in pieces of at most 300 characters, each cut after a letter, else at white space. */
function phonePieces(text: string): { start: number; text: string }[] {
  const out: { start: number; text: string }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + 300);
    if (end < text.length) {
      let cut = -1;
      for (let i = end - 1; i > start + 100 && cut < 0; i--) if (/\p{L}/u.test(text[i])) cut = i + 1;
      if (cut < 0) {
        const space = text.lastIndexOf(' ', end);
        if (space > start + 100) cut = space + 1;
      }
      if (cut > 0) end = cut;
    }
    out.push({ start, text: text.slice(start, end) });
    start = end;
  }
  return out;
}

/** What kind of number an E.164 number is (Philippine numbers by their prefix; +800 is freephone). */
export function phoneKindOf(e164: string): PhoneKind {
  if (/^\+639\d{9}$/.test(e164)) return 'mobile';
  if (/^\+800/.test(e164) || /^\+63180[01]/.test(e164)) return 'freephone';
  if (/^\+63[2-8]/.test(e164)) return 'landline';
  return 'international';
}

function phoneMatches(refanged: string, taken: (a: number, b: number) => boolean): RawMatch[] {
  const out: RawMatch[] = [];
  let found: ReturnType<typeof findPhoneNumbersInText>;
  try {
    // Commas and semicolons separate numbers in a list ("0917 123 4567, 0918 765 4321"; "P500,
    // 0917..."): read as line breaks (same offsets), libphonenumber does not run a number across them.
    found = findPhoneNumbersInText(refanged.replace(/[,;]/g, '\n'), 'PH');
  } catch {
    return out;
  }
  for (const n of found) {
    let { startsAt, endsAt } = n;
    // "(0917) 123 4567" keeps its brackets; "(09171234567" or "09171234567)" loses the stray one.
    if (refanged[startsAt] === '(' && !refanged.slice(startsAt, endsAt).includes(')')) startsAt++;
    if (refanged[endsAt - 1] === ')' && !refanged.slice(startsAt, endsAt).includes('(')) endsAt--;
    // "0917 123 4567 ext. 12" or "09171234567~0": libphonenumber reads an extension, which a mobile
    // number has not and search does not take; the number ends at its own last digit.
    if (n.number.ext) endsAt = endOfDigits(refanged, startsAt, endsAt, n.number.ext.length);
    const e164 = n.number.number as string;
    let canonical = canonicalIdentifier('mobile', e164);
    if (!canonical) continue;
    [startsAt, endsAt] = searchableSpan(refanged, startsAt, endsAt, canonical);
    const written = refanged.slice(startsAt, endsAt);
    if (taken(startsAt, endsAt)) continue;
    const international = written.trimStart().startsWith('+');
    const phoneKind = phoneKindOf(e164);
    // Philippine mobiles however written, Philippine landlines with their area code ('(02) 8662-2588',
    // '+63 2 ...'), other numbers only in international form (+...).
    const landline = phoneKind === 'landline' && (international || /^\(?0\d/.test(written.trimStart()));
    if (phoneKind !== 'mobile' && !landline && !(international && !e164.startsWith('+63'))) continue;
    // A landline written locally ('(02) 8662-2588') is what search and reports store for it.
    if (landline && !international) canonical = canonicalIdentifierAuto(written) ?? canonical;
    // A digit run glued to letters or after "OTP", "Ref No.", "Order #" ... is a code, not a number.
    const before = refanged.slice(Math.max(0, startsAt - 24), startsAt);
    if (!international && NOT_A_PHONE_BEFORE.test(before)) continue;
    if (/[\p{L}\d]$/u.test(before) || /^[\p{L}]/u.test(refanged.slice(endsAt, endsAt + 1))) continue;
    out.push({ type: 'mobile', phoneKind, index: startsAt, end: endsAt, written, canonical, valid: true });
  }
  return out;
}

/**
 * Globe's Share-a-Load: 'send P100 to 2917XXXXXXX' is the mobile 0917XXXXXXX with the service's '2' in
 * front. Read only after words that send or share load, so other 11-digit runs stay what they are.
 */
function shareALoadMatches(refanged: string, taken: (a: number, b: number) => boolean): RawMatch[] {
  const out: RawMatch[] = [];
  for (const m of refanged.matchAll(/(?<![\d+])2(9\d{9})(?!\d)/g)) {
    const before = refanged.slice(Math.max(0, m.index - 40), m.index);
    if (!/(send|share|pasaload|padala|load|i-?send|ipasa)\b[^\n]*$/i.test(before)) continue;
    if (taken(m.index, m.index + m[0].length)) continue;
    out.push({
      type: 'mobile',
      phoneKind: 'mobile',
      index: m.index,
      end: m.index + m[0].length,
      written: m[0],
      canonical: `+63${m[1]}`,
      valid: true,
    });
  }
  return out;
}

/** Viber chat links ('viber://chat?number=%2B63...'), which linkify-it does not know: their number. */
function viberMatches(text: string, taken: (a: number, b: number) => boolean): RawMatch[] {
  const out: RawMatch[] = [];
  for (const m of text.matchAll(/viber:\/\/[^\s<>"']{1,200}/gi)) {
    const written = m[0].replace(/[.,;:!?)]+$/, '');
    const account = platformAccount(written);
    if (!account || account.kind !== 'mobile' || taken(m.index, m.index + written.length)) continue;
    out.push({
      type: 'mobile',
      phoneKind: phoneKindOf(account.canonical),
      index: m.index,
      end: m.index + written.length,
      written,
      canonical: account.canonical,
      valid: true,
    });
  }
  return out;
}

/**
 * Telegram user names written as '@name' where the message speaks of Telegram ('Telegram @name', 'TG:
 * @name'): the account t.me/name. Elsewhere an '@name' is left alone (it may be any platform).
 */
function telegramHandleMatches(refanged: string, taken: (a: number, b: number) => boolean): RawMatch[] {
  const out: RawMatch[] = [];
  for (const m of refanged.matchAll(
    /(?<![\p{L}\p{N}_@.])@([A-Za-z][A-Za-z0-9_]{4,31})(?![\p{L}\p{N}_@])/gu,
  )) {
    const before = refanged.slice(Math.max(0, m.index - 30), m.index);
    if (!/(telegram|\btg\b|\btele\b)[^\n.!?]*$/i.test(before)) continue;
    if (taken(m.index, m.index + m[0].length)) continue;
    out.push({
      type: 'social',
      index: m.index,
      end: m.index + m[0].length,
      written: m[0],
      canonical: `t.me/${m[1].toLowerCase()}`,
      valid: true,
    });
  }
  return out;
}

/**
 * Every identifier in `text`, in the order it first appears, each once: written forms of the same
 * identifier (0926-555-1234 and 09265551234) are one item. Never throws; bounded in time (see
 * extractIdentifiersWithin).
 */
export function extractIdentifiers(input: string): ExtractedItem[] {
  return extractIdentifiersWithin(input, EXTRACTION_BUDGET_MS).items;
}

/**
 * extractIdentifiers with a time budget: the matchers see bounded runs of text (boundRuns), the links
 * are found piece by piece, and once `budgetMs` has passed the remaining steps are skipped; `complete`
 * says whether every step ran.
 */
export function extractIdentifiersWithin(
  input: string,
  budgetMs: number,
): { items: ExtractedItem[]; complete: boolean } {
  const deadline = now() + budgetMs;
  const text = typeof input === 'string' ? input.slice(0, MESSAGE_MAX_LENGTH * 2) : '';
  const { text: refanged, origin } = refang(text);
  const raw: RawMatch[] = [];
  const spans: [number, number][] = [];
  const taken = (a: number, b: number) => spans.some(([s, e]) => a < e && b > s);
  const add = (ms: RawMatch[]) => {
    for (const m of ms) {
      if (taken(m.index, m.end)) continue;
      raw.push(m);
      spans.push([m.index, m.end]);
    }
  };
  const links = linkifyMatches(refanged, deadline);
  let complete = links.complete;
  add(linkMatches(links.matches));
  add(viberMatches(boundRuns(refanged), taken));
  const bounded = boundRuns(refanged);
  if (now() > deadline) complete = false;
  else
    add(
      findCryptoAddresses(bounded).map((c) => ({
        type: 'crypto' as const,
        index: c.index,
        end: c.index + c.text.length,
        written: c.text,
        canonical: canonicalIdentifier('crypto', c.text) ?? c.text,
        network: c.network,
        valid: c.valid,
      })),
    );
  // Numbers are searched with the links and addresses already found blanked out (same offsets), so a
  // number written next to one ("4567, 0x52...") is not read as part of a longer digit run.
  let masked = bounded;
  for (const [s, e] of spans) masked = masked.slice(0, s) + ' '.repeat(e - s) + masked.slice(e);
  if (now() > deadline) complete = false;
  else {
    add(shareALoadMatches(masked, taken));
    add(telegramHandleMatches(masked, taken));
    // libphonenumber's search is superlinear on long runs of digits and dots ('1.1.1.1...': 5,000
    // characters took 1.2 s), so it reads the text in pieces of at most 300 characters, cut after a letter
    // (no number holds one) or else at a space, and stops at the deadline.
    for (const piece of phonePieces(masked)) {
      if (now() > deadline) {
        complete = false;
        break;
      }
      const blank = ' '.repeat(piece.start);
      add(phoneMatches(blank + piece.text, taken));
    }
  }
  raw.sort((a, b) => a.index - b.index);

  const items = new Map<string, ExtractedItem>();
  for (const m of raw) {
    const value = writtenSpan(text, origin, m.index, m.end) || m.written;
    // An address with a broken checksum stays apart from the valid one it imitates.
    const key = `${m.type}\u0000${m.canonical}\u0000${m.valid}`;
    const seen = items.get(key);
    if (seen) {
      if (!seen.forms.includes(value)) seen.forms.push(value);
      continue;
    }
    items.set(key, {
      type: m.type,
      value,
      forms: [value],
      canonical: m.canonical,
      index: origin[m.index],
      valid: m.valid,
      ...(m.phoneKind ? { phoneKind: m.phoneKind } : {}),
      ...(m.host ? { host: m.host } : {}),
      ...(m.network ? { network: m.network } : {}),
    });
    if (items.size >= MESSAGE_MAX_ITEMS) break;
  }
  return { items: [...items.values()], complete };
}

/** The original text behind refanged offsets [start, end). */
function writtenSpan(text: string, origin: number[], start: number, end: number): string {
  const from = origin[start];
  // The last refanged character may stand for a longer token ('[.]' -> '.'): end after that token.
  let to = origin[end];
  if (to === undefined || to <= origin[end - 1]) to = origin[end - 1] + 1;
  return text.slice(from, to);
}

// ---------------------------------------------------------------------------------------------
// Signals
// ---------------------------------------------------------------------------------------------
const PLAIN_ASCII = /^[a-z0-9.-]*$/;
const ZERO_ONE = /[01]/g;

/** Lowercase ASCII skeleton: IDN labels decoded, accents dropped, confusable characters folded. */
export function skeleton(s: string): string {
  // Lowercase ASCII without punycode labels (nearly every host): NFKD and the marks change nothing,
  // and of unhomoglyph's table only 0 -> o, 1 -> l and m -> rn (which the rn -> m below undoes) apply.
  if (PLAIN_ASCII.test(s) && !s.includes('xn--'))
    return s
      .replace(ZERO_ONE, (c) => (c === '0' ? 'o' : 'l'))
      .replace(/rn/g, 'm')
      .replace(/vv/g, 'w');
  let u = s;
  try {
    u = s
      .split('.')
      .map((label) => (label.startsWith('xn--') ? toUnicode(label) : label))
      .join('.');
  } catch {
    // not valid punycode: keep as written
  }
  return unhomoglyph(u.normalize('NFKD').replace(/\p{M}/gu, ''))
    .toLowerCase()
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/** Rows of distance's table, reused across calls (it is called for every token and brand word). */
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);
let rowC = new Int32Array(32);

/** Edit distance counting a swap of neighbours as one edit (optimal string alignment), capped at max + 1. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(n + 1);
    rowB = new Int32Array(n + 1);
    rowC = new Int32Array(n + 1);
  }
  // Three rows of the table: two rows back (for swaps), the row before and this one.
  let twoBack = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let best = max + 1;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj)
        d = Math.min(d, twoBack[j - 2] + 1);
      cur[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const t = twoBack;
    twoBack = prev;
    prev = cur;
    cur = t;
  }
  return prev[n];
}

interface BrandMatch {
  brand: Brand;
  how: 'label' | 'typo' | 'confusable' | 'other-domain';
  matched: string;
}

/**
 * Words phishing hosts glue to a short brand name ('onlinebdo', 'bdoonline', 'mybpi', 'bpisecure'): a
 * short name (3 letters: 'bdo', 'bpi', 'sss') counts inside a label only with one of these around it,
 * so 'abdomen' or 'lbpinoy' do not.
 */
export const PHISHING_WORDS = [
  'online',
  'secure',
  'login',
  'verify',
  'update',
  'my',
  'e',
  'i',
  'web',
  'app',
  'portal',
  'help',
  'support',
  'service',
  'services',
  'account',
  'accounts',
  'bank',
  'banking',
  'ph',
  'pay',
  'payment',
  'rewards',
  'reward',
  'promo',
  'claim',
  'official',
  'access',
  'net',
  'mobile',
  'card',
  'unlock',
  'auth',
  'id',
  'gov',
];

function withPhishingWord(token: string, word: string): boolean {
  if (token.length <= word.length) return false;
  if (token.startsWith(word)) return PHISHING_WORDS.includes(token.slice(word.length));
  if (token.endsWith(word)) return PHISHING_WORDS.includes(token.slice(0, -word.length));
  return false;
}

/**
 * What lookalikeBrand derives from a brand, worked out once per brand object (the feeds' job checks
 * a hundred thousand hosts against the same brands; parsing their domains again for each was most
 * of the cost).
 */
interface BrandParts {
  officialSuffixes: string[];
  /** Keywords and official labels of 4 characters or more. */
  words: string[];
  /** words and the short keywords: what a typo is measured against. */
  typoWords: string[];
}
const brandPartsCache = new WeakMap<Brand, BrandParts>();
function brandParts(brand: Brand): BrandParts {
  let parts = brandPartsCache.get(brand);
  if (!parts) {
    const officialLabels = brand.official_domains.map((d) => parseHost(d).domainWithoutSuffix ?? '');
    const words = [...brand.keywords, ...officialLabels].filter((w) => w.length >= 4);
    parts = {
      officialSuffixes: brand.official_domains.map((d) => parseHost(d).publicSuffix ?? ''),
      words,
      typoWords: [...words, ...brand.short_keywords],
    };
    brandPartsCache.set(brand, parts);
  }
  return parts;
}

/**
 * The brands of a list indexed for lookalikeBrand, built once per list (the feeds' job checks a
 * hundred thousand hosts against the same list): which brands a host can possibly match is found
 * from a few map lookups and bit masks instead of every brand's every check, and only those brands
 * go through lookalikeBrand's checks, in the list's order. Every filter only ever lets too many
 * brands through, never too few, so the answer is the one the checks give over the whole list.
 */
interface BrandIndex {
  brands: Brand[];
  /** Official domains (lookalikeBrand answers nothing for them and their subdomains: `host === d`
   * or `host` ends with `.${d}`). */
  official: Set<string>;
  /** Words (matched inside labels) by their first two characters' codes (c0 * 65536 + c1). */
  wordStarts: Map<number, { word: string; brand: number }[]>;
  /** Brand positions by short keyword, and the short keywords' lengths. */
  shortWords: Map<string, number[]>;
  shortLengths: number[];
  /** Typo words of 5 characters or more by length: brand, allowed edits, letter mask. */
  typoByLength: Map<number, { brand: number; max: number; mask: number }[]>;
  /** Brands with a typo word under 5 characters, by their official public suffixes. */
  shortTypoBySuffix: Map<string, number[]>;
  suffixSkeletons: Map<string, string>;
  /** candidateBrands' marks, one per brand, all 0 between calls. */
  hit: Uint8Array;
}

/** By list: a list is not changed once checked against (each request reads its own from the database). */
const brandIndexCache = new WeakMap<Brand[], BrandIndex>();

/** A 32-bit mask of the characters of s (by char code modulo 32: different ones may share a bit). */
function charMask(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m |= 1 << (s.charCodeAt(i) & 31);
  return m;
}

/** True when n has at most max bits set. */
function bitsAtMost(n: number, max: number): boolean {
  for (let c = 0; n; c++) {
    if (c === max) return false;
    n &= n - 1;
  }
  return true;
}

function push<K>(map: Map<K, number[]>, key: K, brand: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [brand]);
  else if (list[list.length - 1] !== brand) list.push(brand);
}

function brandIndex(brands: Brand[]): BrandIndex {
  let index = brandIndexCache.get(brands);
  if (index) return index;
  index = {
    brands,
    official: new Set(brands.flatMap((b) => b.official_domains)),
    wordStarts: new Map(),
    shortWords: new Map(),
    shortLengths: [],
    typoByLength: new Map(),
    shortTypoBySuffix: new Map(),
    suffixSkeletons: new Map(),
    hit: new Uint8Array(brands.length),
  };
  brands.forEach((brand, i) => {
    const { officialSuffixes, words, typoWords } = brandParts(brand);
    for (const word of words) {
      const key = word.charCodeAt(0) * 65536 + word.charCodeAt(1);
      index.wordStarts.set(key, [...(index.wordStarts.get(key) ?? []), { word, brand: i }]);
    }
    for (const word of brand.short_keywords) {
      push(index.shortWords, word, i);
      if (!index.shortLengths.includes(word.length)) index.shortLengths.push(word.length);
    }
    for (const word of typoWords) {
      if (word.length >= 5) {
        const list = index.typoByLength.get(word.length) ?? [];
        list.push({ brand: i, max: word.length >= 8 ? 2 : 1, mask: charMask(word) });
        index.typoByLength.set(word.length, list);
      } else {
        for (const suffix of officialSuffixes) push(index.shortTypoBySuffix, suffix, i);
      }
    }
  });
  brandIndexCache.set(brands, index);
  return index;
}

/** True when host is one of the brands' official domains or below one (isOfficial of any brand). */
function isOfficialOfAny(host: string, index: BrandIndex): boolean {
  for (let i = -1; ;) {
    if (index.official.has(i < 0 ? host : host.slice(i + 1))) return true;
    i = host.indexOf('.', i + 1);
    if (i < 0) return false;
  }
}

/**
 * The brands (in list order) for which one of lookalikeBrand's checks may hold: a word of theirs
 * is in a label; a short keyword of theirs is a token or begins or ends one; a typo word of theirs
 * is within its allowed edits of a token by length and by letters (each letter of one that the other
 * lacks costs an edit at least); a short typo word under their own public suffix.
 */
function candidateBrands(
  index: BrandIndex,
  suffix: string,
  joinedLabels: string[],
  tokens: string[],
  typoTokens: string[],
): Brand[] {
  const hit = index.hit;
  const found: number[] = [];
  const add = (b: number) => {
    if (!hit[b]) {
      hit[b] = 1;
      found.push(b);
    }
  };
  for (const label of joinedLabels)
    for (let p = 0; p + 4 <= label.length; p++) {
      const words = index.wordStarts.get(label.charCodeAt(p) * 65536 + label.charCodeAt(p + 1));
      if (words) for (const w of words) if (!hit[w.brand] && label.startsWith(w.word, p)) add(w.brand);
    }
  for (const token of tokens) {
    for (const b of index.shortWords.get(token) ?? []) add(b);
    for (const n of index.shortLengths) {
      if (token.length <= n) continue;
      for (const b of index.shortWords.get(token.slice(0, n)) ?? []) add(b);
      for (const b of index.shortWords.get(token.slice(-n)) ?? []) add(b);
    }
  }
  for (const token of typoTokens) {
    const mask = charMask(token);
    for (let n = token.length - 2; n <= token.length + 2; n++) {
      const words = index.typoByLength.get(n);
      if (!words) continue;
      const off = n > token.length ? n - token.length : token.length - n;
      for (const w of words) {
        if (off > w.max || hit[w.brand]) continue;
        if (bitsAtMost(w.mask & ~mask, w.max) && bitsAtMost(mask & ~w.mask, w.max)) add(w.brand);
      }
    }
  }
  for (const b of index.shortTypoBySuffix.get(suffix) ?? []) add(b);
  for (const b of found) hit[b] = 0;
  return found.length ? found.sort((a, b) => a - b).map((b) => index.brands[b]) : [];
}

/** The brand a host imitates, if any (the brands' own domains and their subdomains never match). */
export function lookalikeBrand(host: string, brands: Brand[]): BrandMatch | null {
  if (!host || isIpHost(host)) return null;
  const index = brandIndex(brands);
  if (isOfficialOfAny(host, index)) return null;
  const parsed = parseHost(host);
  const suffix = parsed.publicSuffix ?? '';
  const registrable = parsed.domainWithoutSuffix ?? '';
  const ascii = host.toLowerCase();
  const folded = skeleton(host);
  const confusable = folded !== ascii && folded !== ascii.replace(/rn/g, 'm').replace(/vv/g, 'w');
  // Labels and their hyphen-separated parts, without the public suffix.
  let suffixFolded = suffix ? index.suffixSkeletons.get(suffix) : '';
  if (suffixFolded === undefined) index.suffixSkeletons.set(suffix, (suffixFolded = skeleton(suffix)));
  const hostPart =
    suffix && folded.endsWith(`.${suffixFolded}`) ? folded.slice(0, -(suffixFolded.length + 1)) : folded;
  const labels = hostPart.split('.').filter(Boolean);
  // Worked out once per host, not once per brand word.
  const joinedLabels = labels.map((l) => l.replace(/-/g, ''));
  const tokens = labels.flatMap((l) => [l, ...l.split('-'), l.replace(/-/g, '')]).filter(Boolean);
  const typoTokens = tokens.filter((t) => t.length >= 4);
  const regFolded = skeleton(registrable);

  // Only the brands that can match (in their order, so the first match is the same as over all).
  for (const brand of candidateBrands(index, suffix, joinedLabels, tokens, typoTokens)) {
    const { officialSuffixes, words, typoWords } = brandParts(brand);
    for (const word of words) {
      if (joinedLabels.some((l) => l.includes(word))) {
        const how = confusable ? 'confusable' : regFolded === word ? 'other-domain' : 'label';
        return { brand, how, matched: word };
      }
    }
    for (const word of brand.short_keywords) {
      if (tokens.includes(word) || tokens.some((t) => withPhishingWord(t, word))) {
        const how = confusable ? 'confusable' : regFolded === word ? 'other-domain' : 'label';
        return { brand, how, matched: word };
      }
    }
    // One or two edits away: long names anywhere, short names only as the registrable label under
    // the brand's own public suffix (bpl.com.ph for bpi.com.ph), where a typo is not a coincidence.
    for (const word of typoWords) {
      if (word.length >= 5) {
        const max = word.length >= 8 ? 2 : 1;
        if (typoTokens.some((t) => distance(t, word, max) <= max))
          return { brand, how: 'typo', matched: word };
      } else if (
        officialSuffixes.includes(suffix) &&
        regFolded.length === word.length &&
        distance(regFolded, word, 1) <= 1
      ) {
        return { brand, how: 'typo', matched: word };
      }
    }
  }
  return null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Brand names that are also everyday words ('dito' is Tagalog for 'here', 'smart', 'globe', 'maya' the
 * bird, 'sun'): in the text they name the brand only written as the brand writes itself ('DITO', 'Smart').
 */
const EVERYDAY_WORDS = ['dito', 'smart', 'globe', 'maya', 'sun', 'flash', 'sss'];

/** Brands the text itself names ("BDO", "GCash", "J&T"), as whole words. */
export function brandsMentioned(text: string, brands: Brand[]): Brand[] {
  const folded = text.normalize('NFKC');
  return brands.filter((b) =>
    [b.name, ...b.keywords, ...b.short_keywords].some((w) => {
      const everyday = EVERYDAY_WORDS.includes(w.toLowerCase());
      const word = everyday && w.toLowerCase() === b.name.toLowerCase() ? b.name : w;
      if (everyday && word === w && w !== b.name) return false;
      const source = `(?<![\\p{L}\\d])${escapeRegExp(word).replace(/\\? /g, '[\\s-]?')}(?![\\p{L}\\d])`;
      return new RegExp(source, everyday ? 'u' : 'iu').test(folded);
    }),
  );
}

/**
 * Whether the message speaks as a brand: it opens with the brand's name ('GCash: ...', '[BDO] ...',
 * 'From BPI'), says it is the brand ('this is', 'ito ay'), or signs as it ('- GCash Team', 'BDO
 * Customer Care'). A receipt quoting a payer's number or a seller's 'Maya 0927...' line does not.
 */
function speaksAs(text: string, brand: Brand): boolean {
  const names = [brand.name, ...brand.keywords, ...brand.short_keywords].map((w) =>
    escapeRegExp(w).replace(/\\? /g, '[\\s-]?'),
  );
  const name = `(?:${names.join('|')})`;
  const head = text.slice(0, 60);
  return (
    new RegExp(
      `^\\W{0,3}(?:(?:[\\p{L}]+\\s+){0,2}(?:from|mula sa)\\s+)?${name}\\s*(?:[:\\]|-]|advisory|alert|notice|team|customer|support|official|reminder)`,
      'iu',
    ).test(head) ||
    new RegExp(`(?:this is|ito ay|ito ang|we are|kami ang)\\s+(?:the\\s+)?${name}`, 'iu').test(text) ||
    new RegExp(
      `${name}\\s+(?:team|customer (?:care|service|support)|support|help ?desk|hotline|agent|representative)`,
      'iu',
    ).test(text)
  );
}

/** Words just before a number that make it the payer, the sender or where to pay, not whom to contact. */
const NOT_A_CONTACT_BEFORE =
  /(?<![\p{L}\d])(from|galing (kay|sa)|sender|payer|(?<!(reply|text|call|message|contact|talk|speak|write|msg) )to|transfer to|padala sa|received|natanggap)(?![\p{L}\d])\W{0,6}([\p{L}*.]+\W{0,3}){0,4}$/iu;

const ASKS_TO_CONTACT =
  /\b(reply|text|txt|call|contact|message|msg|sms|viber|whatsapp|telegram|pm|send|i-?text|mag-?text|tumawag|itext|i-?message|tawagan|mag-?reply|padala|ipadala)\b/i;

function hostSignals(item: ExtractedItem, rules: CheckRules): Signal[] {
  // A short link ('bit.ly/abc') is flagged as a short link; its shortener is no brand's look-alike.
  if (item.type === 'website' && item.canonical.includes('/')) return shortLinkSignals(item);
  const host = item.host ?? '';
  const signals: Signal[] = [];
  const brand = lookalikeBrand(host, rules.brands);
  if (brand) {
    const where = item.type === 'email' ? "This e-mail's domain" : 'This address';
    const how = {
      label: `contains "${brand.matched}"`,
      typo: `is one or two letters away from "${brand.matched}"`,
      confusable: `uses look-alike characters to spell "${brand.matched}"`,
      'other-domain': `uses the name "${brand.matched}" under another domain`,
    }[brand.how];
    signals.push({
      code: 'lookalike-brand',
      severity: 'high',
      message: `${where} ${how} but is not one of ${brand.brand.name}'s own websites (${brand.brand.official_domains.join(', ')}).`,
      brand: brand.brand.name,
      matched: brand.matched,
      how: brand.how,
      officialDomains: brand.brand.official_domains,
    });
  }
  if (item.type === 'website') {
    const registrable = parseHost(host).domain ?? host;
    if (rules.shorteners.includes(host) || rules.shorteners.includes(registrable)) {
      signals.push({
        code: 'shortener',
        severity: 'medium',
        message:
          'A link shortener hides where the link really goes; we never open it. Do not tap it unless you trust the sender.',
        shortener: registrable,
      });
    }
    if (isIpHost(host)) {
      signals.push({
        code: 'ip-host',
        severity: 'medium',
        message:
          'The link points to a bare IP address instead of a named website; real companies do not send these.',
        host,
      });
    }
  }
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (!isIpHost(host) && rules.abusedTlds.includes(tld)) {
    signals.push({
      code: 'new-tld',
      severity: 'medium',
      message: `The ending ".${tld}" is cheap and much used by scam sites.`,
      tld,
    });
  }
  return signals;
}

function shortLinkSignals(item: ExtractedItem): Signal[] {
  return [
    {
      code: 'shortener',
      severity: 'medium',
      message:
        'A link shortener hides where the link really goes; we never open it. Do not tap it unless you trust the sender.',
      shortener: item.canonical.slice(0, item.canonical.indexOf('/')),
    },
  ];
}

/** Signals of each extracted identifier, from the message, the rules and the report lookups. */
export function checkItems(
  text: string,
  items: ExtractedItem[],
  rules: CheckRules,
  lookups: Map<string, Lookup>,
): CheckedItem[] {
  // "Personal number used by a business": only where the message speaks as the business (issue 30).
  const mentioned = brandsMentioned(text, rules.brands).filter((b) => speaksAs(text, b));
  const asksToContact = ASKS_TO_CONTACT.test(text);
  return items.map((item) => {
    const lookup = lookups.get(item.canonical) ?? { count: 0, riskLevel: 0, riskLabel: 'low' as const };
    const signals: Signal[] = [];
    if (lookup.count > 0) {
      const verified = lookup.verifiedCount ?? lookup.count;
      const times = `${lookup.count} time${lookup.count === 1 ? '' : 's'}`;
      signals.push({
        code: 'reported',
        severity: lookup.riskLabel !== 'low' && verified > 0 ? 'high' : 'medium',
        message:
          verified > 0
            ? `Reported ${times} to ScamCheck; risk ${lookup.riskLabel} (${lookup.riskLevel}/100).`
            : `Reported ${times}, not yet reviewed; risk ${lookup.riskLabel} (${lookup.riskLevel}/100).`,
        count: lookup.count,
        verifiedCount: verified,
        riskLevel: lookup.riskLevel,
        riskLabel: lookup.riskLabel,
      });
    }
    if (item.type === 'website' || item.type === 'email') signals.push(...hostSignals(item, rules));
    if (item.type === 'crypto' && !item.valid) {
      signals.push({
        code: 'invalid-checksum',
        severity: 'medium',
        message:
          'Not a valid address: its checksum does not match. It may be mistyped, or altered to make you send to the wrong wallet.',
        network: item.network,
      });
    }
    if (
      item.type === 'mobile' &&
      item.canonical.startsWith('+639') &&
      mentioned.length > 0 &&
      asksToContact &&
      !NOT_A_CONTACT_BEFORE.test(text.slice(Math.max(0, item.index - 40), item.index))
    ) {
      signals.push({
        code: 'personal-number-as-business',
        severity: 'medium',
        message: `The message speaks for ${mentioned.map((b) => b.name).join(', ')} but asks you to contact a personal mobile number. Companies and agencies use their official hotlines and apps.`,
        brands: mentioned.map((b) => b.name),
      });
    }
    return {
      ...item,
      count: lookup.count,
      riskLevel: lookup.riskLevel,
      riskLabel: lookup.riskLabel,
      signals,
    };
  });
}

/** The verdict, decided in the open: the strongest signals found, listed as the reasons. */
export function verdictFor(items: CheckedItem[], text: TextSignal[] = []): Verdict {
  // What the words say counts as the identifiers' signals do (issue 30): a message with text signals is
  // never "no warning signs" or "nothing found". Each reason names the words that triggered it.
  if (text.length > 0) {
    const textItem: CheckedItem = {
      type: 'ewallet',
      value: '',
      forms: [],
      canonical: '',
      index: 0,
      valid: true,
      count: 0,
      riskLevel: 0,
      riskLabel: 'low',
      signals: text.map((t) => ({
        code: t.code,
        severity: t.severity,
        message: t.message,
        matched: t.matched,
      })),
    };
    const v = verdictFor([...items, textItem]);
    return {
      ...v,
      reasons: v.reasons.map((r) => (r.value === '' ? { ...r, value: quoted(text, r.code) } : r)),
    };
  }
  if (items.length === 0) {
    return {
      level: 'nothing-found',
      summary: 'We found no mobile number, link, e-mail or wallet address in this message.',
      reasons: [],
    };
  }
  const all = items.flatMap((i) => i.signals.map((s) => ({ item: i, signal: s })));
  const high = all.filter((x) => x.signal.severity === 'high');
  const decided = high.length > 0 ? high : all;
  const reasons = decided.map(({ item, signal }) => ({
    code: signal.code,
    value: item.value,
    message: signal.message,
  }));
  if (high.length > 0) {
    return {
      level: 'danger',
      summary: 'This message shows strong signs of a scam. Do not reply, pay or tap its links.',
      reasons,
    };
  }
  if (all.length > 0) {
    return {
      level: 'suspicious',
      summary:
        'This message has warning signs. Check with the company through its official app or hotline first.',
      reasons,
    };
  }
  return {
    level: 'no-known-risk',
    summary:
      'Nothing in this message has been reported and we saw no warning signs. That does not prove it is safe.',
    reasons: [],
  };
}

/** The words that triggered a text signal, quoted: '"send the OTP", "within 24 hours"'. */
function quoted(text: TextSignal[], code: SignalCode): string {
  const signal = text.find((t) => t.code === code);
  return signal ? signal.matched.map((w) => `"${w}"`).join(', ') : '';
}

/** The whole check: extraction, signals and verdict, given the rules and the report lookups. */
export function checkMessage(text: string, rules: CheckRules, lookups: Map<string, Lookup>): CheckResult {
  const items = checkItems(text, extractIdentifiers(text), rules, lookups);
  const signals = textSignals(text);
  return { items, textSignals: signals, verdict: verdictFor(items, signals) };
}

/** Whether a search box's text is one identifier (goes to /search) or a message (goes to /check). */
export { looksLikeMessage } from './message-shape.ts';

/** The part of a supabase-js client the rules need (so this file does not import supabase-js). */
interface RulesClient {
  from(table: 'brands' | 'check_domain_lists'): {
    select(columns: string): PromiseLike<{ data: unknown[] | null; error: { message: string } | null }>;
  };
}

/** Reads the check's data (public.brands and public.check_domain_lists, readable by everyone). */
export async function fetchCheckRules(client: RulesClient): Promise<CheckRules> {
  const [brands, lists] = await Promise.all([
    client.from('brands').select('name, category, official_domains, keywords, short_keywords'),
    client.from('check_domain_lists').select('list, value'),
  ]);
  if (brands.error) throw new Error(brands.error.message);
  if (lists.error) throw new Error(lists.error.message);
  const rows = (lists.data ?? []) as { list: string; value: string }[];
  return {
    brands: (brands.data ?? []) as Brand[],
    shorteners: rows.filter((r) => r.list === 'shortener').map((r) => r.value),
    abusedTlds: rows.filter((r) => r.list === 'abused-tld').map((r) => r.value),
  };
}

/**
 * public.check_identifiers' answer (jsonb), one row per identifier asked, as a zod schema: the API
 * parses the answer with it, and supabase/tests/db/jsonb-shapes.test.ts holds it to the real answer.
 */
export const lookupRowsSchema = z.array(
  z.object({
    type: z.enum(['mobile', 'email', 'website', 'ewallet', 'crypto']),
    value: z.string(),
    canonical: z.string(),
    count: z.number().int().min(0),
    risk_level: z.number().int().min(0).max(100),
    risk_label: z.enum(['low', 'medium', 'high']),
    verified_count: z.number().int().min(0),
    pending_count: z.number().int().min(0),
    /** "Reported N times, not yet reviewed" when every report is pending, else null. */
    risk_note: z.string().nullable(),
  }),
);
export type LookupRow = z.infer<typeof lookupRowsSchema>[number];

/** The identifiers to send to public.check_identifiers (one call for the whole message). */
export function lookupInput(items: ExtractedItem[]): { type: IdentifierKind; value: string }[] {
  // A social account is looked up as the link it is: canonical_identifier('website', 'facebook.com/x')
  // is 'facebook.com/x', and public.check_identifiers matches on the canonical form alone.
  return items.map((i) => ({
    type: i.type === 'social' ? 'website' : i.type,
    value: i.canonical.slice(0, 256),
  }));
}

export function lookupsFrom(rows: LookupRow[]): Map<string, Lookup> {
  return new Map(
    rows.map((r) => [
      r.canonical,
      { count: r.count, riskLevel: r.risk_level, riskLabel: r.risk_label, verifiedCount: r.verified_count },
    ]),
  );
}
