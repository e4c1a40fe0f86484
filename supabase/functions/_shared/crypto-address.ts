/**
 * Crypto addresses in free text: EVM (EIP-55 checksum when mixed case), Bitcoin base58check and
 * bech32/bech32m (segwit), Tron (base58check, version 0x41) and Solana (base58 of a 32-byte key, no
 * checksum). Decoding and hashing come from @scure/base and @noble/hashes (audited, no dependencies).
 *
 * Pure TypeScript: the SPA imports it through src/lib and the edge functions through this folder.
 */
import { base58, bech32, bech32m, createBase58check } from 'npm:@scure/base@2.4.0';
import { sha256 } from 'npm:@noble/hashes@2.4.0/sha2.js';
import { keccak_256 } from 'npm:@noble/hashes@2.4.0/sha3.js';

export type CryptoNetwork = 'evm' | 'bitcoin' | 'tron' | 'solana';

export interface CryptoCandidate {
  network: CryptoNetwork;
  /** false when the address has a checksum or encoding and it does not hold. */
  valid: boolean;
  index: number;
  text: string;
}

const base58check = createBase58check(sha256);

const CANDIDATES: { network: CryptoNetwork; re: RegExp }[] = [
  { network: 'evm', re: /(?<![0-9A-Za-z])0x[0-9a-fA-F]{40}(?![0-9A-Za-z])/g },
  {
    network: 'bitcoin',
    re: /(?<![0-9A-Za-z])(?:bc1|BC1|tb1)[02-9ac-hj-np-zAC-HJ-NP-Z]{6,87}(?![0-9A-Za-z])/g,
  },
  { network: 'tron', re: /(?<![0-9A-Za-z])T[1-9A-HJ-NP-Za-km-z]{33}(?![0-9A-Za-z])/g },
  { network: 'bitcoin', re: /(?<![0-9A-Za-z])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?![0-9A-Za-z])/g },
  { network: 'solana', re: /(?<![0-9A-Za-z])[1-9A-HJ-NP-Za-km-z]{32,44}(?![0-9A-Za-z])/g },
];

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** EIP-55: all-lowercase and all-uppercase addresses carry no checksum; mixed case must match it. */
export function validEvm(address: string): boolean {
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  const hash = hex(keccak_256(new TextEncoder().encode(body.toLowerCase())));
  for (let i = 0; i < 40; i++) {
    const c = body[i];
    if (/[a-f]/i.test(c) && (parseInt(hash[i], 16) >= 8 ? c !== c.toUpperCase() : c !== c.toLowerCase()))
      return false;
  }
  return true;
}

function validBech32(address: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase() as `${string}1${string}`;
  for (const coder of [bech32, bech32m]) {
    try {
      const { prefix, words } = coder.decode(lower, 90);
      if (prefix !== 'bc' && prefix !== 'tb') continue;
      const version = words[0];
      // witness v0 uses bech32, v1+ bech32m (BIP-350)
      if ((version === 0) === (coder === bech32)) return true;
    } catch {
      // try the other encoding
    }
  }
  return false;
}

function base58checkVersion(address: string): number | null {
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 ? payload[0] : null;
  } catch {
    return null;
  }
}

function decodesTo32Bytes(address: string): boolean {
  try {
    return base58.decode(address).length === 32;
  } catch {
    return false;
  }
}

function validate(network: CryptoNetwork, text: string): boolean {
  switch (network) {
    case 'evm':
      return validEvm(text);
    case 'bitcoin':
      if (/^(bc1|tb1)/i.test(text)) return validBech32(text);
      return [0x00, 0x05, 0x6f, 0xc4].includes(base58checkVersion(text) ?? -1);
    case 'tron':
      return base58checkVersion(text) === 0x41;
    case 'solana':
      return decodesTo32Bytes(text);
  }
}

/**
 * Crypto addresses in `text`, in order, without overlaps. A Solana candidate must decode to 32 bytes
 * and mix digits with both letter cases (so long words are not taken for keys); other shapes are
 * reported with valid=false when their checksum or encoding fails, so the page can say "not a valid
 * address" instead of hiding what was written.
 */
export function findCryptoAddresses(text: string): CryptoCandidate[] {
  const found: CryptoCandidate[] = [];
  const taken: [number, number][] = [];
  const overlaps = (a: number, b: number) => taken.some(([s, e]) => a < e && b > s);
  for (const { network, re } of CANDIDATES) {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (overlaps(start, end)) continue;
      const valid = validate(network, m[0]);
      if (network === 'solana' && (!valid || !/\d/.test(m[0]) || !/[a-z]/.test(m[0]) || !/[A-Z]/.test(m[0])))
        continue;
      // A failed checksum is worth showing only for something that looks like an address, not a word.
      if (!valid && !(/\d/.test(m[0].slice(1)) && /[a-z]/i.test(m[0].slice(2)))) continue;
      found.push({ network, valid, index: start, text: m[0] });
      taken.push([start, end]);
    }
  }
  return found.sort((a, b) => a.index - b.index);
}
