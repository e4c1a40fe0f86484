/**
 * The SMS sink of the local stack (issue 32): where the local Auth's phone codes go instead of an SMS
 * provider, as e-mails go to the mail sink. Served on the mail sink's port beside Mailpit's API, in the
 * same shape: `GET /api/v1/sms/messages` (newest first, `start`, `limit`), `GET /api/v1/sms/search?query=to:+63...`,
 * `GET /api/v1/sms/message/{ID|latest}`, `DELETE /api/v1/sms/messages` (all, or `{ IDs: [...] }`), and a
 * page at `/sms`.
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from './http.ts';

export interface StoredSms {
  ID: string;
  /** The number in E.164 with its +, as GoTrue hands it to a provider. */
  To: string;
  Body: string;
  Created: string;
  Read: boolean;
}

export interface SmsSink {
  messages: StoredSms[];
  send(message: { to: string; body: string }): Promise<void>;
  /** Answers the sink's routes; false when the path is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The digits of a number, so `to:+639171234567`, `to:639171234567` and `to:09171234567`'s tail all match. */
function digits(s: string) {
  return s.replace(/\D/g, '');
}

export function createSmsSink(log: (line: string) => void, verbose: boolean): SmsSink {
  const messages: StoredSms[] = [];
  const list = (found: StoredSms[], start = 0, limit = 50) => ({
    total: messages.length,
    unread: messages.filter((m) => !m.Read).length,
    count: Math.min(limit, Math.max(0, found.length - start)),
    messages_count: found.length,
    start,
    messages: found.slice(start, start + limit),
  });
  return {
    messages,
    async send({ to, body }) {
      const number = to.startsWith('+') ? to : `+${to}`;
      messages.unshift({
        ID: crypto.randomBytes(11).toString('base64url'),
        To: number,
        Body: body,
        Created: new Date().toISOString(),
        Read: false,
      });
      if (verbose) log(`[sms] -> ${number}`);
    },
    async handle(req, res, url) {
      const p = url.pathname;
      if (req.method === 'GET' && p === '/api/v1/sms/messages') {
        sendJson(
          res,
          200,
          list(
            messages,
            Number(url.searchParams.get('start') ?? 0),
            Number(url.searchParams.get('limit') ?? 50),
          ),
        );
        return true;
      }
      if (req.method === 'GET' && p === '/api/v1/sms/search') {
        const terms = (url.searchParams.get('query') ?? '').trim().split(/\s+/).filter(Boolean);
        const found = messages.filter((m) =>
          terms.every((t) => {
            const to = /^to:(.+)$/.exec(t);
            if (to) return digits(m.To) === digits(to[1]);
            return m.Body.toLowerCase().includes(t.toLowerCase());
          }),
        );
        sendJson(res, 200, list(found));
        return true;
      }
      const one = /^\/api\/v1\/sms\/message\/([^/]+)$/.exec(p);
      if (req.method === 'GET' && one) {
        const m = messages.find((x) => x.ID === one[1] || (one[1] === 'latest' && x === messages[0]));
        if (!m) sendJson(res, 404, 'message not found');
        else {
          m.Read = true;
          sendJson(res, 200, m);
        }
        return true;
      }
      if (req.method === 'DELETE' && p === '/api/v1/sms/messages') {
        const body = await readBody(req).catch(() => Buffer.alloc(0));
        let ids: string[] | undefined;
        try {
          ids = body.length ? (JSON.parse(body.toString()) as { IDs?: string[] }).IDs : undefined;
        } catch {
          sendJson(res, 400, 'invalid JSON');
          return true;
        }
        if (ids && ids.length) {
          for (const id of ids) {
            const i = messages.findIndex((m) => m.ID === id);
            if (i >= 0) messages.splice(i, 1);
          }
        } else messages.length = 0;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
        return true;
      }
      if (req.method === 'GET' && p === '/sms') {
        const rows = messages
          .map(
            (m) =>
              `<tr><td>${escapeHtml(m.To)}</td><td>${escapeHtml(m.Body)}</td><td>${escapeHtml(m.Created)}</td></tr>`,
          )
          .join('');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><meta charset="utf-8"><title>Local SMS</title><style>body{font-family:sans-serif;margin:2rem}td,th{padding:.3rem .8rem;text-align:left}</style>` +
            `<h1>Local SMS (${messages.length})</h1><p>Every text message the local stack sends lands here; nothing leaves this machine. <a href="/">E-mail</a></p>` +
            `<table><tr><th>To</th><th>Message</th><th>Received</th></tr>${rows || '<tr><td colspan=3>No messages yet</td></tr>'}</table>`,
        );
        return true;
      }
      return false;
    },
  };
}
