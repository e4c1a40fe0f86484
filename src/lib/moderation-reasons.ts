import { i18n } from '@/i18n';

/** public.moderation_reasons(): the short list a reject, hide or remove decision picks from. */
export const MODERATION_REASONS = [
  'no_evidence',
  'not_a_scam',
  'duplicate',
  'wrong_identifier',
  'personal_data',
  'abusive',
  'owner_request',
  'other',
] as const;
export type ModerationReason = (typeof MODERATION_REASONS)[number];

export function isModerationReason(value: unknown): value is ModerationReason {
  return (MODERATION_REASONS as readonly unknown[]).includes(value);
}

const reasonKeys = {
  no_evidence: 'moderation.reasons.no_evidence',
  not_a_scam: 'moderation.reasons.not_a_scam',
  duplicate: 'moderation.reasons.duplicate',
  wrong_identifier: 'moderation.reasons.wrong_identifier',
  personal_data: 'moderation.reasons.personal_data',
  abusive: 'moderation.reasons.abusive',
  owner_request: 'moderation.reasons.owner_request',
  other: 'moderation.reasons.other',
} as const satisfies Record<ModerationReason, string>;

/** A reason code in the reader's language (an unknown code is shown as it is). */
export function moderationReasonLabel(code: string): string {
  return isModerationReason(code) ? i18n.t(reasonKeys[code]) : code;
}

const statusKeys = {
  pending: 'moderation.status.pending',
  verified: 'moderation.status.verified',
  rejected: 'moderation.status.rejected',
  removed: 'moderation.status.removed',
} as const;

/** A report status in the reader's language, lower case, for the decision log. */
export function moderationStatusLabel(status: string): string {
  return status in statusKeys ? i18n.t(statusKeys[status as keyof typeof statusKeys]) : status;
}
