/**
 * POST /api/v1/check-message: every identifier of a pasted message with its reports and signals,
 * and the verdict (issue 13). The extraction and signals are the shared module the /check page runs;
 * the database answers every identifier in one call (public.check_identifiers), which logs them as
 * anonymous searches and applies the check.ip / check.user rate limits. Nothing else is stored.
 */
import { readFields } from '../../_shared/body.ts';
import {
  checkItems,
  extractIdentifiers,
  fetchCheckRules,
  lookupInput,
  lookupsFrom,
  MESSAGE_MAX_LENGTH,
  messageLength,
  textSignals,
  verdictFor,
  type CheckedItem,
  type CheckRules,
  lookupRowsSchema,
} from '../../_shared/check-message.ts';
import { HttpError, json } from '../../_shared/http.ts';
import {
  rangedOwnerStatementsSchema,
  statementPrefixes,
  statementsByCanonical,
  type ItemOwnerStatement,
} from '../../_shared/owner-statements.ts';
import { clientFor, identify, type SupabaseClient } from '../../_shared/supabase.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';

/** A JSON body of 5,000 characters takes at most ~30 kB even with every character escaped. */
const MAX_CHECK_BODY_BYTES = 64_000;
/** Brands and lists change rarely (admins edit them); each instance rereads them after this. */
const RULES_TTL_MS = 60_000;

let rulesCache: { rules: CheckRules; at: number } | null = null;

async function rulesFor(client: SupabaseClient): Promise<CheckRules> {
  if (rulesCache && Date.now() - rulesCache.at < RULES_TTL_MS) return rulesCache.rules;
  try {
    rulesCache = { rules: await fetchCheckRules(client), at: Date.now() };
  } catch (e) {
    console.error('could not read the check rules', e);
    throw new HttpError(502, 'Could not check the message right now, please try again');
  }
  return rulesCache.rules;
}

function itemOut(item: CheckedItem, owners: Map<string, ItemOwnerStatement[]>) {
  return {
    type: item.type,
    value: item.value,
    canonical: item.canonical,
    forms: item.forms,
    count: item.count,
    riskLevel: item.riskLabel,
    riskPercentage: item.riskLevel,
    valid: item.valid,
    ...(item.phoneKind ? { phoneKind: item.phoneKind } : {}),
    ...(item.network ? { network: item.network } : {}),
    signals: item.signals.map(({ severity: _severity, ...s }) => s),
    // Added in issue 32: the answer of the identifier's verified owner, next to its reports.
    ownerStatements: owners.get(item.canonical) ?? [],
  };
}

/** The owners' answers on the message's identifiers (one call, by hash prefix as /check asks). */
async function ownerStatements(
  client: SupabaseClient,
  canonicals: string[],
): Promise<Map<string, ItemOwnerStatement[]>> {
  if (canonicals.length === 0) return new Map();
  const { data, error } = await client.rpc('owner_statements_in_ranges', {
    prefixes: statementPrefixes(canonicals),
  });
  if (error) throw dbError(error, 'check the message');
  return statementsByCanonical(canonicals, rangedOwnerStatementsSchema.parse(data));
}

export async function postCheckMessage({ req }: RouteContext): Promise<Response> {
  const fields = await readFields(req, MAX_CHECK_BODY_BYTES);
  const text = fields.text;
  if (typeof text !== 'string' || text.trim() === '')
    throw new HttpError(400, 'text is required: the message to check, as a string');
  // Counted in characters as people count them (code points): an emoji is one character, not two.
  const length = messageLength(text);
  if (length > MESSAGE_MAX_LENGTH)
    throw new HttpError(
      413,
      `The message is too long to check: at most ${MESSAGE_MAX_LENGTH.toLocaleString('en')} characters (this one has ${length.toLocaleString('en')}). Paste the part with the numbers and links.`,
    );
  const caller = await identify(req);
  const client = clientFor(caller);
  const rules = await rulesFor(client);
  const items = extractIdentifiers(text);
  // As the caller, so RLS, the rate limits and the anonymous search log apply as for the app (the log
  // keeps no location for API callers: only the server may set one). Called even for a message without
  // identifiers, so the rate limit counts every check.
  const { data, error } = await client.rpc('check_identifiers', { identifiers: lookupInput(items) });
  if (error) throw dbError(error, 'check the message');
  const checked = checkItems(text, items, rules, lookupsFrom(lookupRowsSchema.parse(data)));
  const owners = await ownerStatements(
    client,
    checked.map((i) => i.canonical),
  );
  const signals = textSignals(text);
  return json({
    items: checked.map((item) => itemOut(item, owners)),
    textSignals: signals.map(({ severity: _severity, ...s }) => s),
    verdict: verdictFor(checked, signals),
  });
}
