import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_BASE } from '@/config/api';
import { supabase } from '@/lib/supabase';
import {
  checkItems,
  extractIdentifiers,
  fetchCheckRules,
  textSignals,
  verdictFor,
  type CheckResult,
  type ExtractedItem,
  type Lookup,
} from '@/lib/check-message';
import { lookupIdentifiersPrivately } from '@/lib/range-lookup';
import {
  rangedOwnerStatementsSchema,
  statementPrefixes,
  statementsByCanonical,
  type ItemOwnerStatement,
} from '@/lib/owner-statements';
import { checkKeys } from './keys';

/** Brands, shorteners and abused TLDs (public tables, edited by admins): read once per visit. */
export function getCheckRulesQueryOptions() {
  return queryOptions({
    queryKey: checkKeys.rules(),
    queryFn: () => fetchCheckRules(supabase),
    staleTime: 10 * 60_000,
  });
}

export interface PrivateLookups {
  /** Reports per canonical identifier. */
  lookups: Map<string, Lookup>;
  /** Per canonical identifier, all ScamCheck was sent: the first 5 hex characters of its SHA-256. */
  sent: Map<string, string>;
}

/**
 * Every identifier of the message through the range lookup (GET /api/v1/range/{prefix}): hashed
 * here, only each hash's first 5 characters are sent, so ScamCheck learns neither the message nor
 * which numbers, links or wallets are in it, and nothing is logged. The answers are the same for
 * everyone and cacheable, so the browser reuses them for their max-age.
 */
async function lookUpPrivately(items: ExtractedItem[]): Promise<PrivateLookups> {
  const results = await lookupIdentifiersPrivately(
    items.map((i) => ({ value: i.canonical, kind: i.type })),
    { apiBase: API_BASE },
  );
  const lookups = new Map<string, Lookup>();
  const sent = new Map<string, string>();
  items.forEach((item, n) => {
    const r = results[n];
    if (!r) return;
    lookups.set(item.canonical, { count: r.count, riskLevel: r.risk_level, riskLabel: r.risk_label });
    sent.set(item.canonical, r.prefix);
  });
  return { lookups, sent };
}

/**
 * The verified owners' answers on the message's identifiers (issue 32), asked as privately as their
 * reports: only the same 5 hex characters of each hash are sent, and the full hashes of the answers
 * are matched here.
 */
async function ownerAnswersPrivately(items: ExtractedItem[]): Promise<Map<string, ItemOwnerStatement[]>> {
  const canonicals = items.map((i) => i.canonical);
  if (canonicals.length === 0) return new Map();
  const { data, error } = await supabase.rpc('owner_statements_in_ranges', {
    prefixes: statementPrefixes(canonicals),
  });
  if (error) throw error;
  return statementsByCanonical(canonicals, rangedOwnerStatementsSchema.parse(data));
}

/**
 * The check of a message as the API computes it: extraction here in the browser (the message never
 * leaves it), the identifiers' reports through the private range lookup, and the rules from their
 * tables.
 */
export function useCheckMessage(text: string) {
  const items = text.trim() ? extractIdentifiers(text) : [];
  const rules = useQuery(getCheckRulesQueryOptions());
  const lookups = useQuery({
    queryKey: checkKeys.lookups(items.map((i) => `${i.type}:${i.canonical}`)),
    queryFn: () => lookUpPrivately(items),
    enabled: text.trim().length > 0,
    staleTime: 60_000,
  });
  // An answer that cannot be fetched leaves the check as it is: the reports still show.
  const owners = useQuery({
    queryKey: checkKeys.owners(items.map((i) => i.canonical)),
    queryFn: () => ownerAnswersPrivately(items),
    enabled: items.length > 0,
    staleTime: 60_000,
  });
  let result: CheckResult | undefined;
  if (rules.data && lookups.data) {
    const checked = checkItems(text, items, rules.data, lookups.data.lookups);
    const signals = textSignals(text);
    result = { items: checked, textSignals: signals, verdict: verdictFor(checked, signals) };
  }
  return {
    result,
    /** Per canonical identifier, the hash prefix that was sent for it. */
    sent: lookups.data?.sent,
    /** Per canonical identifier, its verified owners' answers. */
    owners: owners.data,
    error: rules.error ?? lookups.error,
    isPending: !result && !(rules.error ?? lookups.error),
  };
}
