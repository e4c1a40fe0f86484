/** JWT signing and verification with the stack's HS256 secret, as Supabase's gateway and services do. */
import { SignJWT, jwtVerify, errors } from 'jose';
import { JWT_SECRET } from './config.ts';

const secret = new TextEncoder().encode(JWT_SECRET);

export type Claims = { role: string; sub?: string; exp?: number; [key: string]: unknown };

export async function signJwt(claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret);
}

export class JwtError extends Error {
  constructor(
    message: string,
    public expired = false,
  ) {
    super(message);
  }
}

/** Verifies signature and expiry; throws JwtError with a message fit for a 401 body. */
export async function verifyJwt(token: string): Promise<Claims> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.role !== 'string') throw new JwtError('JWT has no role claim');
    return payload as Claims;
  } catch (e) {
    if (e instanceof JwtError) throw e;
    if (e instanceof errors.JWTExpired) throw new JwtError('JWT expired', true);
    throw new JwtError('Invalid JWT');
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
