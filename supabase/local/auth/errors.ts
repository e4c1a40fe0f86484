/**
 * GoTrue's error answers. Clients that send `X-Supabase-Api-Version: 2024-01-01` (supabase-js v2 does)
 * get `{code, message}` with the version echoed back; older clients get `{code: <status>, error_code, msg}`.
 * Both carry the `x-sb-error-code` header.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

export const API_VERSION_HEADER = 'x-supabase-api-version';
const API_VERSION_2024 = Date.parse('2024-01-01T00:00:00Z');

export class AuthError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    /** Extra top-level fields (weak_password reasons). */
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** OAuth-style errors (`{error, error_description}`), which GoTrue answers with status 400. */
export class OAuthError extends Error {
  constructor(
    public error: string,
    public description: string,
  ) {
    super(description);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const notFound = (code: string, message: string) => new AuthError(404, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const tooManyRequests = (code: string, message: string) => new AuthError(429, code, message);
export const internal = (message: string) => new AuthError(500, 'unexpected_failure', message);

/** True when the request asked for the 2024-01-01 API (a valid date on or after it). */
export function usesApi2024(req: IncomingMessage): boolean {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && t >= API_VERSION_2024;
}

export function sendAuthError(req: IncomingMessage, res: ServerResponse, e: AuthError | OAuthError) {
  if (e instanceof OAuthError)
    return sendJson(res, 400, { error: e.error, error_description: e.description });
  const headers: Record<string, string> = { 'x-sb-error-code': e.code };
  if (usesApi2024(req)) {
    headers[API_VERSION_HEADER] = '2024-01-01';
    return sendJson(res, e.status, { code: e.code, message: e.message, ...e.extra }, headers);
  }
  return sendJson(res, e.status, { code: e.status, error_code: e.code, msg: e.message, ...e.extra }, headers);
}
