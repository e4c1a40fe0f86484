import { describe, expect, it } from 'vitest';
import { RANGE_ENTRY_WIDTH, RANGE_PAGE, padRange, rangeBody, type RangeEntry } from './range-lookup';

const real = (suffix: string, count = 2): RangeEntry => ({
  suffix,
  count,
  risk_level: 50,
  risk_label: 'medium',
});
/** n reported entries with distinct suffixes. */
const many = (n: number) => Array.from({ length: n }, (_, i) => real(i.toString(16).padStart(59, '0')));
const suffixes = (entries: RangeEntry[]) => entries.map((e) => e.suffix);
const isSorted = (xs: string[]) => xs.every((x, i) => i === 0 || xs[i - 1] < x);

describe('padRange', () => {
  it('fills an empty range with one page of distinct, sorted, hash-like decoys fixed by the prefix', () => {
    const page = padRange('abcde', []);
    expect(page).toHaveLength(RANGE_PAGE);
    expect(page.every((e) => /^[0-9a-f]{59}$/.test(e.suffix))).toBe(true);
    expect(page.every((e) => e.count === 0 && e.risk_level === 0 && e.risk_label === 'low')).toBe(true);
    expect(new Set(suffixes(page)).size).toBe(RANGE_PAGE);
    expect(isSorted(suffixes(page))).toBe(true);
    expect(padRange('abcde', [])).toEqual(page);
    expect(suffixes(padRange('abcdf', []))).not.toEqual(suffixes(page));
    // Decoys look random: every hex digit turns up, none dominates.
    const digits = suffixes(page).join('');
    for (const d of '0123456789abcdef') {
      const n = digits.split(d).length - 1;
      expect(n).toBeGreaterThan(digits.length / 16 / 2);
      expect(n).toBeLessThan((digits.length / 16) * 2);
    }
  });

  it('keeps every real entry among the decoys, in suffix order, given in any order', () => {
    const reals = ['f'.repeat(59), '0'.repeat(59), '8'.repeat(59)].map((s) => real(s));
    const page = padRange('00000', reals);
    expect(page).toHaveLength(RANGE_PAGE);
    expect(isSorted(suffixes(page))).toBe(true);
    for (const r of reals) expect(page.filter((e) => e.suffix === r.suffix)).toEqual([r]);
    expect(page.filter((e) => e.count > 0)).toHaveLength(3);
    expect(page[0]).toEqual(real('0'.repeat(59)));
    expect(page[RANGE_PAGE - 1]).toEqual(real('f'.repeat(59)));
  });

  it('a real entry that a decoy would have matched appears once, as the real one', () => {
    const decoy = padRange('12345', [])[7].suffix;
    const page = padRange('12345', [real(decoy, 4)]);
    expect(page).toHaveLength(RANGE_PAGE);
    expect(page.filter((e) => e.suffix === decoy)).toEqual([real(decoy, 4)]);
    expect(new Set(suffixes(page)).size).toBe(RANGE_PAGE);
  });

  it('pads to the next whole page, and a full page stays as it is', () => {
    expect(padRange('fffff', many(33))).toHaveLength(2 * RANGE_PAGE);
    expect(padRange('fffff', many(RANGE_PAGE))).toEqual(many(RANGE_PAGE));
  });
});

describe('rangeBody', () => {
  it('gives every answer of one page the same length, whatever it holds', () => {
    const empty = rangeBody('abcde', padRange('abcde', []));
    const full = rangeBody('abcde', padRange('abcde', [real('1'.repeat(59), 12345)]));
    expect(full.length).toBe(empty.length);
    expect(JSON.parse(full).entries).toHaveLength(RANGE_PAGE);
    expect(empty.split('\n')[1]).toHaveLength(RANGE_ENTRY_WIDTH + 1);
  });

  it('writes exactly what JSON.stringify and padding give, decoys and reported entries alike', () => {
    const reference = (prefix: string, entries: RangeEntry[]) =>
      `{"prefix":"${prefix}","entries":[\n${entries
        .map((e) => JSON.stringify(e).padEnd(RANGE_ENTRY_WIDTH, ' '))
        .join(',\n')}\n]}`;
    for (const reals of [
      [],
      [real('0'.repeat(59), 0)],
      [real('a'.repeat(59), 3), real('b'.repeat(59), 1)],
      many(40),
    ])
      for (const prefix of ['00000', 'abcde', 'fffff']) {
        const page = padRange(prefix, reals);
        expect(rangeBody(prefix, page)).toBe(reference(prefix, page));
      }
    // An entry that is no decoy but has count 0 (risk above 0) is not written as one.
    const odd: RangeEntry = { suffix: 'c'.repeat(59), count: 0, risk_level: 5, risk_label: 'low' };
    expect(rangeBody('abcde', [odd])).toBe(reference('abcde', [odd]));
    expect(rangeBody('abcde', [])).toBe(reference('abcde', []));
  });
});
