/**
 * Fuzzing the canonical identifier rules (issue 12) with fast-check: supabase/functions/_shared/canonical.ts
 * and its SQL twin (public.canonical_identifier, detect_identifier_kind, canonical_identifier_auto) on
 * inputs shaped like what people type (numbers in every written form, e-mails, addresses with schemes,
 * ports, IDN labels and Unicode dots, wallet addresses with payment schemes) and on arbitrary Unicode.
 *
 * Properties, `runs` generated inputs each: the TypeScript never throws; it is idempotent (the canonical
 * form of a canonical form is itself, kind by kind and detected); and TypeScript and SQL give the same
 * canonical form for every kind and the same detected kind for every input. The SQL side is asked in
 * batches (one query per 2,000 inputs), so 10k runs take seconds; a value fast-check shrinks to is asked
 * on its own.
 */
import fc from 'fast-check';
import type pg from 'pg';
import {
  IDENTIFIER_KINDS,
  canonicalIdentifier,
  canonicalIdentifierAuto,
  detectIdentifierKind,
} from '../../supabase/functions/_shared/canonical.ts';

type Kind = (typeof IDENTIFIER_KINDS)[number];
interface Answers {
  kinds: Record<Kind, string | null>;
  detect: string | null;
  auto: string | null;
}

const chars = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const spaces = chars(' \t\u00a0\u3000', 0, 2);
const digits = chars('0123456789', 1, 16);
const phone = fc
  .tuple(
    fc.constantFrom('', '+', '00', '0', '+63', '063', '63', '(+', '(+63) ', '( +63 )', '((+', '(00'),
    fc.array(fc.tuple(digits, chars(' .-()', 0, 2)), { minLength: 1, maxLength: 5 }),
  )
  .map(([prefix, parts]) => prefix + parts.map(([d, sep]) => d + sep).join(''));
const label = fc.oneof(
  fc.domain().map((d) => d.split('.')[0]),
  chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-', 1, 12),
  chars('ñáéíóúüßçøåæœ日本語例えгугл中文αβγ😀', 1, 6),
);
const host = fc
  .tuple(
    fc.array(label, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('.', '\u3002', '\uff0e', '\uff61'),
    fc.constantFrom('com', 'ph', 'com.ph', 'xyz', 'top', 'COM', 'x', '中国', 'рф'),
  )
  .map(([labels, dot, tld]) => [...labels, tld].join(dot));
const website = fc
  .tuple(
    fc.constantFrom('', 'http://', 'https://', 'HTTPS://', '//', 'ftp://', 'hxxp://', 'www.'),
    fc.option(chars('abc:@', 1, 6), { nil: '' }),
    fc.oneof(host, fc.ipV4()),
    fc.constantFrom('', ':', ':8080', '.', '..'),
    fc.constantFrom('', '/', '/path?q=1#frag', '?x', '#', '\\evil', '/ü'),
  )
  .map(([scheme, user, h, port, path]) => scheme + (user ? `${user}@` : '') + h + port + path);
const email = fc.oneof(
  fc.emailAddress(),
  fc.tuple(fc.constantFrom('', 'mailto:', 'MAILTO:'), label, host).map(([m, l, h]) => `${m}${l}@${h}`),
);
const base58 = chars('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 20, 48);
const crypto = fc.oneof(
  fc.tuple(fc.constantFrom('0x', '0X'), chars('0123456789abcdefABCDEF', 38, 42)).map(([p, h]) => p + h),
  fc
    .tuple(fc.constantFrom('bc1', 'BC1', 'tb1', 'ltc1'), chars('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 4, 90))
    .map(([p, b]) => p + b),
  fc.tuple(fc.constantFrom('1', '3', 'T', ''), base58).map(([p, b]) => p + b),
  fc
    .tuple(
      fc.constantFrom('bitcoin:', 'ethereum:', 'TRON:', 'solana:'),
      base58,
      fc.constantFrom('', '?amount=1', '@1'),
    )
    .map(([s, b, q]) => s + b + q),
);
const ewallet = fc.oneof(
  phone,
  chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.@', 1, 24),
);

/** What a visitor might type, with stray spaces around it; NUL is excluded (Postgres text cannot hold it, and the API refuses it). */
export const typedIdentifier: fc.Arbitrary<string> = fc
  .tuple(
    spaces,
    fc.oneof(
      { weight: 3, arbitrary: phone },
      { weight: 3, arbitrary: website },
      { weight: 2, arbitrary: email },
      { weight: 2, arbitrary: crypto },
      { weight: 1, arbitrary: ewallet },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 20 }) },
    ),
    spaces,
  )
  .map(([a, s, b]) => (a + s + b).replaceAll(String.fromCharCode(0), ''));

function tsAnswers(input: string): Answers {
  const kinds = Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, canonicalIdentifier(k, input)])) as Record<
    Kind,
    string | null
  >;
  return { kinds, detect: detectIdentifierKind(input), auto: canonicalIdentifierAuto(input) };
}

/** The SQL functions' answers for many inputs in one query. */
async function sqlAnswers(pool: pg.Pool, inputs: string[]): Promise<Answers[]> {
  const { rows } = await pool.query<{ r: Answers }>(
    `select jsonb_build_object(
              'kinds', jsonb_build_object(
                'mobile', public.canonical_identifier('mobile', v.input),
                'email', public.canonical_identifier('email', v.input),
                'website', public.canonical_identifier('website', v.input),
                'ewallet', public.canonical_identifier('ewallet', v.input),
                'crypto', public.canonical_identifier('crypto', v.input),
                'social', public.canonical_identifier('social', v.input)),
              'detect', public.detect_identifier_kind(v.input),
              'auto', public.canonical_identifier_auto(v.input)) as r
       from jsonb_array_elements_text($1::jsonb) with ordinality as v(input, n)
      order by v.n`,
    [JSON.stringify(inputs)],
  );
  // jsonb orders keys its own way: rebuild each answer in the TypeScript side's order.
  return rows.map(({ r }) => ({
    kinds: Object.fromEntries(IDENTIFIER_KINDS.map((k) => [k, r.kinds[k]])) as Record<Kind, string | null>,
    detect: r.detect,
    auto: r.auto,
  }));
}

export interface CanonicalFuzzResult {
  runs: number;
  seconds: number;
  sqlQueries: number;
  /** Code points the two Unicode versions case-map or compose differently (left out of the inputs). */
  unicodeVersionGap: number[];
}

/**
 * Code points whose lowercase or NFC form differs between this Node (its ICU's Unicode version) and the
 * database (Postgres's own Unicode tables): letters added in a newer Unicode than one side knows. No rule
 * can make the two agree on them, so the inputs leave them out and the run prints how many there are.
 */
async function unicodeVersionGap(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ i: number; l: string; n: string }>(
    `select i, lower(replace(chr(i), U&'\\0130', U&'i\\0307')) as l, normalize(chr(i), nfc) as n
       from generate_series(1, 1114111) i
      where (i < 55296 or i > 57343)
        and (lower(replace(chr(i), U&'\\0130', U&'i\\0307')) <> chr(i) or normalize(chr(i), nfc) <> chr(i))`,
  );
  const db = new Map(rows.map((r) => [r.i, r]));
  const gap: number[] = [];
  for (let i = 1; i <= 0x10ffff; i++) {
    if (i >= 0xd800 && i <= 0xdfff) continue;
    const c = String.fromCodePoint(i);
    const d = db.get(i);
    if ((d?.l ?? c) !== c.toLowerCase() || (d?.n ?? c) !== c.normalize('NFC')) gap.push(i);
  }
  return gap;
}

/** Runs the three properties; throws fast-check's report (seed, counterexample, shrunk value) on a failure. */
export async function fuzzCanonical(opts: {
  pool: pg.Pool;
  runs: number;
  seed?: number;
}): Promise<CanonicalFuzzResult> {
  const began = Date.now();
  const seed = opts.seed ?? Date.now() ^ (Math.random() * 0x7fffffff);
  const params = { numRuns: opts.runs, seed, endOnFailure: false };
  const gap = await unicodeVersionGap(opts.pool);
  const skip = new Set(gap);
  const input = typedIdentifier.filter((s) => !Array.from(s).some((c) => skip.has(c.codePointAt(0)!)));

  // 1. Never throws, and idempotent: canonical(kind, canonical(kind, x)) = canonical(kind, x).
  fc.assert(
    fc.property(input, (value) => {
      const a = tsAnswers(value);
      for (const k of IDENTIFIER_KINDS) {
        const c = a.kinds[k];
        if (c !== null && canonicalIdentifier(k, c) !== c)
          throw new Error(
            `${k}: ${JSON.stringify(c)} canonicalises again to ${JSON.stringify(canonicalIdentifier(k, c))}`,
          );
      }
      if (a.auto !== null && a.detect !== null && canonicalIdentifier(a.detect as Kind, a.auto) !== a.auto)
        throw new Error(`auto (${a.detect}): ${JSON.stringify(a.auto)} is not stable`);
    }),
    params,
  );

  // 2. TypeScript and SQL agree. The inputs fast-check will generate for this seed are asked in batches
  // first; the property then compares from that table and asks SQL directly only for shrunk values.
  const inputs = fc.sample(input, { numRuns: opts.runs, seed });
  const known = new Map<string, Answers>();
  let sqlQueries = 0;
  for (let i = 0; i < inputs.length; i += 2000) {
    const batch = inputs.slice(i, i + 2000);
    const answers = await sqlAnswers(opts.pool, batch);
    sqlQueries++;
    batch.forEach((input, j) => known.set(input, answers[j]));
  }
  await fc.assert(
    fc.asyncProperty(input, async (value) => {
      let sql = known.get(value);
      if (!sql) {
        sqlQueries++;
        sql = (await sqlAnswers(opts.pool, [value]))[0];
      }
      const ts = tsAnswers(value);
      if (JSON.stringify(ts) !== JSON.stringify(sql))
        throw new Error(`TypeScript ${JSON.stringify(ts)}\n         SQL ${JSON.stringify(sql)}`);
    }),
    params,
  );
  return { runs: opts.runs, seconds: (Date.now() - began) / 1000, sqlQueries, unicodeVersionGap: gap };
}
