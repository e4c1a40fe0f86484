/**
 * JWT signing and the one verifier of the stack's HS256 tokens. Every service (REST, Auth, Storage,
 * functions) verifies through `verifyToken` and words the failure as its upstream does from the
 * `reason` it gives.
 */
import { SignJWT, jwtVerify, decodeProtectedHeader, errors } from 'jose';
import { JWT_SECRET } from './config.ts';

/**
 * The stack's HS256 key, imported once: given the secret's bytes, jose imports them into a key on every
 * sign and verify, a cost each signed URL and each first sight of a token paid again.
 */
const key = crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(JWT_SECRET),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['sign', 'verify'],
);

/** The key tokens of the stack are signed with (for Storage's signed URLs). */
export function signingKey(): Promise<CryptoKey> {
  return key;
}

export type Claims = { role: string; sub?: string; exp?: number; [key: string]: unknown };

export async function signJwt(claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(await key);
}

/** Why a token was refused. */
export type JwtFailure =
  | 'header' // the protected header does not decode
  | 'algorithm' // signed with something other than HS256
  | 'signature' // the HMAC does not match
  | 'expired' // `exp` is past
  | 'not-yet-valid' // `nbf` is ahead
  | 'issued-in-future' // `iat` is ahead
  | 'claims' // another claim check failed
  | 'malformed'; // anything else jose refuses (a payload that is not JSON, a compact form that is not three parts)

export class JwtError extends Error {
  constructor(
    public reason: JwtFailure,
    /** jose's own message, which Storage passes on as is. */
    message: string,
  ) {
    super(message);
  }
}

/**
 * Tokens whose signature, header and claim types verified, with their payload. A request's token reaches
 * the gateway, REST, Storage and Auth in turn, and the same session comes back request after request;
 * an HMAC check gives the same answer for the same string, so only the time claims are checked again.
 * Bounded: the oldest entry goes when it is full.
 */
const verified = new Map<string, Readonly<Record<string, unknown>>>();
const VERIFIED_MAX = 5000;

function remember(token: string, payload: Record<string, unknown>) {
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, Object.freeze({ ...payload }));
}

/**
 * jose's time checks (which jwtVerify ran when the token was first verified): `nbf` not ahead and `exp`
 * not past, each with the tolerance in seconds. A token that fails them goes through jwtVerify again,
 * which words the refusal.
 */
function timely(payload: Readonly<Record<string, unknown>>, clockTolerance: number): boolean {
  const now = Math.floor(Date.now() / 1000);
  const { nbf, exp } = payload;
  if (typeof nbf === 'number' && nbf > now + clockTolerance) return false;
  if (typeof exp === 'number' && exp <= now - clockTolerance) return false;
  return true;
}

/**
 * Verifies an HS256 token with the stack's secret and returns its payload, or throws a JwtError saying
 * why not. `clockTolerance` is the skew in seconds allowed on `exp`, `nbf` and `iat` (PostgREST allows
 * 30; GoTrue and Storage none).
 */
export async function verifyToken(token: string, clockTolerance = 0): Promise<Record<string, unknown>> {
  const known = verified.get(token);
  if (known && timely(known, clockTolerance)) return { ...known };
  try {
    const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'], clockTolerance });
    remember(token, payload as Record<string, unknown>);
    return payload as Record<string, unknown>;
  } catch (e) {
    const message = (e as Error).message;
    if (e instanceof errors.JWTExpired) throw new JwtError('expired', message);
    if (e instanceof errors.JWTClaimValidationFailed)
      throw new JwtError(
        e.claim === 'nbf' ? 'not-yet-valid' : e.claim === 'iat' ? 'issued-in-future' : 'claims',
        message,
      );
    if (e instanceof errors.JOSEAlgNotAllowed) throw new JwtError('algorithm', message);
    if (e instanceof errors.JWSSignatureVerificationFailed) throw new JwtError('signature', message);
    try {
      decodeProtectedHeader(token);
    } catch {
      throw new JwtError('header', message);
    }
    throw new JwtError('malformed', message);
  }
}

/** The bearer token of a request: Authorization first, then the apikey header, as Kong and PostgREST read them. */
export function bearerToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers['authorization'];
  const value = Array.isArray(auth) ? auth[0] : auth;
  if (value && /^bearer\s+/i.test(value)) return value.replace(/^bearer\s+/i, '').trim();
  const apikey = headers['apikey'];
  return (Array.isArray(apikey) ? apikey[0] : apikey) || undefined;
}
