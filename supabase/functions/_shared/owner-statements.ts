/**
 * The owner's answer in the message check (issue 32, docs/right-of-reply.md): statements looked up by
 * the first 5 hex characters of each identifier's SHA-256 (public.owner_statements_in_ranges, as the
 * private range lookup does), then matched on the full hash here. Shared by the legacy API's
 * POST /check-message and the /check page (src/lib/owner-statements.ts), so both answer alike.
 */
import { z } from 'npm:zod@4.6.7';
import { Constants } from './database.types.ts';
import { RANGE_PREFIX_LENGTH, sha256HexSync } from './range.ts';

export const rangedOwnerStatementsSchema = z.array(
  z.object({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    statement: z.string(),
    updated_at: z.string(),
    verified_by: z.enum(Constants.public.Enums.ownership_method),
    verified_at: z.string(),
  }),
);
export type RangedOwnerStatement = z.infer<typeof rangedOwnerStatementsSchema>[number];

/** One owner's answer as a message check shows it. */
export interface ItemOwnerStatement {
  statement: string;
  updatedAt: string;
  verifiedBy: RangedOwnerStatement['verified_by'];
  verifiedAt: string;
}

/** The distinct hash prefixes to ask for, one per canonical identifier (at most 50 in a message). */
export function statementPrefixes(canonicals: string[]): string[] {
  return [...new Set(canonicals.map((c) => sha256HexSync(c).slice(0, RANGE_PREFIX_LENGTH)))];
}

/** Per canonical identifier, the owners' answers among the rows (newest first), if any. */
export function statementsByCanonical(
  canonicals: string[],
  rows: RangedOwnerStatement[],
): Map<string, ItemOwnerStatement[]> {
  const out = new Map<string, ItemOwnerStatement[]>();
  for (const canonical of new Set(canonicals)) {
    const hash = sha256HexSync(canonical);
    const found = rows
      .filter((r) => r.hash === hash)
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .map((r) => ({
        statement: r.statement,
        updatedAt: r.updated_at,
        verifiedBy: r.verified_by,
        verifiedAt: r.verified_at,
      }));
    if (found.length > 0) out.set(canonical, found);
  }
  return out;
}
