import { i18n } from '@/i18n';
import { errorMessage } from './errors';
import { FunctionCallError } from './functions';
import { AUTH_CODES, CODE_WORDS, LIMIT_KEYS, serverCodeOf, translateServerError } from './server-errors';
import { DASHBOARD_CODE_WORDS } from './server-errors-dashboard';

const raw = (files: Record<string, string>) => Object.values(files).join('\n');
const migrations = raw(
  import.meta.glob<string>('/supabase/migrations/*.sql', { query: '?raw', import: 'default', eager: true }),
);
const functions = raw(
  import.meta.glob<string>(['/supabase/functions/**/*.ts', '!**/*_test.ts', '!**/database.types.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
);

/** A database refusal as supabase-js hands it over: the code and its parameters in the hint. */
const db = (code: string, params: Record<string, unknown> = {}, message = 'Any English words') => ({
  code: '22023',
  message,
  details: null,
  hint: JSON.stringify({ code, ...params }),
});

/** One example of every code the app translates, with the parameters the server sends. */
const examples: Record<string, unknown> = {
  rate_limited: db('rate_limited', { limit: 'search.ip', max: 60, per_seconds: 60, retry_after: 42 }),
  report_duplicate: db('report_duplicate', {
    report_id: '00000000-0000-4000-8000-000000000007',
    account: '+639171234567',
    date: '2026-11-03',
  }),
  removal_open: db('removal_open', {
    request_id: '00000000-0000-4000-8000-000000000008',
    date: '2026-12-24',
  }),
  api_key_too_many: db('api_key_too_many', { max: 10 }),
  image_empty: new FunctionCallError('x', 400, 'image_empty', { image: 'avatar' }),
  image_not_image: new FunctionCallError('x', 400, 'image_not_image', { image: 'evidence' }),
  image_too_many_pixels: new FunctionCallError('x', 400, 'image_too_many_pixels', { image: 'news_banner' }),
  image_malformed: new FunctionCallError('x', 400, 'image_malformed', { image: 'avatar', format: 'PNG' }),
  '42501': { code: '42501', message: 'permission denied for table news', details: null, hint: null },
  search_length: db('search_length', { min: 1, max: 256 }),
  check_too_many: db('check_too_many', { max: 50 }),
  check_identifier_invalid: db('check_identifier_invalid', { max: 256 }),
  reply_too_long: db('reply_too_long', { max: 5000 }),
  suspension_reason: db('suspension_reason', { min: 3, max: 500 }),
  suspension_days: db('suspension_days', { min: 1, max: 3650 }),
  search_too_long: db('search_too_long', { max: 200 }),
  answer_too_long: db('answer_too_long', { max: 5000 }),
  note_too_long: db('note_too_long', { max: 1000 }),
  reason_length: db('reason_length', { min: 1, max: 500 }),
  moderation_too_many: db('moderation_too_many', { max: 200 }),
  undo_expired: db('undo_expired', { days: 7 }),
  partner_name_too_long: db('partner_name_too_long', { max: 100 }),
  statement_length: db('statement_length', { min: 1, max: 500 }),
  ownership_proof_missing: new FunctionCallError('No such proof', 404, 'ownership_proof_missing', {}),
  ownership_code_too_soon: new FunctionCallError('x', 429, 'ownership_code_too_soon', { retry_after: 60 }),
  profile_link_mismatch: db('profile_link_mismatch', { account: 't.me/shop' }),
  reason_too_long: db('reason_too_long', { max: 500 }),
  batch_size: db('batch_size', { min: 1, max: 200 }),
  amount_too_large: db('amount_too_large', { max: 100000000 }),
};
/**
 * Codes only operators, scheduled jobs, the functions' own calls or the legacy API meet (the feed
 * builder's inputs, range look-ups, the limiter's arguments, a missing Vault secret, append-only logs):
 * the database sends them, the app never shows them, so they have no words here.
 */
const SERVER_ONLY_CODES = [
  'append_only',
  'vault_secret_missing',
  'rate_limit_unknown',
  'rate_limit_subject',
  'rate_limit_cost',
  'argument_required',
  'argument_not_array',
  'feed_not_rendered',
  'feed_item_duplicate',
  'feed_item_incomplete',
  'feed_not_classified',
  'range_prefixes_invalid',
  'range_prefix_invalid',
  'range_requests_too_many',
  'range_request_invalid',
  'identifier_kind_unknown',
];

const exampleOf = (code: string) => examples[code] ?? { code, message: 'Any English words' };

/** Limits only the server meets (e-mails it sends, the legacy API's range look-ups), never the app. */
const SERVER_ONLY = [
  'email.user',
  'email.digest',
  'removal_confirm.address',
  'range.account',
  'range.address',
  'auth_login.account',
  'mail.recipient',
];

describe('server errors by code', () => {
  afterEach(() => i18n.changeLanguage('en'));

  it('in Filipino, shows its own text for every code, whatever English the server sent', async () => {
    await i18n.changeLanguage('fil');
    const seen = new Set<string>();
    for (const code of Object.keys(CODE_WORDS)) {
      const text = errorMessage(exampleOf(code));
      expect(text, code).not.toBe('Any English words');
      expect(text, code).not.toMatch(/\{\{|serverErrors\./);
      seen.add(text);
    }
    expect(errorMessage(examples.rate_limited)).toBe(
      'Masyadong maraming paghahanap mula sa iyong address: hanggang 60 lang kada 1 minuto. Subukang muli pagkalipas ng 42 segundo.',
    );
    expect(errorMessage(examples.report_duplicate)).toBe(
      'Na-report mo na ang +639171234567 noong Nob 3, 2026. I-edit ang report na iyon para idagdag ang nangyari, sa halip na gumawa ng bago.',
    );
    expect(errorMessage(examples.removal_open)).toBe(
      'Hiniling mo nang alisin ang report na ito noong Dis 24, 2026; bukas pa ang hiling na iyon.',
    );
    expect(errorMessage(examples.image_not_image)).toBe(
      'Dapat larawan (JPEG, PNG, WebP o GIF) ang ebidensya; hindi larawan ang file na ito',
    );
    expect(errorMessage(db('api_key_too_many', { max: 10 }))).toBe(
      'May 10 API key ka na; bawiin muna ang isa bago gumawa ng bago',
    );
    // A function's upload limit names no period: the wait alone.
    expect(
      errorMessage(
        new FunctionCallError('x', 429, 'rate_limited', { limit: 'upload.user', retry_after: 1800 }),
      ),
    ).toBe(
      'Masyadong maraming larawang na-upload mula sa iyong account ngayong oras. Subukang muli pagkalipas ng 30 minuto.',
    );
    expect(errorMessage({ code: 'user_banned', message: 'User is banned' })).toBe(
      'Naka-ban ang account na ito',
    );
  });

  it('in Filipino, the admin-only, ownership and search-input refusals read in Filipino', async () => {
    await i18n.changeLanguage('fil');
    // Admin-only (every admin function), ownership (acting on someone else's row) and search inputs.
    expect(errorMessage(db('admin_only', {}, 'only admins can read the review queue'))).toBe(
      'Admin lang ang puwedeng gumawa nito',
    );
    expect(errorMessage(db('ownership_required', {}, 'prove that you own this identifier first'))).toBe(
      'Patunayan mo muna na iyo ang identifier na ito',
    );
    expect(errorMessage(examples.ownership_proof_missing)).toBe(
      'Hindi nakita ang patunay na iyon, o hindi ito sa iyo',
    );
    expect(errorMessage(db('removal_request_not_own'))).toBe(
      'Sa sarili mong pangalan lang puwedeng maghain ng hiling na alisin ang report, at bilang bukas na hiling lang',
    );
    expect(errorMessage(examples.search_length)).toBe(
      '1 hanggang 256 character ang haba ng isang paghahanap',
    );
    expect(errorMessage(examples.search_too_long)).toBe('Hanggang 200 character lang ang isang paghahanap');
    expect(errorMessage(examples.check_too_many)).toBe(
      'Hanggang 50 numero, address o pangalan lang ang masusuri nang sabay-sabay',
    );
    expect(
      errorMessage(db('ownership_method_invalid', {}, 'only mobile numbers and e-wallets are proved by SMS')),
    ).toBe('Sa ibang paraan pinapatunayan ang ganitong uri ng identifier');
    expect(errorMessage(db('phone_not_confirmed'))).toBe(
      'Kumpirmahin muna ang numerong ito gamit ang SMS code',
    );
    expect(errorMessage(examples.ownership_code_too_soon)).toBe(
      'Kapapadala lang ng code sa address na ito; maghintay ng 60 segundo bago humingi ng bago',
    );
    expect(errorMessage(db('choice_invalid', { argument: 'period', choices: 'all_time' }))).toBe(
      'Wala iyan sa mga pagpipilian dito',
    );
    expect(errorMessage(examples.undo_expired)).toBe(
      'Sa loob lang ng 7 araw mababawi ang isang pasya; magpasya na lang muli',
    );
    // Without its parameter the refusal is shown as the server sent it, never with a hole in it.
    expect(errorMessage(db('search_length', { max: 256 }, 'as sent'))).toBe('as sent');
  });

  it('the dashboard-only codes are added to the app’s codes when the dashboard loads', () => {
    for (const code of Object.keys(DASHBOARD_CODE_WORDS))
      expect(CODE_WORDS[code], code).toBe(DASHBOARD_CODE_WORDS[code]);
  });

  it('in English, the same codes read in English', () => {
    expect(errorMessage(examples.rate_limited)).toBe(
      'Too many searches from your address: at most 60 per 1 minute. Please try again in 42 seconds.',
    );
    expect(errorMessage(db('report_status_admin_only'))).toBe(
      'Only admins can change the status of a report',
    );
    expect(errorMessage({ code: 'invalid_credentials', message: 'whatever' })).toBe(
      'Invalid login credentials',
    );
  });

  it('reads the hint before the SQLSTATE, and a function’s code from its answer', () => {
    expect(serverCodeOf({ code: '42501', hint: '{"code": "sign_in_required"}' })).toEqual({
      code: 'sign_in_required',
      params: {},
    });
    expect(serverCodeOf({ code: '42501', hint: 'not json' })).toEqual({ code: '42501', params: {} });
    expect(serverCodeOf(new FunctionCallError('x', 400, 'image_empty', { image: 'avatar' }))).toEqual({
      code: 'image_empty',
      params: { image: 'avatar' },
    });
    expect(serverCodeOf('text')).toBeNull();
    expect(serverCodeOf({ code: '' })).toBeNull();
  });

  it('shows an unknown code, an unknown limit or a missing part as the server sent it', async () => {
    await i18n.changeLanguage('fil');
    expect(errorMessage({ code: '23505', message: 'duplicate key value' })).toBe('duplicate key value');
    expect(errorMessage({ code: 'toString', message: 'as sent' })).toBe('as sent');
    expect(errorMessage(db('rate_limited', { limit: 'hugs.ip', retry_after: 1 }, 'as sent'))).toBe('as sent');
    expect(errorMessage(db('report_duplicate', { report_id: 'x' }, 'as sent'))).toBe('as sent');
    expect(errorMessage(db('image_empty', { image: 'sticker' }, 'as sent'))).toBe('as sent');
    expect(translateServerError(db('no_such_code'))).toBeNull();
    expect(errorMessage(null)).toBe(i18n.t('errors.generic'));
  });

  it('tells a failed connection by the error’s kind, not its words', async () => {
    await i18n.changeLanguage('fil');
    const network = i18n.t('serverErrors.network');
    expect(errorMessage(new TypeError('Load failed'))).toBe(network);
    expect(
      errorMessage({ code: '', message: 'TypeError: NetworkError when attempting to fetch resource.' }),
    ).toBe(network);
    expect(errorMessage({ name: 'FunctionsFetchError', message: 'Failed to send a request' })).toBe(network);
  });

  it("knows only Auth codes the stack's Auth really sends", () => {
    const auth = raw(
      import.meta.glob<string>('/supabase/local/auth/*.ts', {
        query: '?raw',
        import: 'default',
        eager: true,
      }),
    );
    for (const code of AUTH_CODES) {
      expect(Object.hasOwn(CODE_WORDS, code), code).toBe(true);
      expect(auth, code).toContain(`'${code}'`);
    }
  });

  it('knows every code the database and the functions send, and every limit a user can meet', () => {
    const dbCodes = [
      ...migrations.matchAll(/hint'?,? *=? *jsonb_build_object\('code', '([a-z_]+)'/g),
      ...migrations.matchAll(/hint = '\{"code": "([a-z_]+)"/g),
    ].map((m) => m[1]);
    const fnCodes = [
      ...functions.matchAll(/(?:new HttpError|errorResponse)\([^;]*?\bcode: '([a-z_]+)'/g),
      ...functions.matchAll(/refused\(\s*(?:'[^']*'|`[^`]*`),\s*'([a-z_]+)'/g),
    ].map((m) => m[1]);
    expect(dbCodes.length).toBeGreaterThan(10);
    expect(fnCodes.length).toBeGreaterThan(5);
    for (const code of [...dbCodes, ...fnCodes]) {
      if (!SERVER_ONLY_CODES.includes(code)) expect(Object.hasOwn(CODE_WORDS, code), code).toBe(true);
    }
    // The list of codes the app need not word holds only codes the database sends and the app does not.
    for (const code of SERVER_ONLY_CODES) {
      expect(dbCodes, code).toContain(code);
      expect(Object.hasOwn(CODE_WORDS, code), code).toBe(false);
    }
    const limits = [...migrations.matchAll(/\('([a-z_]+\.[a-z_]+)', *\d+, *\d+, *'/g)].map((m) => m[1]);
    expect(limits.length).toBeGreaterThan(20);
    for (const name of limits) {
      if (!SERVER_ONLY.includes(name)) expect(Object.hasOwn(LIMIT_KEYS, name), name).toBe(true);
    }
  });
});

describe('no English server sentence is matched in the app', () => {
  /** Every sentence the database raises and every message a function answers with, as written. */
  const sentences = [
    ...[...migrations.matchAll(/raise exception '((?:[^'%]|'')+)/g)].map((m) => m[1].replace(/''/g, "'")),
    ...[...migrations.matchAll(/'message', format\('([^'%]+)/g)].map((m) => m[1]),
    ...[...functions.matchAll(/new HttpError\(\s*\d+,\s*'([^']+)'/g)].map((m) => m[1]),
    ...[...functions.matchAll(/new HttpError\(\s*\d+,\s*`([^`$]+)/g)].map((m) => m[1]),
    ...[...functions.matchAll(/refused\(\s*'([^']+)'/g)].map((m) => m[1]),
  ]
    .map((s) => s.trim())
    .filter((s) => s.length >= 12);
  const app = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!**/*.test.{ts,tsx}'], {
    query: '?raw',
    import: 'default',
    eager: true,
  });

  it('finds the server’s sentences to look for', () => {
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences).toContain('only admins can change the status of a report');
    expect(sentences).toContain('Choose an image to upload');
    expect(sentences).toContain('You already reported');
  });

  it('no app source holds one', () => {
    for (const [file, source] of Object.entries(app)) {
      for (const sentence of sentences) expect(source.includes(sentence), `${file}: ${sentence}`).toBe(false);
    }
  });

  it('server-errors.ts translates by code only: no pattern over a message', () => {
    const source = app['/src/lib/server-errors.ts'];
    expect(source).toBeTruthy();
    expect(source).not.toMatch(/new RegExp|\.exec\(|\.test\(|\.match\(|\bmessage\b\s*[=!]==|\.message\b/);
  });
});
