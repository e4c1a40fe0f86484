/**
 * Server errors only the dashboard's screens meet (admin screens, moderation, removal requests, the
 * right of reply), by their stable code (docs/error-codes.md). Their texts are in the dashboard's
 * catalogue (locales/dashboard/), so this module loads with the dashboard's routes
 * (src/app/routes/dashboard/routes.tsx) and adds its codes to CODE_WORDS then.
 */
import { formatNumber } from '@/lib/format';
import { i18n } from '@/i18n';
import { addCodeWords, fixed, text, withParams, type Words } from './server-errors';

export const DASHBOARD_CODE_WORDS: Record<string, Words> = {
  admin_only: fixed('serverErrors.adminOnly'),
  removal_request_not_own: fixed('serverErrors.removalRequestNotOwn'),
  contact_message_missing: fixed('serverErrors.contactMessageMissing'),
  contact_message_no_email: fixed('serverErrors.contactMessageNoEmail'),
  reply_empty: fixed('serverErrors.replyEmpty'),
  reply_too_long: withParams('serverErrors.replyTooLong', 'max'),
  suspension_reason: withParams('serverErrors.reasonLength', 'min', 'max'),
  suspension_days: withParams('serverErrors.suspensionDays', 'min', 'max'),
  suspend_self: fixed('serverErrors.suspendSelf'),
  suspend_admin: fixed('serverErrors.suspendAdmin'),
  user_missing: fixed('serverErrors.userMissing'),
  search_too_long: withParams('serverErrors.searchTooLong', 'max'),
  answer_empty: fixed('serverErrors.answerEmpty'),
  answer_too_long: withParams('serverErrors.answerTooLong', 'max'),
  reason_required: fixed('serverErrors.reasonRequired'),
  note_too_long: withParams('serverErrors.noteTooLong', 'max'),
  reason_length: withParams('serverErrors.reasonLength', 'min', 'max'),
  statement_missing: fixed('serverErrors.statementMissing'),
  moderation_none: fixed('serverErrors.moderationNone'),
  moderation_too_many: withParams('serverErrors.moderationTooMany', 'max'),
  decision_missing: fixed('serverErrors.decisionMissing'),
  undo_of_undo: fixed('serverErrors.undoOfUndo'),
  decision_undone: fixed('serverErrors.decisionUndone'),
  undo_expired: withParams('serverErrors.undoExpired', 'days'),
  decided_again: fixed('serverErrors.decidedAgain'),
  takedown_missing: fixed('serverErrors.takedownMissing'),
  takedown_sent: fixed('serverErrors.takedownSent'),
  takedown_email_required: fixed('serverErrors.takedownEmailRequired'),
  partner_name_too_long: withParams('serverErrors.partnerNameTooLong', 'max'),
  api_key_revoked: fixed('serverErrors.apiKeyRevoked'),
  ownership_required: fixed('serverErrors.ownershipRequired'),
  statement_length: withParams('serverErrors.statementLength', 'min', 'max'),
  statement_links: fixed('serverErrors.statementLinks'),
  ownership_proof_missing: fixed('serverErrors.ownershipProofMissing'),
  ownership_code_expired: fixed('serverErrors.ownershipCodeExpired'),
  ownership_proof_closed: fixed('serverErrors.ownershipProofClosed'),
  ownership_method_invalid: fixed('serverErrors.ownershipMethodInvalid'),
  ownership_proofs_too_many: fixed('serverErrors.ownershipProofsTooMany'),
  ownership_code_too_soon: withParams('serverErrors.ownershipCodeTooSoon', 'retry_after'),
  ownership_codes_too_many: fixed('serverErrors.ownershipCodesTooMany'),
  ownership_checks_too_many: fixed('serverErrors.ownershipChecksTooMany'),
  bio_not_public: fixed('serverErrors.bioNotPublic'),
  identifier_invalid: fixed('serverErrors.identifierInvalid'),
  mobile_invalid: fixed('serverErrors.mobileInvalid'),
  email_invalid: fixed('serverErrors.emailInvalid'),
  website_invalid: fixed('serverErrors.websiteInvalid'),
  phone_not_confirmed: fixed('serverErrors.phoneNotConfirmed'),
  profile_link_mismatch: withParams('serverErrors.profileLinkMismatch', 'account'),
  screenshot_not_own: fixed('serverErrors.screenshotNotOwn'),
  evidence_waiting: fixed('serverErrors.evidenceWaiting'),
  evidence_too_many: fixed('serverErrors.evidenceTooMany'),
  evidence_missing: fixed('serverErrors.evidenceMissing'),
  evidence_own_review: fixed('serverErrors.evidenceOwnReview'),
  evidence_decided: fixed('serverErrors.evidenceDecided'),
  reason_too_long: withParams('serverErrors.reasonTooLong', 'max'),
  reason_unknown: fixed('serverErrors.reasonUnknown'),
  batch_size: withParams('serverErrors.batchSize', 'min', 'max'),
  filter_too_long: fixed('serverErrors.filterTooLong'),
  range_reversed: fixed('serverErrors.rangeReversed'),
  cursor_incomplete: fixed('serverErrors.cursorIncomplete'),
  // The report form and the images a report, profile or news item names.
  social_link_invalid: fixed('serverErrors.socialLinkInvalid'),
  social_platform_shared: fixed('serverErrors.socialPlatformShared'),
  amount_too_large: (p) => {
    const max = text(p.max);
    return max ? i18n.t('serverErrors.amountTooLarge', { max: formatNumber(Number(max)) }) : null;
  },
  object_path_invalid: fixed('serverErrors.objectPathInvalid'),
  object_path_segment_too_long: fixed('serverErrors.objectPathInvalid'),
  object_paths_empty: fixed('serverErrors.objectPathInvalid'),
  object_paths_duplicate: fixed('serverErrors.objectPathsDuplicate'),
};

addCodeWords(DASHBOARD_CODE_WORDS);
