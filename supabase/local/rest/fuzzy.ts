/**
 * The fuzzy string set PostgREST's error hints use (Haskell's `fuzzyset` 0.2, after fuzzyset.js):
 * cosine similarity of the character n-grams of the lower-cased text without punctuation, trying
 * 3-grams and then 2-grams, keeping scores above 0.33 (that version does not re-score by Levenshtein
 * distance as fuzzyset.js does). PGRST200 and PGRST202 name a close match with it, or give no hint.
 * Written here rather than taken from npm: the `fuzzyset` package carries its own licence (see its
 * LICENSE.md) instead of an open-source one, and it re-scores, so its hints would differ anyway.
 */

const MIN_SCORE = 0.33;
const GRAM_SIZES = [3, 2];

/** Lower case without the characters fuzzyset drops (anything but letters, digits, spaces and commas). */
function normalize(value: string): string {
  return value.toLowerCase().replace(/[^\p{L}\p{N}, ]+/gu, '');
}

function gramCounts(value: string, size: number): Map<string, number> {
  let s = `-${normalize(value)}-`;
  while (s.length < size) s += '-';
  const out = new Map<string, number>();
  for (let i = 0; i + size <= s.length; i++) {
    const g = s.slice(i, i + size);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

function magnitude(v: Map<string, number>): number {
  let sum = 0;
  for (const n of v.values()) sum += n * n;
  return Math.sqrt(sum);
}

/** The entries close to `value`, best first, as `[score, entry]`; an exact (case-blind) match scores 1. */
export function fuzzyGet(entries: Iterable<string>, value: string): [number, string][] {
  const list = [...new Set(entries)];
  const key = value.toLowerCase();
  const exact = list.find((e) => e.toLowerCase() === key);
  if (exact !== undefined) return [[1, exact]];
  for (const size of GRAM_SIZES) {
    const grams = gramCounts(value, size);
    const norm = magnitude(grams);
    const scored: [number, string][] = [];
    for (const entry of list) {
      const other = gramCounts(entry, size);
      let dot = 0;
      for (const [g, n] of grams) dot += n * (other.get(g) ?? 0);
      if (dot > 0) scored.push([dot / (norm * magnitude(other)), entry]);
    }
    if (scored.length === 0) continue;
    const kept = scored.filter(([score]) => score > MIN_SCORE).sort((a, b) => b[0] - a[0]);
    if (kept.length) return kept;
  }
  return [];
}

/** The best entry close to `value`, or null. */
export function fuzzyGetOne(entries: Iterable<string>, value: string): string | null {
  return fuzzyGet(entries, value)[0]?.[1] ?? null;
}
