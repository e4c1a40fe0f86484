/**
 * lookalikeBrand indexes the brand list (check-message.ts, brandIndex) and runs its checks only on
 * the brands a host can match. Its answer must be the one the checks give over every brand in order:
 * here against a plain reference, the checks written out over the whole list (as the function was
 * before the index), on the brands of the migrations and hosts made of their words, typos of them,
 * confusable characters and random labels.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse as parseHost } from 'tldts';
import { describe, expect, it } from 'vitest';
import {
  PHISHING_WORDS,
  lookalikeBrand,
  skeleton,
  type Brand,
} from '../../supabase/functions/_shared/check-message.ts';

/** The brands the migrations insert (name, category, official domains, keywords, short keywords). */
function migrationBrands(): Brand[] {
  const sql = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../supabase/migrations/20261127130200_brands_philippines.sql'),
    'utf8',
  );
  const list = (s: string) => (s === '{}' ? [] : s.slice(1, -1).split(','));
  return [...sql.matchAll(/\('([^']+)', '(\w+)', '(\{[^}]*\})', '(\{[^}]*\})', '(\{[^}]*\})'\)/g)].map(
    (m) =>
      ({
        name: m[1],
        category: m[2],
        official_domains: list(m[3]),
        keywords: list(m[4]),
        short_keywords: list(m[5]),
      }) as Brand,
  );
}

/** Optimal string alignment distance, plainly (more than max when the lengths differ by more). */
function osa(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** Per brand: its words (keywords and official labels of 4 characters or more), official suffixes. */
const derived = new Map<Brand, { words: string[]; officialSuffixes: string[] }>();

/** lookalikeBrand's checks over every brand, in order, without an index. */
function reference(host: string, brands: Brand[]) {
  if (!host || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || /^[0-9a-f:]+$/i.test(host))
    return null;
  if (brands.some((b) => b.official_domains.some((d) => host === d || host.endsWith(`.${d}`)))) return null;
  const parsed = parseHost(host);
  const suffix = parsed.publicSuffix ?? '';
  const ascii = host.toLowerCase();
  const folded = skeleton(host);
  const confusable = folded !== ascii && folded !== ascii.replace(/rn/g, 'm').replace(/vv/g, 'w');
  const suffixFolded = suffix ? skeleton(suffix) : '';
  const hostPart =
    suffix && folded.endsWith(`.${suffixFolded}`) ? folded.slice(0, -(suffixFolded.length + 1)) : folded;
  const labels = hostPart.split('.').filter(Boolean);
  const tokens = labels.flatMap((l) => [l, ...l.split('-'), l.replace(/-/g, '')]).filter(Boolean);
  const regFolded = skeleton(parsed.domainWithoutSuffix ?? '');
  const glued = (t: string, w: string) =>
    t.length > w.length &&
    (t.startsWith(w)
      ? PHISHING_WORDS.includes(t.slice(w.length))
      : t.endsWith(w) && PHISHING_WORDS.includes(t.slice(0, -w.length)));
  const how = (word: string) => (confusable ? 'confusable' : regFolded === word ? 'other-domain' : 'label');
  for (const brand of brands) {
    const { words, officialSuffixes } = derived.get(brand)!;
    for (const word of words)
      if (labels.some((l) => l.replace(/-/g, '').includes(word)))
        return { brand, how: how(word), matched: word };
    for (const word of brand.short_keywords)
      if (tokens.includes(word) || tokens.some((t) => glued(t, word)))
        return { brand, how: how(word), matched: word };
    for (const word of [...words, ...brand.short_keywords]) {
      if (word.length >= 5) {
        const max = word.length >= 8 ? 2 : 1;
        if (tokens.some((t) => t.length >= 4 && osa(t, word, max) <= max))
          return { brand, how: 'typo', matched: word };
      } else if (
        officialSuffixes.includes(suffix) &&
        regFolded.length === word.length &&
        osa(regFolded, word, 1) <= 1
      )
        return { brand, how: 'typo', matched: word };
    }
  }
  return null;
}

const brands = migrationBrands();
for (const brand of brands)
  derived.set(brand, {
    words: [
      ...brand.keywords,
      ...brand.official_domains.map((d) => parseHost(d).domainWithoutSuffix ?? ''),
    ].filter((w) => w.length >= 4),
    officialSuffixes: brand.official_domains.map((d) => parseHost(d).publicSuffix ?? ''),
  });
const words = [
  ...new Set(brands.flatMap((b) => [...b.keywords, ...b.short_keywords, ...b.official_domains])),
];
const suffixes = ['com', 'com.ph', 'ph', 'gov.ph', 'xyz', 'top', 'net', 'example', 'web.app'];

/** A word with up to two edits: a letter changed, dropped, doubled or two neighbours swapped. */
const typo = fc
  .tuple(
    fc.constantFrom(...words),
    fc.array(fc.tuple(fc.nat(3), fc.nat(40), fc.constantFrom(...'abcdegilmnorsu0l1-')), { maxLength: 2 }),
  )
  .map(([w, edits]) =>
    edits.reduce((s, [kind, at, c]) => {
      const i = at % Math.max(1, s.length);
      if (kind === 0) return s.slice(0, i) + c + s.slice(i + 1);
      if (kind === 1) return s.slice(0, i) + s.slice(i + 1);
      if (kind === 2) return s.slice(0, i) + c + s.slice(i);
      return s.slice(0, i) + s.slice(i + 1, i + 2) + s.slice(i, i + 1) + s.slice(i + 2);
    }, w.split('.')[0]),
  );
const label = fc.oneof(
  fc.constantFrom(...words.map((w) => w.split('.')[0]), ...PHISHING_WORDS),
  typo,
  fc.stringMatching(/^[a-z0-9]{1,12}$/),
);
const host = fc
  .tuple(
    fc.array(
      fc
        .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '-'))
        .map(([parts, glue]) => parts.join(glue)),
      { minLength: 1, maxLength: 3 },
    ),
    fc.constantFrom(...suffixes),
  )
  .map(([labels, suffix]) => `${labels.filter(Boolean).join('.')}.${suffix}`.replace(/^\./, ''));

describe('lookalikeBrand with the brand index', () => {
  it('answers as its checks over every brand in order', () => {
    expect(brands.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(host, (h) => {
        expect(lookalikeBrand(h, brands)).toEqual(reference(h, brands));
      }),
      { numRuns: 400 },
    );
    for (const b of brands)
      for (const d of b.official_domains)
        for (const h of [d, `www.${d}`, `x${d}`, `${d}.example`, d.replace(/o/, '0'), d.replace(/i/, 'l')])
          expect(lookalikeBrand(h, brands), h).toEqual(reference(h, brands));
  });
});
