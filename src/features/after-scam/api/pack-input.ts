import type { IdentifierKind } from '@/lib/canonical';

/** The languages a pack is written in (independent of the app's language: a victim may need either). */
export const PACK_LANGUAGES = ['en', 'fil'] as const;
export type PackLanguage = (typeof PACK_LANGUAGES)[number];

/** One evidence image as the pack shows it: its SHA-256 is of the bytes as stored or chosen. */
export interface PackEvidence {
  name: string;
  /** Size in bytes of the hashed file. */
  bytes: number;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
  /** The image ready for the PDF (JPEG or PNG; other types are converted on the device first). */
  image: { kind: 'jpeg' | 'png'; data: Uint8Array; width: number; height: number } | null;
}

export interface PackTransaction {
  /** Reference number as the bank or e-wallet printed it. */
  reference: string;
  amount: string;
  when: string;
  /** Where the money went (account, e-wallet number), as the receipt shows. */
  to: string;
}

/**
 * Everything a complaint pack is made from. Nothing here is sent anywhere: the victim's contact
 * details are typed for the pack and kept only in the page's memory.
 */
export interface PackInput {
  language: PackLanguage;
  /** When the pack is made (the letters' date). */
  madeAt: Date;
  victim: { name: string; phone: string; email: string; address: string };
  institution: { name: string; victimAccount: string };
  identifiers: { kind: IdentifierKind; written: string }[];
  incidentType: 'scam' | 'hacked' | 'spam';
  incidentDate: string;
  description: string;
  /** The total lost, in pesos, or null when not given. */
  amountLost: number | null;
  transactions: PackTransaction[];
  /** Time-ordered events the victim typed ("when | what"), after the incident date. */
  timeline: { when: string; what: string }[];
  evidence: PackEvidence[];
  /** The ScamCheck report the pack was made from, if any. */
  reportId: string | null;
}
