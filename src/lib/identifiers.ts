import { canonicalIdentifier, detectIdentifierKind, type IdentifierKind } from '@/lib/canonical';

/**
 * Checks that a typed identifier looks like the kind the user chose, with the same detection rules
 * search uses (src/lib/canonical.ts), so a report filed as a mobile number is found when someone
 * searches that number. Returns an error message, or null when the value is acceptable.
 */
export function identifierError(kind: IdentifierKind, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return 'Enter the account you are reporting';
  if (trimmed.length > 320) return 'That is too long to be an account';
  const detected = detectIdentifierKind(trimmed);
  switch (kind) {
    case 'mobile':
      return detected === 'mobile' ? null : 'Enter a valid mobile number, e.g. 0917 123 4567';
    case 'email':
      return detected === 'email' ? null : 'Enter a valid e-mail address, e.g. name@example.com';
    case 'website':
      return detected === 'website' ? null : 'Enter a website address, e.g. example.com';
    case 'crypto':
      return detected === 'crypto' ? null : 'Enter a crypto wallet address, e.g. 0x… or bc1…';
    case 'ewallet':
      // E-wallet accounts are mobile numbers (GCash, Maya), e-mails (PayPal) or user names.
      return /\s{2,}/.test(trimmed) ? 'Enter the e-wallet account number or name' : null;
  }
}

/** The kinds Notify Me watches; a free-form name (what detection calls 'ewallet') is too vague to match. */
const NOTIFY_KINDS: IdentifierKind[] = ['mobile', 'email', 'website', 'crypto'];

export interface ParsedIdentifier {
  value: string;
  kind: IdentifierKind;
  canonical: string;
}

export type ParseIdentifiersResult =
  { ok: true; identifiers: ParsedIdentifier[] } | { ok: false; error: string };

/**
 * Splits the Notify Me text (comma-delimited, on one or more lines) into identifiers, validating each
 * and naming the first bad one. Repeats of the same identifier (in any spelling) are kept once.
 */
export function parseIdentifierList(text: string): ParseIdentifiersResult {
  const parts = text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0)
    return { ok: false, error: 'Enter at least one e-mail, mobile number, website or crypto wallet' };
  const seen = new Set<string>();
  const identifiers: ParsedIdentifier[] = [];
  for (const value of parts) {
    const kind = detectIdentifierKind(value);
    if (!kind || !NOTIFY_KINDS.includes(kind) || value.length > 320) {
      return {
        ok: false,
        error: `"${value}" is not an e-mail, mobile number, website or crypto wallet address`,
      };
    }
    const canonical = canonicalIdentifier(kind, value);
    if (!canonical)
      return {
        ok: false,
        error: `"${value}" is not an e-mail, mobile number, website or crypto wallet address`,
      };
    if (seen.has(canonical)) continue;
    seen.add(canonical);
    identifiers.push({ value, kind, canonical });
  }
  return { ok: true, identifiers };
}
