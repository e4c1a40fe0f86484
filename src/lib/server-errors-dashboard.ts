/**
 * Server errors only the dashboard's screens meet (admin screens, moderation, removal requests, the
 * right of reply), by their stable code (docs/error-codes.md). Their texts are in the dashboard's
 * catalogue (locales/dashboard/), so this module loads with the dashboard's routes
 * (src/app/routes/dashboard/routes.tsx) and adds its codes to CODE_WORDS then.
 */
import { addCodeWords, fixed, withParams, type Words } from './server-errors';

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
};

addCodeWords(DASHBOARD_CODE_WORDS);
