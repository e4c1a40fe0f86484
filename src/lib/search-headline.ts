/**
 * The results page's one-line answer (issue 37): which sentence it is, from the same facts the verdict
 * uses, and how a searched identifier may wrap. Both functions are also inlined into index.html (the
 * results page shell, src/boot/page-shell.ts), so each must stand alone: no imports, nothing from outside
 * its body, syntax every supported browser parses unbundled.
 *
 * The sentences themselves are the catalogues' `search.headline.*` (English and Filipino).
 */

/** none: nobody reported it; pending: reported, none of it reviewed yet; verified: an admin confirmed some. */
export type HeadlineTone = 'none' | 'pending' | 'verified';

/**
 * Which sentence: `none` "Nobody has reported this yet", `pending` "Reported N times, not yet reviewed",
 * `pendingLatest` "Reported N times, the latest S not yet reviewed" (older reports exist beyond the S
 * the answer lists and their review state is not in the answer), `verified` "Reported N times, V
 * verified: do not send money or share codes", `verifiedAtLeast` the same with "at least V" (V counted
 * among the listed reports only).
 */
export type HeadlineKey = 'none' | 'pending' | 'pendingLatest' | 'verified' | 'verifiedAtLeast';

export interface HeadlineFacts {
  tone: HeadlineTone;
  key: HeadlineKey;
  /** Visible reports (pending and verified). */
  count: number;
  /** Verified reports: exact, or a lower bound for `verifiedAtLeast`. */
  verified: number;
  /** How many reports the answer lists (the newest ones). */
  shown: number;
}

/**
 * The facts a search answer gives the headline; `summary.verified_count` (every answer carries it since
 * issue 27) is exact. Without it (an older answer) the listed reports' statuses are used.
 */
export interface HeadlineAnswer {
  count: number;
  reports: ReadonlyArray<{ status: string }>;
  summary?: { verified_count?: number | null } | null;
}

/**
 * The headline for a search answer. The answer counts visible reports and lists the newest few with
 * their status; when it also says how many are verified (`summary.verified_count`), that is used.
 * Otherwise the list is exact when it holds every report, and a lower bound when there are more.
 */
export function headlineFacts(answer: HeadlineAnswer): HeadlineFacts {
  const count = answer.count > 0 ? answer.count : 0;
  const shown = answer.reports.length;
  let listed = 0;
  for (let i = 0; i < shown; i++) if (answer.reports[i].status === 'verified') listed++;
  if (count === 0) return { tone: 'none', key: 'none', count: 0, verified: 0, shown: 0 };
  const known = answer.summary ? answer.summary.verified_count : null;
  const exact = typeof known === 'number' ? known : shown >= count ? listed : null;
  if (exact !== null) {
    return exact > 0
      ? { tone: 'verified', key: 'verified', count, verified: exact, shown }
      : { tone: 'pending', key: 'pending', count, verified: 0, shown };
  }
  return listed > 0
    ? { tone: 'verified', key: 'verifiedAtLeast', count, verified: listed, shown }
    : { tone: 'pending', key: 'pendingLatest', count, verified: 0, shown };
}

/**
 * A searched identifier cut where it may wrap: phone numbers, e-mail addresses, web addresses and
 * wallet addresses never break inside a group of digits or a word, only after a separator (`@`, `.`,
 * `/`, `:`, `?`, `&`, `=`, `_`, `-`, `#`) or at a space that separates words. A short value (up to
 * 20 characters, a phone number with its spaces included) stays whole. The pieces joined give the
 * value back unchanged.
 */
export function identifierSegments(value: string): string[] {
  if (value.length <= 20) return [value];
  const pieces: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    current += ch;
    if ('@./:?&=_-# '.indexOf(ch) >= 0 && i < value.length - 1) {
      pieces.push(current);
      current = '';
    }
  }
  if (current) pieces.push(current);
  // Digits split by spaces ('0917 555 0142 and ...') are one number: their pieces rejoin.
  const joined: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const last = joined.length - 1;
    if (last >= 0 && /[0-9)] $/.test(joined[last]) && /^[0-9(]/.test(pieces[i])) {
      joined[last] += pieces[i];
    } else {
      joined.push(pieces[i]);
    }
  }
  return joined;
}
