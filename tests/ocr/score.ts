/**
 * How well the identifiers of a screenshot are found from its image, against the same message as text:
 * both go through the message check's own extraction; an identifier is its kind and canonical form.
 */
import { extractIdentifiers } from '../../supabase/functions/_shared/check-message.ts';

export function identifierSet(text: string): Set<string> {
  return new Set(extractIdentifiers(text).map((i) => `${i.type}:${i.canonical}`));
}

export interface Score {
  expected: number;
  found: number;
  matched: number;
  missed: string[];
  extra: string[];
}

export function score(truth: string, read: string): Score {
  const want = identifierSet(truth);
  const got = identifierSet(read);
  const matched = [...got].filter((g) => want.has(g)).length;
  return {
    expected: want.size,
    found: got.size,
    matched,
    missed: [...want].filter((w) => !got.has(w)),
    extra: [...got].filter((g) => !want.has(g)),
  };
}

export function totals(scores: Score[]) {
  const expected = scores.reduce((s, x) => s + x.expected, 0);
  const found = scores.reduce((s, x) => s + x.found, 0);
  const matched = scores.reduce((s, x) => s + x.matched, 0);
  return {
    expected,
    found,
    matched,
    recall: expected ? matched / expected : 1,
    precision: found ? matched / found : 1,
  };
}
