import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import {
  checkItems,
  extractIdentifiers,
  fetchCheckRules,
  lookupInput,
  lookupsFrom,
  verdictFor,
  type CheckResult,
  type ExtractedItem,
  type LookupRow,
} from '@/lib/check-message';
import { checkKeys } from './keys';

/** Brands, shorteners and abused TLDs (public tables, edited by admins): read once per visit. */
export function getCheckRulesQueryOptions() {
  return queryOptions({
    queryKey: checkKeys.rules(),
    queryFn: () => fetchCheckRules(supabase),
    staleTime: 10 * 60_000,
  });
}

/** Every identifier of the message in one database call (public.check_identifiers). */
async function lookUp(items: ExtractedItem[]): Promise<LookupRow[]> {
  const { data, error } = await supabase.rpc('check_identifiers', { identifiers: lookupInput(items) });
  if (error) throw error;
  return data as unknown as LookupRow[];
}

/**
 * The check of a message as the API computes it: extraction here in the browser (the message never
 * leaves it), then the identifiers' reports from the database and the rules from their tables.
 */
export function useCheckMessage(text: string) {
  const items = text.trim() ? extractIdentifiers(text) : [];
  const rules = useQuery(getCheckRulesQueryOptions());
  const lookups = useQuery({
    queryKey: checkKeys.lookups(items.map((i) => `${i.type}:${i.canonical}`)),
    queryFn: () => lookUp(items),
    enabled: text.trim().length > 0,
    staleTime: 60_000,
  });
  let result: CheckResult | undefined;
  if (rules.data && lookups.data) {
    const checked = checkItems(text, items, rules.data, lookupsFrom(lookups.data));
    result = { items: checked, verdict: verdictFor(checked) };
  }
  return {
    result,
    error: rules.error ?? lookups.error,
    isPending: !result && !(rules.error ?? lookups.error),
  };
}
