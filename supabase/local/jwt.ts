/**
 * JWT signing and the one verifier of the stack's HS256 tokens. Every service (REST, Auth, Storage,
 * functions) verifies through `verifyToken` and words the failure as its upstream does from the
 * `reason` it gives.
 */
import { SignJWT, jwtVerify, decodeProtectedHeader, errors } from 'jose';
import { JWT_SECRET } from './config.ts';

const secret = new TextEncoder().encode(JWT_SECRET);

export type Claims = { role: string; sub?: string; exp?: number; [key: string]: unknown };

export async function signJwt(claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
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
 * Verifies an HS256 token with the stack's secret and returns its payload, or throws a JwtError saying
 * why not. `clockTolerance` is the skew in seconds allowed on `exp`, `nbf` and `iat` (PostgREST allows
 * 30; GoTrue and Storage none).
 */
export async function verifyToken(token: string, clockTolerance = 0): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], clockTolerance });
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
