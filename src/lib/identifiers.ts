import { canonicalIdentifier, detectIdentifierKind, type IdentifierKind } from '@/lib/canonical';
import { isSharedPlatformHost } from '../../supabase/functions/_shared/platform-hosts.ts';
import { i18n } from '@/i18n';

/**
 * Checks that a typed identifier looks like the kind the user chose, with the same detection rules
 * search uses (src/lib/canonical.ts), so a report filed as a mobile number is found when someone
 * searches that number. Returns an error message in the reader's language, or null when the value is
 * acceptable.
 */
export function identifierError(kind: IdentifierKind, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return i18n.t('identifiers.required');
  if (trimmed.length > 320) return i18n.t('identifiers.tooLong');
  const detected = detectIdentifierKind(trimmed);
  switch (kind) {
    case 'mobile':
      return detected === 'mobile' ? null : i18n.t('identifiers.mobile');
    case 'email':
      return detected === 'email' ? null : i18n.t('identifiers.email');
    case 'website': {
      // An account's link is fine here: the database files it as the account it is (social, or the
      // number of a chat link). A platform itself (facebook.com, bit.ly, vercel.app) is not.
      if (detected !== 'website' && detected !== 'social' && detected !== 'mobile')
        return i18n.t('identifiers.website');
      if (detected === 'mobile' && !/[/:]/.test(trimmed)) return i18n.t('identifiers.website');
      const host = canonicalIdentifier('website', trimmed);
      return host && isSharedPlatformHost(host) ? i18n.t('identifiers.platform', { value: host }) : null;
    }
    case 'social':
      return detected === 'social' ? null : i18n.t('identifiers.social');
    case 'crypto':
      return detected === 'crypto' ? null : i18n.t('identifiers.crypto');
    case 'ewallet':
      // E-wallet accounts are mobile numbers (GCash, Maya), e-mails (PayPal) or user names.
      return /\s{2,}/.test(trimmed) ? i18n.t('identifiers.ewallet') : null;
  }
}

/** The kinds Notify Me watches; a free-form name (what detection calls 'ewallet') is too vague to match. */
const NOTIFY_KINDS: IdentifierKind[] = ['mobile', 'email', 'website', 'crypto', 'social'];

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
  if (parts.length === 0) return { ok: false, error: i18n.t('identifiers.listRequired') };
  const seen = new Set<string>();
  const identifiers: ParsedIdentifier[] = [];
  for (const value of parts) {
    const kind = detectIdentifierKind(value);
    if (!kind || !NOTIFY_KINDS.includes(kind) || value.length > 320) {
      return {
        ok: false,
        error: i18n.t('identifiers.listInvalid', { value }),
      };
    }
    const canonical = canonicalIdentifier(kind, value);
    if (!canonical)
      return {
        ok: false,
        error: i18n.t('identifiers.listInvalid', { value }),
      };
    if (seen.has(canonical)) continue;
    seen.add(canonical);
    identifiers.push({ value, kind, canonical });
  }
  return { ok: true, identifiers };
}
