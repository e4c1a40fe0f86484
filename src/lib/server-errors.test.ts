import { i18n } from '@/i18n';
import { errorMessage } from './errors';
import { AUTH_CODE_KEYS, translateServerError, translateServerMessage } from './server-errors';

/** Messages as the database and the functions send them (their English is the legacy API's contract). */
const samples = [
  'Too many searches from your address: at most 60 per 1 minute. Please try again in 42 seconds.',
  'Too many reports filed from your account: at most 20 per 1 hour. Please try again in 1 second.',
  'Too many removal requests from your account: at most 5 per 1 day. Please try again in 3 hours.',
  'Too many API requests from your address: at most 120 per 1 minute. Please try again in 1 second. You can call again at 2026-11-23T23:40:12Z.',
  'You already reported +639171234567 on November 3, 2026. Edit that report to add what happened instead of filing a new one.',
  'You already asked for this report to be removed on December 24, 2026; that request is still open.',
  'You already have 10 API keys; revoke one before making another',
  'permission denied for table news',
  'Avatar file is empty',
  'Evidence must be an image (JPEG, PNG, WebP or GIF); this file is not one',
  'only admins can change the status of a report',
  'this list entry has expired; the list is refreshed every hour',
  'incident_date cannot be later than tomorrow',
  'search_string must be 1 to 256 characters',
  'Sign in to make an API key',
  'Sign in to revoke an API key',
  "An API key's name is 1 to 60 characters",
  'No such API key',
  'JWT expired',
  'Failed to fetch',
  'Choose an image to upload',
  'Only admins can upload news banners',
  'Image size too large',
  'Something went wrong, Please try again',
  'For security purposes, you can only request this after 42 seconds.',
  'Token has expired or is invalid',
  'Email link is invalid or has expired',
  'Nonce has expired or is invalid',
  'email rate limit exceeded',
  'Password cannot be longer than 72 characters',
  'Unable to validate email address: invalid format',
];

/** The rate limits the migrations define, from their inserts into private.rate_limits. */
const migrations = Object.values(
  import.meta.glob<string>('/supabase/migrations/*.sql', { query: '?raw', import: 'default', eager: true }),
).join('\n');
const limitDescriptions = [
  ...migrations.matchAll(/\('([a-z_]+\.[a-z_]+)', *\d+, *\d+, *'((?:[^']|'')+)'/g),
].map(([, name, description]) => ({ name, description: description.replace(/''/g, "'") }));
/** Limits only the server meets (e-mails it sends), which never reach the app. */
// Met only through the legacy API (which keeps its English messages) or by e-mail, never in the app.
const SERVER_ONLY = [
  'email.user',
  'email.digest',
  'removal_confirm.address',
  'range.account',
  'range.address',
  'auth_login.account',
  'mail.recipient',
];

describe('server messages', () => {
  it('in English, every known message reads exactly as the server sent it', () => {
    for (const text of samples) expect(translateServerMessage(text)).toBe(text);
  });

  it('in Filipino, every known message is translated, names, numbers and codes kept', async () => {
    await i18n.changeLanguage('fil');
    for (const text of samples) expect(translateServerMessage(text), text).not.toBe(text);
    expect(translateServerMessage(samples[0])).toBe(
      'Masyadong maraming paghahanap mula sa iyong address: hanggang 60 lang kada 1 minuto. Subukang muli pagkalipas ng 42 segundo.',
    );
    expect(translateServerMessage(samples[3])).toMatch(
      /kada 1 minuto\. Subukang muli pagkalipas ng 1 segundo\. Puwede kang tumawag muli sa 2026-11-23T23:40:12Z\.$/,
    );
    expect(translateServerMessage(samples[4])).toBe(
      'Na-report mo na ang +639171234567 noong Nob 3, 2026. I-edit ang report na iyon para idagdag ang nangyari, sa halip na gumawa ng bago.',
    );
    expect(translateServerMessage(samples[9])).toBe(
      'Dapat larawan (JPEG, PNG, WebP o GIF) ang ebidensya; hindi larawan ang file na ito',
    );
    // Through the app's one error path, whatever shape the error has.
    expect(errorMessage({ code: 'PT429', message: samples[1] })).toMatch(/^Masyadong maraming report/);
    expect(errorMessage({ msg: 'No such API key' })).toBe('Walang ganitong API key');
    expect(errorMessage(null)).toBe(i18n.t('errors.generic'));
  });

  it('keeps an unknown message, or a limit it does not know, as the server sent it', async () => {
    await i18n.changeLanguage('fil');
    expect(translateServerMessage('duplicate key value violates unique constraint')).toBe(
      'duplicate key value violates unique constraint',
    );
    const unknownLimit = 'Too many hugs from you: at most 3 per 1 day. Please try again in 1 hour.';
    expect(translateServerMessage(unknownLimit)).toBe(unknownLimit);
    // A known message with a part it cannot word: that part stays as sent, the rest is translated.
    expect(
      translateServerMessage(
        'Too many searches from your address: at most 60 per 1 fortnight. Please try again in 42 seconds.',
      ),
    ).toBe(
      'Masyadong maraming paghahanap mula sa iyong address: hanggang 60 lang kada 1 fortnight. Subukang muli pagkalipas ng 42 segundo.',
    );
    // Only a whole period or wait is worded: a longer text that merely holds one stays as sent.
    expect(
      translateServerMessage(
        'Too many searches from your address: at most 60 per every 1 minute. Please try again in 42 seconds or so.',
      ),
    ).toBe(
      'Masyadong maraming paghahanap mula sa iyong address: hanggang 60 lang kada every 1 minute. Subukang muli pagkalipas ng 42 seconds or so.',
    );
    expect(
      translateServerMessage(
        'You already reported x.ph on Smarch 3, 2026. Edit that report to add what happened instead of filing a new one.',
      ),
    ).toBe(
      'Na-report mo na ang x.ph noong Smarch 3, 2026. I-edit ang report na iyon para idagdag ang nangyari, sa halip na gumawa ng bago.',
    );
  });

  it("translates Auth's refusals by their code, never by their English sentence", async () => {
    await i18n.changeLanguage('fil');
    const banned = i18n.t('serverErrors.auth.banned');
    expect(banned).not.toBe('User is banned');
    // Any wording, or none: the code decides.
    expect(errorMessage({ code: 'user_banned', message: 'User is banned' })).toBe(banned);
    expect(errorMessage({ code: 'user_banned', message: 'Account suspended' })).toBe(banned);
    expect(translateServerError({ code: 'invalid_credentials' })).toBe(
      i18n.t('serverErrors.auth.invalidCredentials'),
    );
    // The English sentence alone is no longer matched: it is shown as sent.
    for (const sentence of ['Invalid login credentials', 'User is banned', 'Email not confirmed']) {
      expect(translateServerMessage(sentence)).toBe(sentence);
      expect(errorMessage({ message: sentence })).toBe(sentence);
    }
    // Database codes are not Auth codes.
    expect(translateServerError({ code: '23505', message: 'x' })).toBeNull();
    expect(translateServerError({ code: 'toString' })).toBeNull();
    await i18n.changeLanguage('en');
    expect(errorMessage({ code: 'invalid_credentials', message: 'whatever' })).toBe(
      'Invalid login credentials',
    );
  });

  it("knows only codes the stack's Auth really sends", () => {
    const auth = Object.values(
      import.meta.glob<string>('/supabase/local/auth/*.ts', {
        query: '?raw',
        import: 'default',
        eager: true,
      }),
    ).join('\n');
    for (const code of Object.keys(AUTH_CODE_KEYS)) expect(auth, code).toContain(`'${code}'`);
  });

  it('knows every rate limit a user can meet, as the migrations define them', async () => {
    expect(limitDescriptions.length).toBeGreaterThan(20);
    await i18n.changeLanguage('fil');
    for (const { name, description } of limitDescriptions) {
      if (SERVER_ONLY.includes(name)) continue;
      const text = `${description}: at most 5 per 1 hour. Please try again in 2 minutes.`;
      expect(translateServerMessage(text), name).toMatch(
        /^Masyadong maraming .+: hanggang 5 lang kada 1 oras\. Subukang muli pagkalipas ng 2 minuto\.$/,
      );
    }
  });
});
