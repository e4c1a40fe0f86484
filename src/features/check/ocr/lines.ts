/**
 * From the lines Tesseract read to the text of the message: the phone's status bar and on-screen
 * keyboard left out, line breaks kept, and a number, link or e-mail that a chat bubble wrapped onto the
 * next line joined again (the message check would otherwise see two halves, neither an identifier).
 */

export interface ReadLine {
  text: string;
  /** Top and bottom of the line, in pixels of the image that was read. */
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** Tesseract's confidence for the line, 0-100. */
  confidence: number;
}

/** The status bar is the top 5% of a phone screenshot. */
const STATUS_BAR_SHARE = 0.05;
/** What a status bar shows: a clock, a battery percentage, network names. */
const STATUS_BAR = /\b\d{1,2}:\d{2}\b|\d{1,3}\s?%|\b(?:LTE|4G|5G|3G|H\+|VoLTE|Wi-?Fi)\b/i;

/** The rows of a QWERTY keyboard (letters, and the digits row), as a keyboard shows them. */
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1234567890'];

/**
 * A keyboard row: at least four short "words" (keys read one to three at a time), whose characters
 * follow one of the keyboard's rows in order for the most part (OCR merges and misses keys).
 */
export function isKeyboardRow(text: string): boolean {
  const keys = text
    .toLowerCase()
    .split(/[\s|]+/)
    .filter(Boolean);
  if (keys.length < 4) return false;
  if (keys.filter((k) => k.length <= 3).length < keys.length * 0.8) return false;
  const letters = keys.join('').replace(/[^a-z0-9]/g, '');
  if (letters.length < 5) return false;
  return KEYBOARD_ROWS.some((row) => {
    let at = 0;
    let matched = 0;
    for (const ch of letters) {
      const found = row.indexOf(ch, at);
      if (found >= 0) {
        matched++;
        at = found + 1;
      }
    }
    return matched >= 5 && matched >= letters.length * 0.6;
  });
}

/** The keyboard's word suggestions above it: two to five short words between bars ("po | ako | ok"). */
const SUGGESTIONS = /^[\p{L}\p{N}'’]{1,12}(?:\s*\|\s*[\p{L}\p{N}'’]{1,12}){1,4}$/u;

/**
 * One line cleaned of what OCR makes of a screen's edges and shapes (bars and brackets standing alone
 * at either end, from bubble edges, avatars and a photo's bezel), and of its usual misreadings inside
 * links: "https:/f" or "https:/" for "https://", "t.mef" for "t.me/", and a capital I for l in a host
 * written in lower case ("Ibc-delivery.top").
 */
export function cleanLine(line: string): string {
  let text = line
    .replace(/^(?:[|!{}[\]()<>«»~_—–=.,;:'"`\\/-]+\s+)+/u, '')
    .replace(/(?:\s+[|!{}[\]()<>~_—–=;:\\/]+)+$/u, '')
    .trim();
  text = text.replace(/\bh[a-z]{1,2}p(s?):[/\\|lIi1jf]{1,2}(?=[a-z0-9-])/gi, (_, s: string) => `http${s}://`);
  text = text.replace(/\b(t|wa|m|fb)\.me[fIl1|\\](?=[a-z0-9_])/gi, '$1.me/');
  text = text
    .split(/(\s+)/)
    .map((token) => {
      const host = /^((?:https?:\/\/)?)([A-Za-z0-9.-]+\.[a-z]{2,})(\/\S*)?$/.exec(token);
      if (!host || !host[2].includes('I') || /[A-HJ-Z]/.test(host[2])) return token;
      return host[1] + host[2].replace(/I/g, 'l') + (host[3] ?? '');
    })
    .join('');
  return text;
}

/** Lines with fewer than 3 letters or digits are noise (shapes read as characters). */
const hasWords = (text: string) => (text.match(/[\p{L}\p{N}]/gu) ?? []).length >= 3;

/**
 * The lines that belong to the message: without the status bar's lines (a clock or battery in the top
 * 5% of a phone screenshot) and without the keyboard (from its first row down).
 */
export function messageLines(lines: ReadLine[], imageHeight: number, phone: boolean): ReadLine[] {
  const kept: ReadLine[] = [];
  for (const line of lines) {
    if (isKeyboardRow(line.text)) break;
    if (phone && line.bottom <= imageHeight * STATUS_BAR_SHARE && STATUS_BAR.test(line.text)) continue;
    const text = cleanLine(line.text);
    if (!hasWords(text) || SUGGESTIONS.test(text)) continue;
    kept.push({ ...line, text });
  }
  return kept;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/** A Philippine mobile number's digits: 09XXXXXXXXX or 639XXXXXXXXX. */
function isMobileDigits(digits: string): boolean {
  return /^09\d{9}$/.test(digits) || /^639\d{9}$/.test(digits);
}

/** The number a line ends with (digits, spaces, dashes; a leading +), if any. */
const TRAILING_NUMBER = /(?:^|[^\d+])(\+?\d[\d -]*)$/;
/** The number a line starts with. */
const LEADING_NUMBER = /^(\d[\d -]*)/;
/** The link or e-mail a line ends with: a run with no spaces that has a dot, @ or :// in it. */
const TRAILING_LINK = /(\S*(?:\.|@|:\/\/)\S*)$/;
/** Characters after which a link goes on (a wrap inside the link, not after it). */
const LINK_CONTINUES = /[-/._?=&#%@~+:]$/;
/** Characters a link's continuation starts with. */
const CONTINUATION_START = /^[-/._?=&#%~]/;

/**
 * Joins two lines when the first ends inside an identifier that the second finishes: a mobile
 * number split between them (the two parts make exactly a number's digits), or a link or e-mail cut at
 * one of its own characters (`-`, `/`, `.`, `@`...). Returns the joiner ('' or ' '), or null to keep the
 * line break.
 */
export function joinerBetween(first: string, second: string, firstIsFull = false): '' | ' ' | null {
  const a = first.trimEnd();
  const b = second.trimStart();
  if (!a || !b) return null;
  const tail = TRAILING_NUMBER.exec(a)?.[1];
  const head = LEADING_NUMBER.exec(b)?.[1];
  if (tail && head) {
    const tailDigits = digitsOf(tail);
    if (!isMobileDigits(tailDigits) && isMobileDigits(tailDigits + digitsOf(head))) return ' ';
  }
  const link = TRAILING_LINK.exec(a)?.[1];
  if (link && /[a-z0-9]/i.test(b[0] ?? '') && LINK_CONTINUES.test(link) && !/[.:]$/.test(link)) return '';
  if (link && CONTINUATION_START.test(b)) return '';
  // A link too long for the bubble, broken at any character: it is the whole line, and the line is as
  // wide as the widest.
  if (link && firstIsFull && link === a && link.length >= 16 && /^[a-z0-9/._~%?=&#-]/i.test(b)) return '';
  // A wallet address too long for the bubble: a run of 20+ letters and digits that fills the line.
  const run = /(?:^|\s)([A-Za-z0-9]{20,})$/.exec(a)?.[1];
  if (run && firstIsFull && /^[A-Za-z0-9]/.test(b)) return '';
  // A host wrapped at one of its hyphens ("gcash-verify-" / "ph.com/login").
  if (/(?:^|\s)[a-z0-9][a-z0-9.-]*-$/i.test(a) && /^[a-z0-9-]*\.[a-z]{2,}/i.test(b)) return '';
  // An e-mail cut right after its @.
  if (link && link.endsWith('@')) return '';
  // A link cut after a dot of its host ("https://gcash-verify." / "com/login"): only for a clear link
  // (with :// or www.), since a sentence's full stop looks the same.
  if (link && /\.$/.test(link) && /:\/\/|^www\./i.test(link) && /^[a-z]{2,6}(?:\/\S*)?(?:\s|$)/i.test(b))
    return '';
  return null;
}

export interface TextLine {
  text: string;
  /** As wide as the widest line read (a long link may have been broken at any character). */
  full?: boolean;
}

/** The message's text: its lines in order, wrapped identifiers joined, other line breaks kept. */
export function joinLines(lines: (string | TextLine)[]): string {
  const out: { text: string; full: boolean }[] = [];
  for (const item of lines) {
    const line = (typeof item === 'string' ? item : item.text).trim();
    const full = typeof item === 'string' ? false : !!item.full;
    if (!line) continue;
    const last = out.at(-1);
    const joiner = last ? joinerBetween(last.text, line, last.full) : null;
    if (!last || joiner === null) out.push({ text: line, full });
    else {
      last.text = last.text.trimEnd() + joiner + line;
      last.full = full;
    }
  }
  return out.map((l) => l.text).join('\n');
}

/** Marks the lines as wide as the widest (85% of it or more). */
export function withFullness(lines: ReadLine[]): TextLine[] {
  const widest = Math.max(0, ...lines.map((l) => l.right - l.left));
  return lines.map((l) => ({ text: l.text, full: widest > 0 && l.right - l.left >= widest * 0.85 }));
}

/** Mean confidence of the lines kept, weighted by their length (long lines say more). */
export function meanConfidence(lines: ReadLine[]): number {
  let weight = 0;
  let sum = 0;
  for (const l of lines) {
    const w = l.text.trim().length;
    weight += w;
    sum += w * l.confidence;
  }
  return weight ? sum / weight : 0;
}

/** The part of Tesseract's answer (a page of blocks) that the reading needs. */
export interface OcrPage {
  blocks:
    | {
        paragraphs: {
          lines: {
            text: string;
            confidence: number;
            bbox: { x0: number; y0: number; x1: number; y1: number };
          }[];
        }[];
      }[]
    | null;
}

export interface Reading {
  /** The message's text as read: status bar and keyboard left out, wrapped identifiers joined. */
  text: string;
  /** How sure the OCR is of the lines kept, 0-100 (weighted by their length). */
  confidence: number;
  /** Lines kept. */
  lines: number;
}

/** The text of a screenshot from Tesseract's page: lines top to bottom, then messageLines and joinLines. */
export function readingFromPage(page: OcrPage, imageHeight: number, phone: boolean): Reading {
  const lines: ReadLine[] = [];
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        const text = line.text.replace(/\s+$/, '');
        if (!text.trim()) continue;
        lines.push({
          text,
          confidence: line.confidence,
          top: line.bbox.y0,
          bottom: line.bbox.y1,
          left: line.bbox.x0,
          right: line.bbox.x1,
        });
      }
  // Chat bubbles sit left and right but are read top to bottom.
  lines.sort((a, b) => a.top - b.top);
  const kept = messageLines(lines, imageHeight, phone);
  return { text: joinLines(withFullness(kept)), confidence: meanConfidence(kept), lines: kept.length };
}
