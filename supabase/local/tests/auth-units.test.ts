/**
 * The Auth service's own rules, checked without HTTP: e-mail templates as Go's html/template renders them,
 * config.toml read as the Supabase CLI reads it, redirect URLs as GoTrue allows them, and its token hash.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../config.ts';
import { generateOtp, isRedirectAllowed, passwordWeakness, tokenHash } from '../auth/context.ts';
import { loadAuthSettings, parseGoDuration } from '../auth/settings.ts';
import { Mailer } from '../auth/mailer.ts';
import { TemplateError, parseTemplate, renderTemplate } from '../auth/template.ts';

const render = (source: string, data: unknown) => renderTemplate(parseTemplate(source), data);

/** The package's own made-up project (fixture/README.md), not the project that uses the package. */
const FIXTURE_DIR = fileURLToPath(new URL('./fixture/', import.meta.url));
const FIXTURE_TOML = readFileSync(path.join(FIXTURE_DIR, 'supabase/config.toml'), 'utf8');
const fixtureSettings = () => loadAuthSettings(testConfig(), FIXTURE_TOML, FIXTURE_DIR);

describe('e-mail templates', () => {
  it('fills fields, nested data and conditions, escaping values as html/template does', () => {
    const data = { Token: '123456', Email: 'a@b.ph', Data: { name: '<Juan & Co>' }, Empty: '' };
    expect(render('Code {{ .Token }} for {{.Email}}', data)).toBe('Code 123456 for a@b.ph');
    expect(render('Hi {{ .Data.name }}', data)).toBe('Hi &lt;Juan &amp; Co&gt;');
    expect(render('{{ if .Data.name }}named{{ else }}anonymous{{ end }}', data)).toBe('named');
    expect(render('{{ if .Data.city }}city{{ else if .Empty }}empty{{ else }}none{{ end }}', data)).toBe(
      'none',
    );
    expect(render('{{ if eq .Token "123456" }}match{{ end }}', data)).toBe('match');
    expect(render('[{{ .Missing }}]', data)).toBe('[]');
    expect(render('a  {{- .Token -}}  b', data)).toBe('a123456b');
    expect(render('{{ .Data }}', { Data: { b: 2, a: 'x' } })).toBe('map[a:x b:2]');
  });

  it('rejects templates it cannot render instead of sending a broken e-mail', () => {
    expect(() => parseTemplate('{{ if .Token }}never closed')).toThrow(TemplateError);
    expect(() => render('{{ printf "%s" .Token }}', {})).toThrow(TemplateError);
  });

  it("renders a project's configured e-mails with their subjects", () => {
    const mailer = new Mailer(fixtureSettings());
    const mail = mailer.render('recovery', 'a@b.ph', {
      SiteURL: 'http://localhost:5173',
      ConfirmationURL: 'http://x/verify?token=t&type=recovery',
      Email: 'a@b.ph',
      Token: '654321',
      TokenHash: 'hash',
      Data: {},
    });
    expect(mail.subject).toBe('Reset your Example Notes password');
    expect(mail.html).toContain('Reset your Example Notes password with the code 654321');
    expect(mail.html).toContain('654321');
    expect(mail.html).toContain('href="http://x/verify?token=t&amp;type=recovery"');
    expect(mail.text).toContain('654321');
  });
});

describe('config.toml [auth]', () => {
  it('points e-mailed links at the running app when the stack serves it on another port', () => {
    const toml = `[auth]
site_url = "http://localhost:5173"
additional_redirect_urls = ["http://localhost:5173", "http://127.0.0.1:5173/reset", "https://project.example"]
`;
    const moved = loadAuthSettings(testConfig({ withApp: true, appPort: 6001 }), toml);
    expect(moved.siteUrl).toBe('http://localhost:6001');
    expect(moved.additionalRedirectUrls).toEqual([
      'http://localhost:6001',
      'http://127.0.0.1:6001/reset',
      'https://project.example',
    ]);
    // A stack that does not serve the app (the test stack) keeps config.toml's addresses.
    expect(loadAuthSettings(testConfig({ withApp: false, appPort: 6001 }), toml).siteUrl).toBe(
      'http://localhost:5173',
    );
    // A deployed site is never rewritten.
    const deployed = '[auth]\nsite_url = "https://project.example"\n';
    expect(loadAuthSettings(testConfig({ withApp: true, appPort: 6001 }), deployed).siteUrl).toBe(
      'https://project.example',
    );
  });

  it('reads the project settings', () => {
    const s = fixtureSettings();
    expect(s).toMatchObject({
      siteUrl: 'http://localhost:5173',
      jwtExpiry: 3600,
      minimumPasswordLength: 8,
      refreshTokenReuseInterval: 10,
      email: {
        autoconfirm: false,
        doubleConfirmChanges: true,
        otpLength: 10,
        otpExpiry: 600,
        securePasswordChange: true,
        maxFrequencyMs: 1000,
      },
      rateLimit: { tokenVerifications: 20, signInSignUps: 30, tokenRefresh: 150, emailSentApplies: false },
    });
    expect(s.externalUrl).toBe(`http://127.0.0.1:${testConfig().apiPort}/auth/v1`);
    expect(s.jwtIssuer).toBe(s.externalUrl);
    // As in the CLI, e-mail template paths are relative to the project folder.
    expect(s.templates.confirmation).toEqual({
      subject:
        '{{ if and .Data.locale (eq .Data.locale "de") }}Ihr Example-Notes-Code{{ else }}Your Example Notes code{{ end }}',
      contentPath: path.join(FIXTURE_DIR, 'supabase/templates/confirmation.html'),
    });
    expect(s.sendEmailHook).toBeUndefined();
  });

  it("uses the CLI's defaults for what is not set", () => {
    const s = loadAuthSettings(testConfig(), '[auth]\nsite_url = "https://project.example"\n');
    expect(s).toMatchObject({
      minimumPasswordLength: 6,
      enableSignup: true,
      email: { autoconfirm: true, maxFrequencyMs: 1000, otpExpiry: 3600 },
      rateLimit: { emailSent: 2, tokenRefresh: 150, signInSignUps: 30, tokenVerifications: 30 },
    });
    expect(
      loadAuthSettings(testConfig(), '[auth]\npassword_requirements = "letters_digits"\n').requiredCharacters,
    ).toHaveLength(2);
    expect(() => loadAuthSettings(testConfig(), '[auth]\npassword_requirements = "emoji"\n')).toThrow(
      /password_requirements/,
    );
  });

  it('parses Go durations as max_frequency uses them', () => {
    expect(parseGoDuration('1s')).toBe(1000);
    expect(parseGoDuration('1m0s')).toBe(60_000);
    expect(parseGoDuration('1h30m')).toBe(5_400_000);
    expect(() => parseGoDuration('soon')).toThrow(/invalid duration/);
  });
});

describe('GoTrue rules', () => {
  const settings = fixtureSettings();

  it('holds on: config.toml — allows redirects to the site, loopback and allow-listed URLs only', () => {
    expect(isRedirectAllowed(settings, 'http://localhost:5173/reset')).toBe(true);
    expect(isRedirectAllowed(settings, 'http://localhost:3000/')).toBe(true);
    expect(isRedirectAllowed(settings, 'http://127.0.0.1:5173/x')).toBe(true);
    expect(isRedirectAllowed(settings, 'https://evil.example/steal')).toBe(false);
    expect(isRedirectAllowed(settings, 'http://2130706433/')).toBe(false);
    expect(isRedirectAllowed(settings, 'javascript:alert(1)')).toBe(false);
    const glob = { ...settings, additionalRedirectUrls: ['https://*.project.example/**'] };
    expect(isRedirectAllowed(glob, 'https://app.project.example/auth/callback')).toBe(true);
    expect(isRedirectAllowed(glob, 'https://app.evil.ph.project.example.evil.com/')).toBe(false);
  });

  it('hashes codes as GoTrue does (hex SHA-224 of address and code)', () => {
    expect(tokenHash('maria@example.com', '123456')).toBe(
      'f82ddb3f5753ff2dfb6184a0c68870ba3d40a92b8cc15978be3f95ed',
    );
    expect(generateOtp(6)).toMatch(/^\d{6}$/);
    expect(generateOtp(8)).toMatch(/^\d{8}$/);
  });

  it('judges passwords by bytes, with the reasons GoTrue gives', () => {
    expect(passwordWeakness(settings, 'twelve chars')).toBeUndefined();
    expect(passwordWeakness(settings, 'short')).toMatchObject({
      status: 422,
      code: 'weak_password',
      extra: { weak_password: { reasons: ['length'] } },
    });
    expect(passwordWeakness(settings, 'x'.repeat(73))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Password cannot be longer than 72 characters',
    });
    const strict = { ...settings, requiredCharacters: ['abc', '0123456789'] };
    expect(passwordWeakness(strict, 'no digits here')).toMatchObject({
      extra: { weak_password: { reasons: ['characters'] } },
    });
  });
});
