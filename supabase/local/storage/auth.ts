/**
 * Who is calling, as Storage's JWT plugin decides: the bearer token of the `Authorization` header,
 * verified with the stack's secret. A missing, forged or expired token is an AccessDenied error whose
 * message is the verifier's own; the few routes that also serve public buckets treat it as anonymous.
 * Signed URL tokens are made and checked here too, with the same secret, as upstream does.
 */
import type { IncomingMessage } from 'node:http';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { JWT_SECRET } from '../config.ts';
import type { RequestClaims } from '../db.ts';
import { ERRORS } from './errors.ts';

const secret = new TextEncoder().encode(JWT_SECRET);

/** The roles the API may switch to; Postgres refuses any other for the `authenticator` login. */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export interface Caller {
  claims: RequestClaims;
  /** False when a public route let an absent or bad token through as anonymous. */
  isAuthenticated: boolean;
  /** The JWT's `sub`: recorded as the object's owner. */
  owner?: string;
}

const ANONYMOUS: Caller = { claims: { role: 'anon' }, isAuthenticated: false };

export async function authenticate(req: IncomingMessage, allowInvalidJwt = false): Promise<Caller> {
  const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  if (!token && allowInvalidJwt) return ANONYMOUS;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }));
  } catch (e) {
    if (allowInvalidJwt) return ANONYMOUS;
    throw ERRORS.accessDenied((e as Error).message);
  }
  const role = typeof payload.role === 'string' ? payload.role : '';
  if (!API_ROLES.has(role)) throw ERRORS.accessDenied(`permission denied to set role "${role}"`);
  return {
    claims: payload as RequestClaims,
    isAuthenticated: true,
    owner: typeof payload.sub === 'string' ? payload.sub : undefined,
  };
}

/** A download token for `bucket/key`, bound to that path and to downloading. */
export async function signObjectUrlToken(url: string, expiresIn: number): Promise<string> {
  return new SignJWT({ url, scope: 'download' })
    .setIssuedAt()
    .setExpirationTime(`${Math.floor(expiresIn)}s`)
    .setProtectedHeader({ alg: 'HS256' })
    .sign(secret);
}

/** Checks a signed URL token for the requested object; returns its expiry (seconds since epoch). */
export async function verifyObjectUrlToken(token: string, url: string): Promise<number> {
  let payload: JWTPayload & { url?: unknown; scope?: unknown };
  try {
    ({ payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] }));
  } catch (e) {
    throw ERRORS.invalidJwt((e as Error).message);
  }
  // Upload tokens carry `upsert`; only download-scoped (or legacy download) tokens may read.
  const downloadScoped = payload.scope === 'download' || (payload.scope === undefined && !('upsert' in payload));
  if (!downloadScoped) throw ERRORS.invalidSignature('Token is not scoped for download');
  if (payload.url !== url) throw ERRORS.invalidSignature();
  if (!payload.exp || payload.exp * 1000 < Date.now()) throw ERRORS.expiredSignature();
  return payload.exp;
}
