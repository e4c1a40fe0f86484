/**
 * Outgoing e-mail over SMTP with implicit TLS (nodemailer, `secure: true`): hosted Supabase refuses
 * outgoing connections to ports 25 and 587, so STARTTLS submission is not an option there; port 465 (or
 * a provider's other implicit-TLS port, such as 2465) is. The stack gives SMTP_HOST and SMTP_PORT (its
 * mail sink, which speaks TLS with a certificate the stack's Deno trusts); production sets the same
 * variables, plus SMTP_USER/SMTP_PASS for its provider and MAIL_FROM for the sender, as function secrets
 * (docs/deploying.md).
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

/** Ports hosted edge functions cannot connect to. */
export const BLOCKED_SMTP_PORTS = [25, 587];

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

/** The SMTP port from SMTP_PORT; 25, 587 or no number is a configuration error, said at once. */
export function smtpPort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`SMTP_PORT must be a port number, not ${JSON.stringify(raw)}`);
  if (BLOCKED_SMTP_PORTS.includes(port))
    throw new Error(
      `SMTP_PORT ${port} cannot be reached from Supabase Edge Functions (ports 25 and 587 are refused); ` +
        "use the provider's implicit-TLS port, usually 465",
    );
  return port;
}

function smtp() {
  if (!transport) {
    const user = Deno.env.get('SMTP_USER');
    transport = nodemailer.createTransport({
      host: requireEnv('SMTP_HOST'),
      port: smtpPort(requireEnv('SMTP_PORT')),
      secure: true,
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
