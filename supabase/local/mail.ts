/**
 * The mail sink of the local stack, standing in for the Mailpit that `supabase start` runs: an SMTP
 * server that keeps every message, a page that lists and shows them, and Mailpit's JSON API
 * (`GET /api/v1/messages`, `GET /api/v1/message/{ID}`, `GET /api/v1/search?query=`, `DELETE /api/v1/messages`).
 */
import http from 'node:http';
import crypto from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import nodemailer from 'nodemailer';
import type { StackConfig } from './config.ts';
import { readBody, sendJson } from './http.ts';
import { stackTls } from './tls.ts';
import { createSmsSink, type SmsSink } from './sms.ts';

interface Address {
  Name: string;
  Address: string;
}

export interface StoredMessage {
  ID: string;
  MessageID: string;
  Read: boolean;
  From: Address;
  To: Address[];
  Cc: Address[];
  Bcc: Address[];
  ReplyTo: Address[];
  Subject: string;
  Created: string;
  Text: string;
  HTML: string;
  Size: number;
}

function addresses(a: AddressObject | AddressObject[] | undefined): Address[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((o) => o.value.map((v) => ({ Name: v.name ?? '', Address: v.address ?? '' })));
}

function summary(m: StoredMessage) {
  const { Text, HTML: _html, ...rest } = m;
  return { ...rest, Tags: [], Attachments: 0, Snippet: Text.replace(/\s+/g, ' ').trim().slice(0, 250) };
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface MailSink {
  messages: StoredMessage[];
  /** The PEM file the functions' Deno trusts the sink's certificate with (DENO_CERT). */
  denoCertFile: string;
  /** The SMS sink served beside it (sms.ts). */
  sms: SmsSink;
  send(message: { to: string; subject: string; html: string; text?: string; from?: string }): Promise<void>;
  stop(): Promise<void>;
}

export async function startMailSink(config: StackConfig, log: (line: string) => void): Promise<MailSink> {
  const messages: StoredMessage[] = [];
  // SMTP with implicit TLS, as hosted functions must send it (ports 25 and 587 are refused there).
  const tls = stackTls(config.dataDir);
  const sms = createSmsSink(log, config.verbose);

  const smtp = new SMTPServer({
    secure: true,
    key: tls.key,
    cert: tls.cert,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const from = addresses(parsed.from)[0] ?? {
            Name: '',
            Address: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          };
          const text = parsed.text ?? '';
          const html = typeof parsed.html === 'string' ? parsed.html : '';
          messages.unshift({
            ID: crypto.randomBytes(11).toString('base64url'),
            MessageID: parsed.messageId ?? '',
            Read: false,
            From: from,
            To: addresses(parsed.to).length
              ? addresses(parsed.to)
              : session.envelope.rcptTo.map((r) => ({ Name: '', Address: r.address })),
            Cc: addresses(parsed.cc),
            Bcc: addresses(parsed.bcc),
            ReplyTo: addresses(parsed.replyTo),
            Subject: parsed.subject ?? '',
            Created: (parsed.date ?? new Date()).toISOString(),
            Text: text,
            HTML: html,
            Size: text.length + html.length,
          });
          if (config.verbose)
            log(`[mail] ${parsed.subject ?? ''} -> ${messages[0].To.map((t) => t.Address).join(', ')}`);
          callback();
        })
        .catch((e) => callback(e as Error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.on('error', () => undefined);
    smtp.server.once('error', reject);
    smtp.listen(config.smtpPort, config.host, () => resolve());
  });

  const web = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const p = url.pathname;
    if (await sms.handle(req, res, url)) return;
    if (req.method === 'GET' && p === '/api/v1/messages') {
      const start = Number(url.searchParams.get('start') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const page = messages.slice(start, start + limit);
      return sendJson(res, 200, {
        total: messages.length,
        unread: messages.filter((m) => !m.Read).length,
        count: page.length,
        messages_count: messages.length,
        start,
        tags: [],
        messages: page.map(summary),
      });
    }
    if (req.method === 'GET' && p === '/api/v1/search') {
      // Supports Mailpit's `to:address`, `subject:"text"` and plain words.
      const query = (url.searchParams.get('query') ?? '').trim();
      const terms = query.match(/(\w+:"[^"]*"|\w+:\S+|"[^"]*"|\S+)/g) ?? [];
      const found = messages.filter((m) =>
        terms.every((t) => {
          const [, field, value] = /^(?:(\w+):)?"?(.*?)"?$/.exec(t) ?? [];
          const v = (value ?? '').toLowerCase();
          if (field === 'to') return m.To.some((a) => a.Address.toLowerCase().includes(v));
          if (field === 'from') return m.From.Address.toLowerCase().includes(v);
          if (field === 'subject') return m.Subject.toLowerCase().includes(v);
          return (m.Subject + m.Text + m.HTML).toLowerCase().includes(v);
        }),
      );
      return sendJson(res, 200, {
        total: messages.length,
        unread: 0,
        count: found.length,
        messages_count: found.length,
        start: 0,
        tags: [],
        messages: found.map(summary),
      });
    }
    const one = /^\/api\/v1\/message\/([^/]+)$/.exec(p);
    if (req.method === 'GET' && one) {
      const m = messages.find((x) => x.ID === one[1] || (one[1] === 'latest' && x === messages[0]));
      if (!m) return sendJson(res, 404, 'message not found');
      m.Read = true;
      return sendJson(res, 200, {
        ...m,
        ReturnPath: m.From.Address,
        Date: m.Created,
        Tags: [],
        Inline: [],
        Attachments: [],
      });
    }
    if (req.method === 'DELETE' && p === '/api/v1/messages') {
      const body = await readBody(req).catch(() => Buffer.alloc(0));
      let ids: string[] | undefined;
      try {
        ids = body.length ? (JSON.parse(body.toString()) as { IDs?: string[] }).IDs : undefined;
      } catch {
        return sendJson(res, 400, 'invalid JSON');
      }
      if (ids && ids.length) {
        for (const id of ids) {
          const i = messages.findIndex((m) => m.ID === id);
          if (i >= 0) messages.splice(i, 1);
        }
      } else messages.length = 0;
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('ok');
    }
    const view = /^\/view\/([^/]+)$/.exec(p);
    if (req.method === 'GET' && view) {
      const m = messages.find((x) => x.ID === view[1]);
      if (!m) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('Message not found');
      }
      m.Read = true;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><meta charset="utf-8"><title>${escapeHtml(m.Subject)}</title>` +
          `<p><a href="/">All messages</a></p><h1>${escapeHtml(m.Subject)}</h1>` +
          `<p>From ${escapeHtml(m.From.Address)} to ${escapeHtml(m.To.map((t) => t.Address).join(', '))}, ${escapeHtml(m.Created)}</p>` +
          // The message's own HTML is shown sandboxed so its scripts and links cannot act on this page.
          `<iframe sandbox style="width:100%;height:70vh;border:1px solid #ccc" srcdoc="${escapeHtml(m.HTML || `<pre>${escapeHtml(m.Text)}</pre>`)}"></iframe>`,
      );
    }
    if (req.method === 'GET' && p === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const rows = messages
        .map(
          (m) =>
            `<tr><td>${m.Read ? '' : '&#9679;'}</td><td>${escapeHtml(m.To.map((t) => t.Address).join(', '))}</td><td><a href="/view/${m.ID}">${escapeHtml(m.Subject || '(no subject)')}</a></td><td>${escapeHtml(m.Created)}</td></tr>`,
        )
        .join('');
      return res.end(
        `<!doctype html><meta charset="utf-8"><title>Local mail</title><style>body{font-family:sans-serif;margin:2rem}td,th{padding:.3rem .8rem;text-align:left}</style>` +
          `<h1>Local mail (${messages.length})</h1><p>Every e-mail the local stack sends lands here; nothing leaves this machine.</p>` +
          `<table><tr><th></th><th>To</th><th>Subject</th><th>Received</th></tr>${rows || '<tr><td colspan=4>No messages yet</td></tr>'}</table>`,
      );
    }
    sendJson(res, 404, 'not found');
  });
  await new Promise<void>((resolve, reject) => {
    web.once('error', reject);
    web.listen(config.mailPort, config.host, () => resolve());
  });

  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.smtpPort,
    secure: true,
    tls: { ca: tls.ca },
  });

  return {
    messages,
    denoCertFile: tls.denoCertFile,
    sms,
    async send({ to, subject, html, text, from }) {
      await transport.sendMail({
        from: from ?? config.project?.mailFrom ?? 'Supabase Auth <noreply@localhost>',
        to,
        subject,
        html,
        text,
      });
    },
    async stop() {
      transport.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => {
        web.close(() => resolve());
        web.closeAllConnections();
      });
    },
  };
}
