/**
 * Outgoing e-mail over SMTP (nodemailer). The stack gives SMTP_HOST and SMTP_PORT (the local mail
 * sink in development); production sets the same variables, plus SMTP_USER/SMTP_PASS for its
 * provider and MAIL_FROM for the sender, as function secrets.
 */
// @deno-types="npm:@types/nodemailer@8.0.2"
import nodemailer from 'npm:nodemailer@8.0.2';
import { requireEnv } from './env.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

function smtp() {
  if (!transport) {
    const port = Number(requireEnv('SMTP_PORT'));
    const user = Deno.env.get('SMTP_USER');
    transport = nodemailer.createTransport({
      host: requireEnv('SMTP_HOST'),
      port,
      secure: port === 465,
      auth: user ? { user, pass: Deno.env.get('SMTP_PASS') ?? '' } : undefined,
    });
  }
  return transport;
}

export async function sendMail(mail: Mail): Promise<void> {
  await smtp().sendMail({
    from: Deno.env.get('MAIL_FROM') ?? 'ScamCheck <no-reply@scamcheck.ph>',
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
}

/** Escapes text for the HTML part of an e-mail (identifiers and reasons are user input). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
