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

/** A reason code in the reader's language (an unknown code is shown as it is). */
export function moderationReasonLabel(code: string): string {
  return isModerationReason(code) ? i18n.t(`moderation.reasons.${code}`) : code;
}
