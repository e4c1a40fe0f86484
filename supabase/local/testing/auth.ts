/**
 * Helpers for tests of Auth against a running stack: supabase-js clients as a browser holds them, the
 * e-mails and texts the stack's sinks received, and a second Auth service with other settings.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { testConfig, type StackConfig } from '../config.ts';
import { createAuthService } from '../auth/index.ts';
import { loadAuthSettings, type AuthSettings, type TemplateKind } from '../auth/settings.ts';
import { parseTemplate, renderTemplate } from '../auth/template.ts';
import { stackCa, stackEnv, unique } from './env.ts';

// Node 20 has no global WebSocket, which supabase-js needs to construct its (unused here) realtime client.
type Transport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;
const realtime = { transport: WebSocket as unknown as Transport };

/** A client as a browser would hold it, without storage or background refresh so tests stay deterministic. */
export function anonClient(headers: Record<string, string> = {}): SupabaseClient {
  return createClient(stackEnv('API_URL'), stackEnv('ANON_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
    realtime,
  });
}

export function serviceClient(): SupabaseClient {
  return createClient(stackEnv('API_URL'), stackEnv('SERVICE_ROLE_KEY'), {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime,
  });
}

export function uniqueEmail(prefix = 'auth'): string {
  return `${unique(prefix)}@example.com`;
}

export interface SentMail {
  ID: string;
  Subject: string;
  HTML: string;
  Text: string;
  To: { Address: string }[];
}

/** Waits until the sink holds at least `count` e-mails to `to` and returns them, newest first. */
export async function mailsTo(to: string, count = 1, timeoutMs = 5000): Promise<SentMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(
      `${stackEnv('MAILPIT_URL')}/api/v1/search?query=${encodeURIComponent(`to:${to}`)}`,
    );
    const list = (await res.json()) as { messages: { ID: string; To: { Address: string }[] }[] };
    const mine = list.messages.filter((m) => m.To.some((t) => t.Address.toLowerCase() === to.toLowerCase()));
    if (mine.length >= count) {
      return Promise.all(
        mine.map(
          async (m) =>
            (await (await fetch(`${stackEnv('MAILPIT_URL')}/api/v1/message/${m.ID}`)).json()) as SentMail,
        ),
      );
    }
    if (Date.now() > deadline) throw new Error(`expected ${count} e-mail(s) to ${to}, found ${mine.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The latest e-mail to `to` (waiting for the `count`-th one). */
export async function latestMail(to: string, count = 1): Promise<SentMail> {
  return (await mailsTo(to, count))[0];
}

/** The one-time code an e-mail shows (6 to 10 digits closing a <span>, as the templates set it). */
export function codeIn(mail: SentMail): string {
  const m = />\s*(\d{6,10})\s*<\/span>/.exec(mail.HTML);
  if (!m) throw new Error(`no code in e-mail "${mail.Subject}"`);
  return m[1];
}

/** A text in the local SMS sink (beside the mail sink, read through the same API style). */
export interface SentSms {
  ID: string;
  To: string;
  Body: string;
}

/** Waits until the SMS sink holds at least `count` texts to `number` (E.164) and answers the newest. */
export async function smsTo(number: string, count = 1, timeoutMs = 5000): Promise<SentSms> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(
      `${stackEnv('MAILPIT_URL')}/api/v1/sms/search?query=${encodeURIComponent(`to:${number}`)}`,
    );
    const list = (await res.json()) as { messages: SentSms[] };
    if (list.messages.length >= count) return list.messages[0];
    if (Date.now() > deadline) throw new Error(`no SMS to ${number}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The 6-digit code in a text. */
export function smsCode(sms: SentSms): string {
  const m = /\b(\d{6})\b/.exec(sms.Body);
  if (!m) throw new Error(`no code in "${sms.Body}"`);
  return m[1];
}

/**
 * The subject the served project's config.toml sets for an e-mail of this kind, rendered for `data`
 * (the user's metadata as the template sees it as `.Data`): what a test expects without knowing the
 * project. Null when the project sets none (GoTrue's default subject then).
 */
export function configuredSubject(kind: TemplateKind, data: Record<string, unknown> = {}): string | null {
  const subject = loadAuthSettings(testConfig()).templates[kind]?.subject;
  return subject === undefined ? null : renderTemplate(parseTemplate(subject), { Data: data });
}

/** The href of the first link whose URL contains `fragment`, with HTML entities decoded. */
export function linkIn(mail: SentMail, fragment: string): string {
  for (const m of mail.HTML.matchAll(/href="([^"]+)"/g)) {
    const href = m[1].replace(/&amp;/g, '&').replace(/&#34;/g, '"').replace(/&#39;/g, "'");
    if (href.includes(fragment)) return href;
  }
  throw new Error(`no link containing ${fragment} in e-mail "${mail.Subject}"`);
}

/** Signs up and confirms a user through the e-mail code; answers the signed-in client and its session. */
export async function confirmedUser(data: Record<string, unknown> = {}, password = 'correct horse battery') {
  const email = uniqueEmail('user');
  const client = anonClient();
  const { error } = await client.auth.signUp({ email, password, options: { data } });
  if (error) throw error;
  const code = codeIn(await latestMail(email));
  const { data: verified, error: verifyError } = await client.auth.verifyOtp({
    email,
    token: code,
    type: 'signup',
  });
  if (verifyError) throw verifyError;
  return { email, password, client, session: verified.session!, user: verified.user! };
}

/** The payload of a JWT, unverified (the tests check what the server put in it). */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * A second auth service on the test database with other settings than config.toml's, reached through
 * supabase-js like the stack's own.
 */
export function authInstance(change: (s: AuthSettings) => void, configChange: Partial<StackConfig> = {}) {
  const config = testConfig(configChange);
  const pool = new pg.Pool({ connectionString: stackEnv('DB_URL'), max: 4 });
  const smtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: Number(process.env.STACK_SMTP_PORT),
    secure: true,
    tls: { ca: stackCa() },
  });
  const settings = loadAuthSettings(config);
  change(settings);
  const handler = createAuthService(
    {
      config,
      pool,
      log: () => undefined,
      sendMail: async (m) => void (await smtp.sendMail({ from: 'Supabase Auth <noreply@localhost>', ...m })),
    },
    settings,
  );
  const server = http.createServer(
    (req, res) => void handler(req, res, (req.url ?? '/').replace(/^\/auth\/v1/, '')),
  );
  const listening = new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** The instance's address (the equivalent of {API_URL}/auth/v1). */
    async url() {
      await listening;
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async client() {
      await listening;
      return createClient(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        stackEnv('ANON_KEY'),
        {
          auth: { persistSession: false, autoRefreshToken: false },
          realtime: { transport: WebSocket as never },
        },
      );
    },
    async close() {
      await listening;
      await new Promise((resolve) => server.close(resolve));
      smtp.close();
      await pool.end();
    },
  };
}

/**
 * The structure of an answer without its values: every key and the type of every value, recursively.
 * Two answers for an existing and a new address must have the same shape.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  return value === null ? 'null' : typeof value;
}
