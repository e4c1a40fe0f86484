import type { IdentifierKind } from '@/lib/canonical';

/**
 * What a page knows when it offers a complaint pack: a filed report (all of it), or a results page
 * (only the identifier). The rest the victim types in the pack's form.
 */
export interface PackSource {
  identifiers: { kind: IdentifierKind; written: string }[];
  incidentType?: 'scam' | 'hacked' | 'spam';
  incidentDate?: string;
  description?: string;
  amountLost?: number | null;
  reportId?: string | null;
  /** The report's stored evidence images, fetched when the pack is made. */
  loadEvidence?: () => Promise<{ name: string; blob: Blob }[]>;
}
