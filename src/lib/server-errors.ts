/**
 * Server errors in the reader's language. Where the server sends a stable code, the app translates the
 * code (translateServerError): Auth's refusals carry GoTrue's error codes (`invalid_credentials`,
 * `user_banned`, ...). The rest (raise exception texts, PostgREST custom errors, the functions' `msg`)
 * is still recognised by its exact English shape (translateServerMessage) and worded again through the
 * catalogues (`serverErrors.*`); the server's English stays the contract of the legacy API
 * (docs/behaviour.md §7). The English catalogue reproduces the server's text exactly
 * (src/lib/server-errors.test.ts), and an unknown message is shown as the server sent it.
 */
import type { ParseKeys } from 'i18next';
import { currentLanguage, i18n } from '@/i18n';
import { formatDate } from '@/lib/format';

/** The rate limits' descriptions (private.rate_limits.description) a user can meet in the app. */
const limitKeys: Record<string, ParseKeys> = {
  'Too many changes from your address': 'serverErrors.limits.restWriteIp',
  'Too many changes from your account': 'serverErrors.limits.restWriteUser',
  'Too many message checks from your address': 'serverErrors.limits.checkIp',
  'Too many message checks from your account': 'serverErrors.limits.checkUser',
  'Too many contact messages from your address': 'serverErrors.limits.contactIp',
  'Too many contact messages from your account': 'serverErrors.limits.contactUser',
  'Too many searches from your address': 'serverErrors.limits.searchIp',
  'Too many searches from your account': 'serverErrors.limits.searchUser',
  'Too many visits recorded from your address': 'serverErrors.limits.visitIp',
  'Too many visits recorded from your account': 'serverErrors.limits.visitUser',
  'Too many reports filed from your address': 'serverErrors.limits.reportIp',
  'Too many reports filed from your account': 'serverErrors.limits.reportUser',
  'Too many removal requests from your address': 'serverErrors.limits.removalIp',
  'Too many removal requests from your account': 'serverErrors.limits.removalUser',
  'Too many Notify Me registrations from your address': 'serverErrors.limits.notifyIp',
  'Too many Notify Me registrations from your account': 'serverErrors.limits.notifyUser',
  'Too many code tries for this e-mail address': 'serverErrors.limits.authCodeAddress',
  'Too many codes e-mailed to this address': 'serverErrors.limits.authCodeIssue',
  'Too many code checks from your address': 'serverErrors.limits.authVerifyIp',
  'Too many API requests from your address': 'serverErrors.limits.apiAnon',
  'Too many API requests with this key': 'serverErrors.limits.apiKey',
  'Too many API keys made from your account': 'serverErrors.limits.apiKeyCreate',
  'Too many images uploaded from your account this hour': 'serverErrors.limits.uploadUser',
  'Too many images uploaded from your address this hour': 'serverErrors.limits.uploadIp',
  'Too many megabytes of images uploaded from your account this hour': 'serverErrors.limits.uploadKibUser',
  'Too many megabytes of images uploaded from your address this hour': 'serverErrors.limits.uploadKibIp',
};

/** private.rate_limit_duration's words ('1 minute', '30 seconds'). */
const durationKeys: Record<string, ParseKeys> = {
  second: 'serverErrors.duration.second',
  minute: 'serverErrors.duration.minute',
  hour: 'serverErrors.duration.hour',
  day: 'serverErrors.duration.day',
};

/** The labels upload-image gives its buckets (supabase/functions/_shared/uploads.ts). */
const imageLabelKeys: Record<string, ParseKeys> = {
  Avatar: 'serverErrors.imageLabels.avatar',
  Evidence: 'serverErrors.imageLabels.evidence',
  'News banner': 'serverErrors.imageLabels.newsBanner',
};

function duration(text: string): string {
  const m = /^(\d+) (second|minute|hour|day)s?$/.exec(text);
  return m ? i18n.t(durationKeys[m[2]], { count: Number(m[1]) }) : text;
}

function limit(text: string): string {
  return limitKeys[text] ? i18n.t(limitKeys[text]) : text;
}

function imageLabel(text: string): string {
  return imageLabelKeys[text] ? i18n.t(imageLabelKeys[text]) : text;
}

/** A date the database wrote as 'November 3, 2026' (to_char FMMonth FMDD, YYYY), in the reader's words. */
function longDate(text: string): string {
  if (currentLanguage() === 'en') return text;
  const ms = Date.parse(`${text} 00:00 UTC`);
  return Number.isNaN(ms) ? text : formatDate(new Date(ms).toISOString());
}

interface Rule {
  pattern: RegExp;
  /** The catalogue text for a match; null when a part is not known (the server's text is kept). */
  words: (m: RegExpExecArray) => string | null;
}

const fixed = (text: string, key: ParseKeys): Rule => ({
  pattern: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  words: () => i18n.t(key),
});

const rules: Rule[] = [
  {
    // private.rate_limit (PT429), and the legacy API's 429 with its "You can call again at" sentence.
    pattern:
      /^(.+): at most (\d+) per (.+?)\. Please try again in (.+?)\.(?: You can call again at (\S+)\.)?$/,
    words: (m) => {
      if (!limitKeys[m[1]]) return null;
      const text = i18n.t('serverErrors.rateLimited', {
        what: limit(m[1]),
        max: m[2],
        period: duration(m[3]),
        wait: duration(m[4]),
      });
      return m[5] ? text + i18n.t('serverErrors.callAgainAt', { at: m[5] }) : text;
    },
  },
  {
    pattern:
      /^You already reported (.+) on (\w+ \d{1,2}, \d{4})\. Edit that report to add what happened instead of filing a new one\.$/,
    words: (m) => i18n.t('serverErrors.duplicateReport', { account: m[1], date: longDate(m[2]) }),
  },
  {
    pattern:
      /^You already asked for this report to be removed on (\w+ \d{1,2}, \d{4}); that request is still open\.$/,
    words: (m) => i18n.t('serverErrors.openRemoval', { date: longDate(m[1]) }),
  },
  {
    pattern: /^You already have (\d+) API keys; revoke one before making another$/,
    words: (m) => i18n.t('serverErrors.apiKeyTooMany', { max: m[1] }),
  },
  {
    pattern: /^permission denied for table (\w+)$/,
    words: (m) => i18n.t('serverErrors.permissionDenied', { table: m[1] }),
  },
  {
    pattern: /^(Avatar|Evidence|News banner) file is empty$/,
    words: (m) => i18n.t('serverErrors.imageEmpty', { label: imageLabel(m[1]) }),
  },
  {
    pattern:
      /^(Avatar|Evidence|News banner) must be an image \(JPEG, PNG, WebP or GIF\); this file is not one$/,
    words: (m) => i18n.t('serverErrors.notAnImage', { label: imageLabel(m[1]) }),
  },
  {
    pattern: /^For security purposes, you can only request this after (\d+) seconds\.$/,
    words: (m) => i18n.t('serverErrors.auth.securityWait', { seconds: m[1] }),
  },
  // Auth (GoTrue) refusals whose code stands for more than one wording (see AUTH_CODE_KEYS).
  fixed('Token has expired or is invalid', 'serverErrors.auth.codeInvalid'),
  fixed('Email link is invalid or has expired', 'serverErrors.auth.linkInvalid'),
  fixed('Nonce has expired or is invalid', 'serverErrors.auth.nonceInvalid'),
  fixed('email rate limit exceeded', 'serverErrors.auth.emailRateLimit'),
  fixed('Password cannot be longer than 72 characters', 'serverErrors.auth.passwordTooLong'),
  fixed('Unable to validate email address: invalid format', 'serverErrors.auth.emailFormat'),
  fixed('only admins can change the status of a report', 'serverErrors.adminOnlyStatus'),
  fixed('this list entry has expired; the list is refreshed every hour', 'serverErrors.topExpired'),
  fixed('incident_date cannot be later than tomorrow', 'serverErrors.incidentDateFuture'),
  fixed('search_string must be 1 to 256 characters', 'serverErrors.searchLength'),
  fixed('Sign in to make an API key', 'serverErrors.apiKeySignIn'),
  fixed('Sign in to revoke an API key', 'serverErrors.apiKeyRevokeSignIn'),
  fixed("An API key's name is 1 to 60 characters", 'serverErrors.apiKeyName'),
  fixed('No such API key', 'serverErrors.apiKeyMissing'),
  fixed('JWT expired', 'serverErrors.sessionExpired'),
  fixed('Failed to fetch', 'serverErrors.network'),
  fixed('Choose an image to upload', 'serverErrors.chooseImage'),
  fixed('Only admins can upload news banners', 'serverErrors.bannerAdminOnly'),
  fixed('Image size too large', 'image.tooLarge'),
  fixed('Something went wrong, Please try again', 'errors.generic'),
];

/**
 * Auth (GoTrue) refusals by their error code (supabase-js's AuthError.code, GoTrue's `error_code`; the
 * local stack's Auth sends the same codes). Codes that stand for more than one wording here
 * (`otp_expired` for a code and for a link, `over_email_send_rate_limit` with and without a wait,
 * `validation_failed`) are still told apart by their message in the rules above.
 */
export const AUTH_CODE_KEYS: Record<string, ParseKeys> = {
  invalid_credentials: 'serverErrors.auth.invalidCredentials',
  email_not_confirmed: 'serverErrors.auth.emailNotConfirmed',
  user_already_exists: 'serverErrors.auth.alreadyRegistered',
  email_exists: 'serverErrors.auth.emailExists',
  over_request_rate_limit: 'serverErrors.auth.requestRateLimit',
  same_password: 'serverErrors.auth.samePassword',
  user_banned: 'serverErrors.auth.banned',
};

/**
 * A server error in the reader's language by its stable code, or null when it has none the app knows.
 * PostgREST's and Postgres's codes (`PT429`, `23505`, `PGRST301`) never take the shape of GoTrue's
 * snake-case words, so one look-up serves any error object.
 */
export function translateServerError(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && Object.hasOwn(AUTH_CODE_KEYS, code)) return i18n.t(AUTH_CODE_KEYS[code]);
  return null;
}

/** A server's message in the reader's language when it is a known one; otherwise as sent. */
export function translateServerMessage(text: string): string {
  for (const rule of rules) {
    const m = rule.pattern.exec(text);
    if (m) return rule.words(m) ?? text;
  }
  return text;
}
