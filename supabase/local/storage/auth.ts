/**
 * Who is calling, as Storage's JWT plugin decides: the bearer token of the `Authorization` header,
 * verified with the stack's secret. A missing, forged or expired token is an AccessDenied error whose
 * message is the verifier's own; the few routes that also serve public buckets treat it as anonymous.
 * Signed URL tokens are made and checked here too, with the same secret, as upstream does.
 */
import type { IncomingMessage } from 'node:http';
import { SignJWT } from 'jose';
import type { RequestClaims } from '../db.ts';
import { signingKey, verifyToken } from '../jwt.ts';
import { ERRORS } from './errors.ts';

/** The roles the API may switch to; Postgres refuses any other for the `authenticator` login. */
const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export interface Caller {
  claims: RequestClaims;
  /** False when a public route let an absent or bad token through as anonymous. */
  isAuthenticated: boolean;
  /** The JWT's `sub`: recorded as the object's owner. */
  owner?: string;
  /** The raw token, which Storage exposes to SQL as `request.jwt`. */
  jwt?: string;
  /** Storage's name for the operation (`storage.object.upload`, ...), set per route by the router. */
  operation?: string;
}

export async function authenticate(req: IncomingMessage, allowInvalidJwt = false): Promise<Caller> {
  const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  if (!token && allowInvalidJwt) return { claims: { role: 'anon' }, isAuthenticated: false };
  let payload: Record<string, unknown>;
  try {
    payload = await verifyToken(token);
  } catch (e) {
    if (allowInvalidJwt) return { claims: { role: 'anon' }, isAuthenticated: false };
    throw ERRORS.accessDenied((e as Error).message);
  }
  const role = typeof payload.role === 'string' ? payload.role : '';
  if (!API_ROLES.has(role)) throw ERRORS.accessDenied(`permission denied to set role "${role}"`);
  return {
    claims: payload as RequestClaims,
    isAuthenticated: true,
    owner: typeof payload.sub === 'string' ? payload.sub : undefined,
    jwt: token,
  };
}

export type UrlScope = 'download' | 'upload';

/** A signed URL token for `bucket/key`, bound to that path and to one action (download or upload). */
export async function signObjectUrlToken(
  url: string,
  expiresIn: number,
  scope: UrlScope = 'download',
  upload?: { owner?: string; upsert: boolean },
  transformations?: string,
): Promise<string> {
  return new SignJWT({
    ...(upload ? { owner: upload.owner, upsert: upload.upsert } : {}),
    ...(transformations ? { transformations } : {}),
    url,
    scope,
  })
    .setIssuedAt()
    .setExpirationTime(`${Math.floor(expiresIn)}s`)
    .setProtectedHeader({ alg: 'HS256' })
    .sign(await signingKey());
}

export interface UrlToken {
  url: string;
  exp: number;
  owner?: string;
  upsert?: boolean;
  /** An image transformation fixed by the signer (`width:100,resize:cover`). */
  transformations?: string;
}

/**
 * Checks a signed URL token for the requested object and action. Legacy tokens without a scope count
 * as upload tokens when they carry `upsert` (only the upload flow sets it), else as download tokens,
 * so a download link can never be replayed to write.
 */
export async function verifyObjectUrlToken(token: string, url: string, scope: UrlScope): Promise<UrlToken> {
  let payload: {
    url?: unknown;
    scope?: unknown;
    owner?: unknown;
    upsert?: unknown;
    exp?: number;
    transformations?: unknown;
  };
  try {
    payload = await verifyToken(token);
  } catch (e) {
    throw ERRORS.invalidJwt((e as Error).message);
  }
  const legacyUpload = payload.scope === undefined && 'upsert' in payload;
  const scoped =
    payload.scope === scope ||
    (payload.scope === undefined && (scope === 'upload' ? legacyUpload : !legacyUpload));
  if (!scoped) throw ERRORS.invalidSignature(`Token is not scoped for ${scope}`);
  if (payload.url !== url) throw ERRORS.invalidSignature();
  if (!payload.exp || payload.exp * 1000 < Date.now()) throw ERRORS.expiredSignature();
  return {
    url: payload.url,
    exp: payload.exp,
    owner: typeof payload.owner === 'string' ? payload.owner : undefined,
    upsert: payload.upsert === true,
    transformations: typeof payload.transformations === 'string' ? payload.transformations : undefined,
  };
}
