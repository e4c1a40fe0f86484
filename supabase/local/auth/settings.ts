/**
 * The `[auth]` settings of supabase/config.toml, read the way the Supabase CLI turns them into GoTrue's
 * environment (`supabase start`): the same keys, the same defaults, the same template paths.
 */
import path from 'node:path';
import { configSection, table } from '../project-config.ts';
import { ROOT_DIR, apiUrl, stackEnv, type StackConfig } from '../config.ts';
import type { SendEmailHook } from './hook.ts';

/** The e-mail kinds GoTrue sends, named as in `[auth.email.template.<kind>]`. */
export type TemplateKind =
  'invite' | 'confirmation' | 'recovery' | 'magic_link' | 'email_change' | 'reauthentication';

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  /** Where GoTrue answers, as the browser sees it (API_EXTERNAL_URL): links in e-mails point here. */
  externalUrl: string;
  jwtIssuer: string;
  jwtExpiry: number;
  enableSignup: boolean;
  minimumPasswordLength: number;
  /** Character sets of which a password needs one each (`password_requirements`). */
  requiredCharacters: string[];
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  email: {
    enableSignup: boolean;
    /** GOTRUE_MAILER_AUTOCONFIRM is the negation of `enable_confirmations`. */
    autoconfirm: boolean;
    doubleConfirmChanges: boolean;
    securePasswordChange: boolean;
    maxFrequencyMs: number;
    otpLength: number;
    otpExpiry: number;
  };
  rateLimit: {
    /**
     * E-mails per hour for the whole project. The CLI applies `email_sent` only with a custom SMTP server
     * (`[auth.email.smtp] enabled`); with its own mail sink it lifts the limit, and so does this stack.
     */
    emailSent: number;
    emailSentApplies: boolean;
    tokenRefresh: number;
    signInSignUps: number;
    tokenVerifications: number;
  };
  templates: Partial<Record<TemplateKind, { subject?: string; contentPath?: string }>>;
  /** `[auth.hook.send_email]` when enabled: Auth posts its e-mails there instead of sending them (hook.ts). */
  sendEmailHook?: SendEmailHook;
  /**
   * `[auth.sms]` (issue 32): phone numbers confirmed by a code, as GoTrue's phone provider. Present in
   * config.toml = a provider is configured (locally the SMS sink stands in for it, as the mail sink for SMTP).
   * GoTrue's SMS OTP is 6 digits living 60 s by default (GOTRUE_SMS_OTP_LENGTH, GOTRUE_SMS_OTP_EXP).
   */
  sms: {
    enabled: boolean;
    enableSignup: boolean;
    /** GOTRUE_SMS_AUTOCONFIRM is the negation of `enable_confirmations`: a new phone is set without a code. */
    autoconfirm: boolean;
    template: string;
    maxFrequencyMs: number;
    otpLength: number;
    otpExpiry: number;
  };
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

/** Go's time.ParseDuration for the units config.toml uses ("1s", "1m0s", "500ms", "1h"). */
export function parseGoDuration(value: string): number {
  const units: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 0.001,
    µs: 0.001,
    ns: 0.000001,
  };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/g;
  let matched = '';
  for (let m = re.exec(value); m; m = re.exec(value)) {
    total += Number(m[1]) * units[m[2]];
    matched += m[0];
  }
  if (!value || matched !== value.trim())
    throw new Error(`config.toml: invalid duration ${JSON.stringify(value)}`);
  return total;
}

const PASSWORD_REQUIREMENTS: Record<string, string[]> = {
  '': [],
  letters_digits: ['abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits: ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'],
  lower_upper_letters_digits_symbols: [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789',
    '!@#$%^&*()_+-=[]{};\'\\:"|<>?,./`~',
  ],
};

/**
 * config.toml names the app at its default local address (http://localhost:5173). When this stack serves
 * the app itself on another port, a loopback URL there is moved to the running app's address, so e-mailed
 * links (confirmation, sign-in, recovery) and the redirect allow-list point at the app that is running.
 * Addresses on other hosts (a deployed site) are left as written.
 */
function atRunningApp(config: StackConfig, url: string): string {
  if (!config.withApp) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (!['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) return url;
  parsed.port = String(config.appPort);
  const moved = parsed.toString();
  // URL adds a trailing slash to a bare origin; keep the value as config.toml writes it.
  return url.endsWith('/') || moved !== `${parsed.origin}/` ? moved : parsed.origin;
}

/** A config.toml value with the CLI's `env(NAME)` substitution. */
export function resolveEnv(value: string, env: Record<string, string>): string {
  const m = /^env\((\w+)\)$/.exec(value.trim());
  if (!m) return value;
  const v = env[m[1]];
  if (v === undefined) throw new Error(`config.toml: ${m[1]} is not set in the environment`);
  return v;
}

/**
 * Reads `[auth]` from supabase/config.toml (or `tomlText`), with the CLI's defaults for missing keys.
 * Template paths are relative to `projectDir`, the folder holding `supabase/` (the served project's).
 */
export function loadAuthSettings(
  config: StackConfig,
  tomlText?: string,
  projectDir = ROOT_DIR,
): AuthSettings {
  const auth = configSection('auth', tomlText);
  const email = table(auth['email']);
  const rate = table(auth['rate_limit']);
  const smtp = table(email['smtp']);
  const sms = table(auth['sms']);
  const externalUrl = str(auth['external_url'], '') || `${apiUrl(config)}/auth/v1`;
  const templates: AuthSettings['templates'] = {};
  for (const [kind, value] of Object.entries(table(email['template']))) {
    const t = table(value);
    const contentPath = typeof t['content_path'] === 'string' ? t['content_path'] : undefined;
    templates[kind as TemplateKind] = {
      subject: typeof t['subject'] === 'string' ? t['subject'] : undefined,
      // As in the CLI, e-mail template paths are relative to the project folder (the one holding supabase/).
      contentPath:
        contentPath && !path.isAbsolute(contentPath) ? path.join(projectDir, contentPath) : contentPath,
    };
  }
  const hook = table(table(auth['hook'])['send_email']);
  const resolve = (v: unknown) => resolveEnv(str(v, ''), stackEnv(config));
  const sendEmailHook: SendEmailHook | undefined = bool(hook['enabled'], false)
    ? {
        uri: resolve(hook['uri']),
        secrets: resolve(hook['secrets']).split('|').filter(Boolean),
      }
    : undefined;
  if (sendEmailHook && (!sendEmailHook.uri || !sendEmailHook.secrets.length))
    throw new Error('config.toml: [auth.hook.send_email] needs uri and secrets');
  const requirement = str(auth['password_requirements'], '');
  if (!(requirement in PASSWORD_REQUIREMENTS))
    throw new Error(`config.toml: unknown auth.password_requirements ${requirement}`);
  return {
    siteUrl: atRunningApp(config, str(auth['site_url'], 'http://127.0.0.1:3000')),
    additionalRedirectUrls: Array.isArray(auth['additional_redirect_urls'])
      ? (auth['additional_redirect_urls'] as string[]).map((u) => atRunningApp(config, u))
      : [],
    externalUrl,
    jwtIssuer: str(auth['jwt_issuer'], '') || externalUrl,
    jwtExpiry: num(auth['jwt_expiry'], 3600),
    enableSignup: bool(auth['enable_signup'], true),
    minimumPasswordLength: num(auth['minimum_password_length'], 6),
    requiredCharacters: PASSWORD_REQUIREMENTS[requirement],
    refreshTokenRotation: bool(auth['enable_refresh_token_rotation'], true),
    refreshTokenReuseInterval: num(auth['refresh_token_reuse_interval'], 10),
    email: {
      enableSignup: bool(email['enable_signup'], true),
      autoconfirm: !bool(email['enable_confirmations'], false),
      doubleConfirmChanges: bool(email['double_confirm_changes'], true),
      securePasswordChange: bool(email['secure_password_change'], false),
      maxFrequencyMs: parseGoDuration(str(email['max_frequency'], '1s')),
      otpLength: num(email['otp_length'], 6),
      otpExpiry: num(email['otp_expiry'], 3600),
    },
    rateLimit: {
      emailSent: num(rate['email_sent'], 2),
      emailSentApplies: bool(smtp['enabled'], false),
      tokenRefresh: num(rate['token_refresh'], 150),
      signInSignUps: num(rate['sign_in_sign_ups'], 30),
      tokenVerifications: num(rate['token_verifications'], 30),
    },
    templates,
    sendEmailHook,
    sms: {
      enabled: auth['sms'] !== undefined,
      enableSignup: bool(sms['enable_signup'], false),
      autoconfirm: !bool(sms['enable_confirmations'], false),
      template: str(sms['template'], 'Your code is {{ .Code }}'),
      maxFrequencyMs: parseGoDuration(str(sms['max_frequency'], '5s')),
      otpLength: 6,
      otpExpiry: 60,
    },
  };
}
