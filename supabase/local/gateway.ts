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
}

/** Handles one request; `subPath` is the path (with query string) after the service prefix. */
export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, subPath: string) => Promise<void>;

export interface Gateway {
  server: http.Server;
  close(): Promise<void>;
}

const RESPONSE_CORS = ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'];

export async function startGateway(
  config: StackConfig,
  services: Record<string, ServiceHandler>,
  log: (line: string) => void,
): Promise<Gateway> {
  const prefixes = Object.keys(services).sort((a, b) => b.length - a.length);
  const server = http.createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(200, { ...CORS_HEADERS, 'content-length': '0' });
      return res.end();
    }
    // The rest of the CORS set only means something on a preflight's answer.
    for (const k of RESPONSE_CORS) res.setHeader(k, CORS_HEADERS[k]);
    const url = req.url ?? '/';
    const prefix = prefixes.find((p) => url === p || url.startsWith(p + '/') || url.startsWith(p + '?'));
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
