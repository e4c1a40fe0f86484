/**
 * Server errors in the reader's language, by their stable code, never by their English sentence (an
 * English edit on the server must not break the Filipino UI; server-errors.test.ts checks that no
 * server sentence is matched in src/). Where the codes come from:
 * - the database's refusals carry `{"code": "...", ...params}` in the error's hint (PostgREST passes
 *   it on as it is; supabase/migrations/20261129120000_error_codes.sql);
 * - the functions answer `{msg, code, params}` (supabase/functions/_shared/http.ts), which
 *   FunctionCallError keeps (src/lib/functions.ts);
 * - Auth (GoTrue) sends its error codes (`invalid_credentials`, `user_banned`, ...);
 * - PostgREST's and Postgres's own codes (`42501`, `PGRST303`).
 * The server's English stays the contract of the legacy API (docs/behaviour.md §7). An error with no
 * code the app knows is shown as the server sent it.
 */
import type { ParseKeys } from 'i18next';
import { i18n } from '@/i18n';
import { formatDate } from '@/lib/format';

/** A refusal's stable code and its parameters. */
export interface ServerCode {
  code: string;
  params: Record<string, unknown>;
}

/** The rate limits (private.rate_limits.name) a user can meet in the app. */
export const LIMIT_KEYS: Record<string, ParseKeys> = {
  'rest_write.ip': 'serverErrors.limits.restWriteIp',
  'rest_write.user': 'serverErrors.limits.restWriteUser',
  'check.ip': 'serverErrors.limits.checkIp',
  'check.user': 'serverErrors.limits.checkUser',
  'contact.ip': 'serverErrors.limits.contactIp',
  'contact.user': 'serverErrors.limits.contactUser',
  'search.ip': 'serverErrors.limits.searchIp',
  'search.user': 'serverErrors.limits.searchUser',
  'visit.ip': 'serverErrors.limits.visitIp',
  'visit.user': 'serverErrors.limits.visitUser',
  'report.ip': 'serverErrors.limits.reportIp',
  'report.user': 'serverErrors.limits.reportUser',
  'removal.ip': 'serverErrors.limits.removalIp',
  'removal.user': 'serverErrors.limits.removalUser',
  'notify.ip': 'serverErrors.limits.notifyIp',
  'notify.user': 'serverErrors.limits.notifyUser',
  'auth_code.address': 'serverErrors.limits.authCodeAddress',
  'auth_code.issue': 'serverErrors.limits.authCodeIssue',
  'auth_verify.ip': 'serverErrors.limits.authVerifyIp',
  'api.anon': 'serverErrors.limits.apiAnon',
  'api.key': 'serverErrors.limits.apiKey',
  'api_key.create': 'serverErrors.limits.apiKeyCreate',
  'upload.user': 'serverErrors.limits.uploadUser',
  'upload.ip': 'serverErrors.limits.uploadIp',
  'upload_kib.user': 'serverErrors.limits.uploadKibUser',
  'upload_kib.ip': 'serverErrors.limits.uploadKibIp',
};

/** The images upload-image names in its refusals' `image` parameter. */
const IMAGE_KEYS: Record<string, ParseKeys> = {
  avatar: 'serverErrors.imageLabels.avatar',
  evidence: 'serverErrors.imageLabels.evidence',
  news_banner: 'serverErrors.imageLabels.newsBanner',
};

/** The units of private.rate_limit_duration, largest first. */
const DURATIONS: [seconds: number, key: ParseKeys][] = [
  [86400, 'serverErrors.duration.day'],
  [3600, 'serverErrors.duration.hour'],
  [60, 'serverErrors.duration.minute'],
  [1, 'serverErrors.duration.second'],
];

/** Seconds as the largest whole unit ('1 minute', '42 seconds'), in the reader's words. */
function duration(seconds: unknown): string | null {
  const n = Number(seconds);
  if (!Number.isInteger(n) || n < 1) return null;
  const [size, key] = DURATIONS.find(([s]) => n % s === 0)!;
  return i18n.t(key, { count: n / size });
}

/** A parameter as text, or null when it is missing. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;
}

/** The words for a code, from its parameters; null when a part is not known. */
export type Words = (params: Record<string, unknown>) => string | null;

export const fixed =
  (key: ParseKeys): Words =>
  () =>
    i18n.t(key);

function image(key: ParseKeys): Words {
  return (p) => {
    const label = IMAGE_KEYS[String(p.image)];
    return label ? i18n.t(key, { label: i18n.t(label), format: text(p.format) ?? '' }) : null;
  };
}

/** Words with the parameters `names` put into the text; null when one is missing. */
export function withParams(key: ParseKeys, ...names: string[]): Words {
  return (p) => {
    const values: Record<string, string> = {};
    for (const name of names) {
      const value = text(p[name]);
      if (value === null) return null;
      values[name] = value;
    }
    return i18n.t(key, { replace: values });
  };
}

/** Every code the app translates, with the words for its parameters (null: a part is not known). */
export const CODE_WORDS: Record<string, Words> = {
  // The database (hint codes) and the functions.
  rate_limited: (p) => {
    const what = LIMIT_KEYS[String(p.limit)];
    const wait = duration(p.retry_after);
    if (!what || !wait) return null;
    const period = duration(p.per_seconds);
    const max = text(p.max);
    return period && max
      ? i18n.t('serverErrors.rateLimited', { what: i18n.t(what), max, period, wait })
      : i18n.t('serverErrors.rateLimitedWait', { what: i18n.t(what), wait });
  },
  report_duplicate: (p) => {
    const account = text(p.account);
    const date = text(p.date);
    return account && date
      ? i18n.t('serverErrors.duplicateReport', { account, date: formatDate(date) })
      : null;
  },
  removal_open: (p) => {
    const date = text(p.date);
    return date ? i18n.t('serverErrors.openRemoval', { date: formatDate(date) }) : null;
  },
  api_key_too_many: (p) => {
    const max = text(p.max);
    return max ? i18n.t('serverErrors.apiKeyTooMany', { max }) : null;
  },
  api_key_name: fixed('serverErrors.apiKeyName'),
  api_key_missing: fixed('serverErrors.apiKeyMissing'),
  sign_in_required: fixed('serverErrors.signIn'),
  report_status_admin_only: fixed('serverErrors.adminOnlyStatus'),
  report_missing: fixed('serverErrors.reportMissing'),
  removal_request_missing: fixed('serverErrors.removalRequestMissing'),
  removal_request_decided: fixed('serverErrors.removalRequestDecided'),
  reporter_not_own: fixed('serverErrors.reporterNotOwn'),
  evidence_not_own: fixed('serverErrors.evidenceNotOwn'),
  top_entry_expired: fixed('serverErrors.topExpired'),
  account_suspended: fixed('serverErrors.accountSuspended'),
  // A choice outside a function's fixed options (the app offers only those; a hand-made call).
  choice_invalid: fixed('serverErrors.choiceInvalid'),
  search_length: withParams('serverErrors.searchLength', 'min', 'max'),
  check_too_many: withParams('serverErrors.checkTooMany', 'max'),
  check_identifier_invalid: withParams('serverErrors.checkIdentifierInvalid', 'max'),
  incident_date_future: fixed('serverErrors.incidentDateFuture'),
  image_missing: fixed('serverErrors.chooseImage'),
  banner_admin_only: fixed('serverErrors.bannerAdminOnly'),
  image_too_large: fixed('image.tooLarge'),
  image_empty: image('serverErrors.imageEmpty'),
  image_not_image: image('serverErrors.notAnImage'),
  image_too_many_pixels: image('serverErrors.imageTooManyPixels'),
  image_malformed: (p) => (text(p.format) ? image('serverErrors.imageMalformed')(p) : null),
  internal: fixed('errors.generic'),
  busy: fixed('serverErrors.busy'),
  unavailable: fixed('serverErrors.unavailable'),
  // Postgres's and PostgREST's own codes.
  '42501': fixed('serverErrors.permissionDenied'),
  PGRST301: fixed('serverErrors.sessionExpired'),
  PGRST303: fixed('serverErrors.sessionExpired'),
  // Auth (GoTrue's error codes; the local stack's Auth sends the same ones).
  invalid_credentials: fixed('serverErrors.auth.invalidCredentials'),
  email_not_confirmed: fixed('serverErrors.auth.emailNotConfirmed'),
  user_already_exists: fixed('serverErrors.auth.alreadyRegistered'),
  email_exists: fixed('serverErrors.auth.emailExists'),
  over_request_rate_limit: fixed('serverErrors.auth.requestRateLimit'),
  over_email_send_rate_limit: fixed('serverErrors.auth.emailRateLimit'),
  otp_expired: fixed('serverErrors.auth.codeInvalid'),
  reauthentication_not_valid: fixed('serverErrors.auth.nonceInvalid'),
  validation_failed: fixed('serverErrors.auth.validationFailed'),
  same_password: fixed('serverErrors.auth.samePassword'),
  user_banned: fixed('serverErrors.auth.banned'),
};

/**
 * Adds the words of codes only the dashboard's screens meet (./server-errors-dashboard.ts, loaded with
 * the dashboard's routes and texts), so neither they nor their texts are in the public pages' first load.
 */
export function addCodeWords(words: Record<string, Words>) {
  Object.assign(CODE_WORDS, words);
}

/** Auth's codes among CODE_WORDS (server-errors.test.ts checks the stack's Auth sends each). */
export const AUTH_CODES = [
  'invalid_credentials',
  'email_not_confirmed',
  'user_already_exists',
  'email_exists',
  'over_request_rate_limit',
  'over_email_send_rate_limit',
  'otp_expired',
  'reauthentication_not_valid',
  'validation_failed',
  'same_password',
  'user_banned',
];

/**
 * The stable code of any server error: the database's hint `{"code": ...}` first (its SQLSTATE is
 * only its class), else the error's own `code` (a function's answer, Auth, PostgREST) with its
 * `params`.
 */
export function serverCodeOf(error: unknown): ServerCode | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { code?: unknown; hint?: unknown; params?: unknown };
  if (typeof e.hint === 'string' && e.hint.startsWith('{')) {
    try {
      const { code, ...params } = JSON.parse(e.hint) as Record<string, unknown>;
      if (typeof code === 'string') return { code, params };
    } catch {
      // not a code: the error's own code below
    }
  }
  if (typeof e.code !== 'string' || !e.code) return null;
  const params = e.params && typeof e.params === 'object' ? (e.params as Record<string, unknown>) : {};
  return { code: e.code, params };
}

/** A server error in the reader's language by its stable code, or null when it has none the app knows. */
export function translateServerError(error: unknown): string | null {
  const found = serverCodeOf(error);
  if (!found || !Object.hasOwn(CODE_WORDS, found.code)) return null;
  return CODE_WORDS[found.code](found.params);
}
