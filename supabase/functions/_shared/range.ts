/**
 * The private range lookup (issue 14, section 4), shared by the api function (padding, answer shape)
 * and its callers (the app, and any program: this file is plain TypeScript with Web Crypto, which
 * browsers, Deno and Node 20 all have).
 *
 * To check an identifier without telling ScamCheck which one:
 *   1. canonicalise it as search does (canonical.ts),
 *   2. take the SHA-256 of the canonical form's UTF-8 bytes, as lower-case hex,
 *   3. send only the first 5 characters: GET /api/v1/range/{prefix},
 *   4. look for the other 59 characters among the answer's entries. An entry with count 0 is a decoy
 *      (or, equally, an identifier nobody reported); no entry means the same as count 0.
 */
import { sha256 } from 'npm:@noble/hashes@2.4.0/sha2.js';
import { bytesToHex, utf8ToBytes } from 'npm:@noble/hashes@2.4.0/utils.js';
import { canonicalIdentifier, detectIdentifierKind, type IdentifierKind } from './canonical.ts';
import { sha256Hex } from './api-keys.ts';

export const RANGE_PREFIX_LENGTH = 5;
/** Answers hold a multiple of this many entries, decoys filling the rest. */
export const RANGE_PAGE = 32;

export type RiskLabel = 'low' | 'medium' | 'high';

export interface RangeEntry {
  /** The SHA-256 (hex) of the canonical identifier without its first 5 characters. */
  suffix: string;
  /** Visible (pending or verified) reports, as search counts them. */
  count: number;
  /** 0-100, as search computes it. */
  risk_level: number;
  risk_label: RiskLabel;
}

export interface RangeAnswer {
  prefix: string;
  entries: RangeEntry[];
}

/** An identifier's canonical form (search's rules) and the SHA-256 the range lookup keys on. */
export async function rangeKey(
  value: string,
  kind?: IdentifierKind,
): Promise<{ canonical: string; hash: string; prefix: string; suffix: string } | null> {
  const k = kind ?? detectIdentifierKind(value);
  const canonical = k ? canonicalIdentifier(k, value) : null;
  if (!canonical) return null;
  const hash = await sha256Hex(canonical);
  return {
    canonical,
    hash,
    prefix: hash.slice(0, RANGE_PREFIX_LENGTH),
    suffix: hash.slice(RANGE_PREFIX_LENGTH),
  };
}

export interface RangeResult {
  canonical: string;
  /** What the server was sent: the first 5 hex characters of the hash, nothing else. */
  prefix: string;
  count: number;
  risk_level: number;
  risk_label: RiskLabel;
}

/** One identifier to check: its text and, when known, its kind (else detected as search does). */
export interface RangeQuery {
  value: string;
  kind?: IdentifierKind;
}

/**
 * Checks identifiers through the range lookup: canonicalises and hashes each here, sends only the
 * hashes' first 5 characters to `{apiBase}/range/{prefix}` (one request per distinct prefix, in
 * parallel) and finds the rest in the answers. Returns one result per query, in order: null for a
 * value that is no identifier. `apiKey` (optional) is sent as X-API-Key for the keyed limit.
 * Throws on an HTTP error, with the API's message (and its `code` and `params` when it gives them).
 */
export async function lookupIdentifiersPrivately(
  queries: RangeQuery[],
  opts: { apiBase: string; apiKey?: string; fetch?: typeof fetch },
): Promise<(RangeResult | null)[]> {
  const keys = await Promise.all(queries.map((q) => rangeKey(q.value, q.kind)));
  const prefixes = [...new Set(keys.flatMap((k) => (k ? [k.prefix] : [])))];
  const answers = new Map(
    await Promise.all(
      prefixes.map(async (prefix) => {
        const res = await (opts.fetch ?? fetch)(`${opts.apiBase}/range/${prefix}`, {
          headers: opts.apiKey ? { 'X-API-Key': opts.apiKey } : {},
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as {
            msg?: string;
            code?: string;
            params?: Record<string, unknown>;
          } | null;
          // The API's message, and its stable code and parameters when it gives one (docs/error-codes.md).
          throw Object.assign(new Error(body?.msg ?? `The range lookup answered ${res.status}`), {
            status: res.status,
            ...(body?.code ? { code: body.code, params: body.params ?? {} } : {}),
          });
        }
        return [prefix, (await res.json()) as RangeAnswer] as const;
      }),
    ),
  );
  return keys.map((key) => {
    if (!key) return null;
    const hit = answers.get(key.prefix)?.entries.find((e) => e.suffix === key.suffix && e.count > 0);
    return {
      canonical: key.canonical,
      prefix: key.prefix,
      count: hit?.count ?? 0,
      risk_level: hit?.risk_level ?? 0,
      risk_label: hit?.risk_label ?? 'low',
    };
  });
}

/** One identifier through the range lookup (lookupIdentifiersPrivately for a single value). */
export async function lookupIdentifierPrivately(
  value: string,
  opts: { apiBase: string; apiKey?: string; kind?: IdentifierKind; fetch?: typeof fetch },
): Promise<RangeResult | null> {
  const [result] = await lookupIdentifiersPrivately([{ value, kind: opts.kind }], opts);
  return result;
}

/**
 * SHA-256 as lower-case hex, synchronously (@noble/hashes, already used for crypto addresses): the
 * range route hashes the caller's key and its ETag's input per request, and an await of Web Crypto
 * costs more than the hashing itself under load.
 */
export function sha256HexSync(value: string): string {
  return bytesToHex(sha256(utf8ToBytes(value)));
}

const SUFFIX_LENGTH = 64 - RANGE_PREFIX_LENGTH;

/**
 * Decoy suffixes for a prefix, block `block` of them: RANGE_PAGE suffixes read one after another
 * from a small counting generator (sfc32) seeded with the SHA-256 of the prefix and the block number.
 * Decoys need to be fixed by the prefix (so an answer and its ETag change only with the data) and
 * to look like hash suffixes; they are no secret (anyone can compute them from this code), so a
 * keyed or extendable-output hash buys nothing: SHAKE256 of a page took 25-35 µs of JavaScript per
 * answer, this about 4 µs (one SHA-256 block and 236 generator steps).
 */
function decoySuffixes(prefix: string, block: number): string[] {
  const seed = sha256(utf8ToBytes(`scamcheck-range-decoy:${prefix}:${block}`));
  const view = new DataView(seed.buffer, seed.byteOffset, seed.byteLength);
  let a = view.getUint32(0);
  let b = view.getUint32(4);
  let c = view.getUint32(8);
  let d = view.getUint32(12);
  const words = new Uint32Array(Math.ceil((RANGE_PAGE * SUFFIX_LENGTH) / 8));
  for (let i = 0; i < words.length; i++) {
    // sfc32 (Chris Doty-Humphrey's Small Fast Counting generator), one 32-bit output per step.
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    words[i] = t;
  }
  const hex = bytesToHex(new Uint8Array(words.buffer));
  return Array.from({ length: RANGE_PAGE }, (_, i) => hex.slice(i * SUFFIX_LENGTH, (i + 1) * SUFFIX_LENGTH));
}

/**
 * The real entries padded with decoys to a multiple of RANGE_PAGE (at least one page), sorted by
 * suffix so decoys sit among them. A decoy is what an unreported identifier would get (count 0, risk
 * 0, low); its suffix is derived from the prefix alone (decoySuffixes), so the same data always gives
 * the same answer (and ETag).
 */
export function padRange(prefix: string, real: RangeEntry[]): RangeEntry[] {
  const total = Math.max(RANGE_PAGE, Math.ceil(real.length / RANGE_PAGE) * RANGE_PAGE);
  // Most ranges hold no reported identifier: then no suffix is taken, and no string needs hashing
  // into a Set (which cost more than generating the decoys). Two decoys never coincide (236 bits of
  // one generator's consecutive output).
  const taken = real.length ? new Set(real.map((e) => e.suffix)) : null;
  const decoys: string[] = [];
  for (let block = 0; real.length + decoys.length < total; block++) {
    for (const suffix of decoySuffixes(prefix, block)) {
      if (real.length + decoys.length === total) break;
      if (!taken?.has(suffix)) decoys.push(suffix);
    }
  }
  decoys.sort();
  const sorted = real.length > 1 ? [...real].sort((a, b) => (a.suffix < b.suffix ? -1 : 1)) : real;
  const out: RangeEntry[] = [];
  let r = 0;
  for (const suffix of decoys) {
    while (r < sorted.length && sorted[r].suffix < suffix) out.push(sorted[r++]);
    out.push({ suffix, count: 0, risk_level: 0, risk_label: 'low' });
  }
  while (r < sorted.length) out.push(sorted[r++]);
  return out;
}

/** Each entry's JSON is padded with spaces to this width, so every answer of one page has one size. */
export const RANGE_ENTRY_WIDTH = 128;

/** A decoy's line (count 0, risk 0, low) around its suffix: what JSON.stringify and padEnd give it. */
const DECOY_HEAD = '{"suffix":"';
const DECOY_TAIL = '","count":0,"risk_level":0,"risk_label":"low"}'.padEnd(
  RANGE_ENTRY_WIDTH - DECOY_HEAD.length - SUFFIX_LENGTH,
  ' ',
);

/**
 * The answer's JSON text: fixed-width entries, so its length depends only on the number of pages.
 * Decoys, nearly every entry, are written around their suffix (a hex string, nothing to escape)
 * instead of through JSON.stringify: the same bytes at half the cost of the answer's body.
 */
export function rangeBody(prefix: string, entries: RangeEntry[]): string {
  let body = `{"prefix":"${prefix}","entries":[\n`;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (i > 0) body += ',\n';
    body +=
      e.count === 0 && e.risk_level === 0 && e.risk_label === 'low' && e.suffix.length === SUFFIX_LENGTH
        ? DECOY_HEAD + e.suffix + DECOY_TAIL
        : JSON.stringify(e).padEnd(RANGE_ENTRY_WIDTH, ' ');
  }
  return `${body}\n]}`;
}
