/**
 * GoTrue's mailer: renders the `[auth.email.template.<kind>]` templates of config.toml (re-read when the
 * file changes, as `supabase start` reloads them) with Supabase's template variables, and hands the message
 * to the stack's SMTP sink. Kinds without a configured template get a plain built-in message.
 */
import { readFileSync, statSync } from 'node:fs';
import { htmlToText, parseTemplate, renderTemplate } from './template.ts';
import type { AuthSettings, TemplateKind } from './settings.ts';

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

const DEFAULT_SUBJECTS: Record<TemplateKind, string> = {
  invite: "You've been invited",
  confirmation: 'Confirm Your Signup',
  recovery: 'Reset Your Password',
  magic_link: 'Your Magic Link',
  email_change: 'Confirm Email Change',
  reauthentication: 'Confirm Reauthentication',
};

const DEFAULT_BODIES: Record<TemplateKind, string> = {
  invite:
    '<h2>Invitation</h2><p>Accept the invitation: <a href="{{ .ConfirmationURL }}">accept</a>. Code: {{ .Token }}</p>',
  confirmation:
    '<h2>Confirm your e-mail</h2><p><a href="{{ .ConfirmationURL }}">Confirm</a> or enter the code {{ .Token }}</p>',
  recovery:
    '<h2>Password reset</h2><p><a href="{{ .ConfirmationURL }}">Reset your password</a> or enter the code {{ .Token }}</p>',
  magic_link:
    '<h2>Sign-in link</h2><p><a href="{{ .ConfirmationURL }}">Sign in</a> or enter the code {{ .Token }}</p>',
  email_change:
    '<h2>Confirm the change of e-mail</h2><p>From {{ .Email }} to {{ .NewEmail }}: <a href="{{ .ConfirmationURL }}">confirm</a> or enter the code {{ .Token }}</p>',
  reauthentication: '<h2>Confirm it is you</h2><p>Enter the code: {{ .Token }}</p>',
};

type Parsed = ReturnType<typeof parseTemplate>;

export class Mailer {
  private cache = new Map<string, { mtimeMs: number; body: Parsed }>();

  constructor(private settings: AuthSettings) {}

  private body(kind: TemplateKind): Parsed {
    const file = this.settings.templates[kind]?.contentPath;
    if (!file) return parseTemplate(DEFAULT_BODIES[kind]);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      // GoTrue falls back to its built-in template when the configured one cannot be loaded.
      return parseTemplate(DEFAULT_BODIES[kind]);
    }
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.body;
    const body = parseTemplate(readFileSync(file, 'utf8'));
    this.cache.set(file, { mtimeMs, body });
    return body;
  }

  render(kind: TemplateKind, to: string, data: Record<string, unknown>): Mail {
    const subjectSource = this.settings.templates[kind]?.subject ?? DEFAULT_SUBJECTS[kind];
    const subject = renderTemplate(parseTemplate(subjectSource), data, false);
    const html = renderTemplate(this.body(kind), data);
    return { to, subject, html, text: htmlToText(html) };
  }
}
