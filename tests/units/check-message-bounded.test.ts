/**
 * Issue 28, item 2: the message check in bounded time. linkify-it's match() is exponential in the labels
 * of a host like 'xn--a.xn--a.(...)xn--' (24 labels took 13 s); extraction now bounds every run of text
 * before the backtracking matchers see it and stops at a time budget. Property: for every input of this
 * family (and random mixes of its parts) up to 5,000 characters, extraction stays under a ceiling per
 * input size.
 */
import { describe, expect, it } from 'vitest';
import {
  boundRuns,
  EXTRACTION_BUDGET_MS,
  extractIdentifiers,
  extractIdentifiersWithin,
  MAX_DOTS_IN_RUN,
  MAX_RUN_LENGTH,
  messageLength,
} from '../../supabase/functions/_shared/check-message.ts';

/** Ceiling for one input of n characters on a loaded 2-core machine: the budget plus one piece's work. */
const ceiling = (n: number) => EXTRACTION_BUDGET_MS + 300 + n * 0.05;

function time(text: string): number {
  const t0 = performance.now();
  extractIdentifiers(text);
  return performance.now() - t0;
}

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PARTS = [
  'xn--a.',
  'xn--',
  'a.',
  'a-',
  '-',
  '.',
  'xn--a-',
  '1.',
  '@',
  'a@',
  ':',
  '/',
  '09',
  'http://',
  'www.',
  'ab',
];

function family(n: number): string[] {
  return [
    'xn--a.'.repeat(Math.ceil(n / 6)).slice(0, n - 4) + 'xn--',
    ('x' + 'xn--a.'.repeat(Math.ceil(n / 6))).slice(0, n - 5) + 'xn--a',
    'a.'.repeat(n / 2),
    'xn--a-'.repeat(n / 6) + '.com',
    'a@' + 'xn--a.'.repeat(n / 6),
    'http://' + 'xn--a.'.repeat(n / 6 - 2) + 'xn--',
    '1.'.repeat(n / 2),
    ('xn--a.'.repeat(20) + 'xn-- ').repeat(Math.ceil(n / 126)).slice(0, n),
  ];
}

describe('message check in bounded time', () => {
  it('bounds every run: at most MAX_DOTS_IN_RUN dots and MAX_RUN_LENGTH characters, same length', () => {
    const text = 'see xn--a.'.repeat(3) + 'xn--a.'.repeat(400) + ' ok';
    const bounded = boundRuns(text);
    expect(bounded.length).toBe(text.length);
    for (const run of bounded.split(/\s+/)) {
      expect(run.length).toBeLessThanOrEqual(MAX_RUN_LENGTH);
      expect(run.split('.').length - 1).toBeLessThanOrEqual(MAX_DOTS_IN_RUN);
    }
    // real links keep their host
    expect(
      extractIdentifiers('Visit https://a.b.c.gcash-verify-ph.com/x now').map((i) => i.canonical),
    ).toEqual(['a.b.c.gcash-verify-ph.com']);
  });

  it('the pathological family stays under its ceiling at every size', () => {
    for (const n of [150, 500, 1000, 2500, 5000]) {
      for (const text of family(n)) {
        const ms = time(text);
        expect([n, text.slice(0, 30), ms < ceiling(n)]).toEqual([n, text.slice(0, 30), true]);
      }
    }
  }, 120_000);

  it('random mixes of the family parts stay under their ceiling (200 inputs, seeded)', () => {
    const random = rng(30);
    for (let i = 0; i < 200; i++) {
      const n = 50 + Math.floor(random() * 4950);
      let text = '';
      while (text.length < n) text += PARTS[Math.floor(random() * PARTS.length)];
      text = text.slice(0, n);
      const ms = time(text);
      expect([i, ms < ceiling(n)]).toEqual([i, true]);
    }
  }, 300_000);

  it('a time budget stops the work and says so', () => {
    const text = ('gcash-promo.com 0917 123 4567 ' + 'xn--a.'.repeat(10) + ' ').repeat(150);
    const all = extractIdentifiersWithin(text, 10_000);
    expect(all.complete).toBe(true);
    const none = extractIdentifiersWithin(text, -1);
    expect(none.complete).toBe(false);
    expect(none.items).toEqual([]);
  });

  it('counts a message in characters as people do (an emoji is one)', () => {
    expect(messageLength('😀'.repeat(5000))).toBe(5000);
    expect('😀'.repeat(5000).length).toBe(10000);
  });
});
