/**
 * Who a REST request runs as, decided as PostgREST decides it: the bearer token (Authorization, else
 * the gateway's apikey) verified with the stack's secret and 30 seconds of clock skew, its `role`
 * claim (anon without a token), and PostgREST's JWT error codes and texts. Verified tokens are kept so
 * that a client's repeated requests skip the HMAC; a kept token still expires.
 */
import type { IncomingMessage } from 'node:http';
import type pg from 'pg';
import { JwtError, bearerToken, verifyToken } from '../jwt.ts';
import { RestError } from './errors.ts';

export interface Auth {
  claims: Record<string, unknown>;
  /** `claims` as JSON, kept with a verified token so that repeated requests do not serialize it again. */
  claimsJson: string;
  role: string;
  /** False for anon: PostgREST answers 401 rather than 403 for its permission errors. */
  authed: boolean;
}

export const ANONYMOUS: Auth = Object.freeze({
  claims: Object.freeze({ role: 'anon' }),
  claimsJson: '{"role":"anon"}',
  role: 'anon',
  authed: false,
});

/** PostgREST allows 30 seconds of clock skew on `exp`, `nbf` and `iat`. */
const CLOCK_SKEW = 30;
const MAX_TOKENS = 10_000;

function jwtError(code: 'PGRST301' | 'PGRST303', message: string): RestError {
  return new RestError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}

function authOf(claims: Record<string, unknown>, claimsJson: string): Auth {
  const role = typeof claims.role === 'string' && claims.role ? claims.role : 'anon';
  return { claims, claimsJson, role, authed: role !== 'anon' };
}

/** PostgREST's words for each way a token fails. */
function refusal(e: JwtError): RestError {
  switch (e.reason) {
    case 'expired':
      return jwtError('PGRST303', 'JWT expired');
    case 'not-yet-valid':
      return jwtError('PGRST303', 'JWT not yet valid');
    case 'issued-in-future':
    case 'claims':
      return jwtError('PGRST303', 'JWT issued at future');
    case 'header':
      return jwtError('PGRST301', "JWT couldn't be decoded");
    case 'algorithm':
      return jwtError('PGRST301', 'Wrong or unsupported encoding algorithm');
    default:
      return jwtError('PGRST301', 'JWT cryptographic operation failed');
  }
}

export class RestAuthenticator {
  private tokens = new Map<string, Auth>();

  /** The caller as the request's JWT says. */
  async authenticate(req: IncomingMessage): Promise<Auth> {
    const header = req.headers['authorization'];
    const bare = typeof header === 'string' ? header.trim() : '';
    if (bare.length === 6 && bare.toLowerCase() === 'bearer')
      throw jwtError('PGRST301', 'Empty JWT is sent in Authorization header');
    const token = bearerToken(req.headers);
    if (!token) return ANONYMOUS;
    const known = this.tokens.get(token);
    if (known) {
      const exp = known.claims.exp;
      if (typeof exp !== 'number' || exp + CLOCK_SKEW >= Math.floor(Date.now() / 1000)) return known;
      this.tokens.delete(token);
      throw jwtError('PGRST303', 'JWT expired');
    }
    const parts = token.split('.').length;
    if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`);
    let claims: Record<string, unknown>;
    try {
      claims = await verifyToken(token, CLOCK_SKEW);
    } catch (e) {
      throw e instanceof JwtError ? refusal(e) : e;
    }
    if (this.tokens.size > MAX_TOKENS) this.tokens.clear();
    const auth = authOf(claims, JSON.stringify(claims));
    this.tokens.set(token, auth);
    return auth;
  }

  /**
   * A JWT naming a role `authenticator` may not switch to fails as PostgREST's SET ROLE fails: a role that
   * does not exist with 22023 (401), any other with 42501 (403 for a signed-in caller, 401 for anon).
   */
  async refuseRole(pool: pg.Pool, auth: Auth): Promise<never> {
    const { rowCount } = await pool.query('select 1 from pg_catalog.pg_roles where rolname = $1', [
      auth.role,
    ]);
    if (!rowCount)
      throw new RestError(401, '22023', `role "${auth.role}" does not exist`, null, null, {
        'www-authenticate': 'Bearer',
      });
    throw new RestError(auth.authed ? 403 : 401, '42501', `permission denied to set role "${auth.role}"`);
  }
}
