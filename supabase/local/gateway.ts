/**
 * The API gateway of the local stack, standing in for Supabase's Kong: one HTTP server that answers
 * CORS preflights and sends `/auth/v1`, `/rest/v1`, `/storage/v1` and `/functions/v1` to their service.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type pg from 'pg';
import { CORS_HEADERS, HttpError, sendJson } from './http.ts';
import type { StackConfig } from './config.ts';

/** What every service gets: the stack's settings, a superuser pool, the log and the SMTP sender. */
export interface ServiceContext {
  config: StackConfig;
  pool: pg.Pool;
  log: (line: string) => void;
  sendMail: (message: { to: string; subject: string; html: string; text?: string }) => Promise<void>;
  /** Text messages (the local Auth's phone codes) go to the SMS sink (sms.ts). */
  sendSms?: (message: { to: string; body: string }) => Promise<void>;
}

/** Handles one request; `subPath` is the path (with query string) after the service prefix. */
export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, subPath: string) => Promise<void>;

export interface Gateway {
  server: http.Server;
  close(): Promise<void>;
}

/** The part of the CORS set that every answer carries (the rest only means something on a preflight's answer). */
const RESPONSE_CORS: Record<string, string> = Object.fromEntries(
  ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'].map(
    (k) => [k, CORS_HEADERS[k]],
  ),
);

/**
 * A response that adds the CORS headers when its head is written. Given with the head (as the services
 * do), they join that object, which Node writes straight out; setting them on every response beforehand
 * would send each answer down Node's slower path that merges set headers one at a time.
 */
class CorsResponse extends http.ServerResponse {
  override writeHead(status: number, reason?: unknown, headers?: unknown): this {
    const write = super.writeHead as (status: number, reason?: unknown, headers?: unknown) => this;
    const given = headers === undefined && typeof reason === 'object' ? reason : headers;
    if (given && typeof given === 'object' && !Array.isArray(given)) {
      // The services hand over objects of their own; what they set themselves wins.
      const h = given as http.OutgoingHttpHeaders;
      for (const k in RESPONSE_CORS) if (h[k] === undefined) h[k] = RESPONSE_CORS[k];
    } else {
      for (const k in RESPONSE_CORS) if (!this.hasHeader(k)) this.setHeader(k, RESPONSE_CORS[k]);
    }
    return write.call(this, status, reason, headers);
  }
}

export async function startGateway(
  config: StackConfig,
  services: Record<string, ServiceHandler>,
  log: (line: string) => void,
): Promise<Gateway> {
  // Longest first; a prefix matches alone or before '/' or '?'.
  const prefixes = Object.keys(services).sort((a, b) => b.length - a.length);
  const route = (url: string) => {
    for (const p of prefixes) {
      if (url.startsWith(p)) {
        const next = url.charCodeAt(p.length);
        if (Number.isNaN(next) || next === 47 || next === 63) return p;
      }
    }
    return undefined;
  };
  const server = http.createServer({ ServerResponse: CorsResponse }, async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { ...CORS_HEADERS, 'content-length': '0' });
      return res.end();
    }
    const url = req.url ?? '/';
    const prefix = route(url);
    if (!prefix) return sendJson(res, 404, { message: 'no Route matched with those values' });
    try {
      await services[prefix](req, res, url.slice(prefix.length) || '/');
    } catch (e) {
      if (res.headersSent) return void res.end();
      if (e instanceof HttpError) return sendJson(res, e.status, e.body, e.headers);
      log(`[gateway] ${req.method} ${url}: ${(e as Error).stack ?? e}`);
      sendJson(res, 500, { message: 'An unexpected error occurred' });
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.apiPort, config.host, () => resolve());
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
