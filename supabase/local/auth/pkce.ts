/**
 * GoTrue's PKCE flow, used by supabase-js with `flowType: 'pkce'`: a request that carries a code challenge
 * records a flow state and marks its e-mail token with a `pkce_` prefix; the e-mail link then redirects
 * with `?code=` instead of tokens, and the client trades that code and its verifier at
 * `/token?grant_type=pkce`.
 */
import crypto from 'node:crypto';
import { badRequest, notFound, unprocessable } from './errors.ts';
import { issueSession, type AuthMethod, type ClientInfo, type TokenResponse } from './sessions.ts';
import type { AuthSettings } from './settings.ts';
import { audit, newId, type Actor, type Db } from './store.ts';

export const PKCE_PREFIX = 'pkce_';
/** GoTrue's minimum (and default) flow state lifetime. */
const FLOW_STATE_EXPIRY_MS = 300_000;

export interface Pkce {
  challenge: string;
  method: string;
}

/** validatePKCEParams: both or neither, 43 to 128 URL-safe characters. Answers undefined for the implicit flow. */
export function pkceParams(body: Record<string, unknown>): Pkce | undefined {
  const challenge = typeof body['code_challenge'] === 'string' ? body['code_challenge'] : '';
  const method = typeof body['code_challenge_method'] === 'string' ? body['code_challenge_method'] : '';
  if (!challenge !== !method)
    throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  if (!challenge) return undefined;
  if (challenge.length < 43 || challenge.length > 128) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters');
  }
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge)) {
    throw badRequest(
      'validation_failed',
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (!['s256', 'plain'].includes(method.toLowerCase()))
    throw badRequest('validation_failed', `unsupported code_challenge method "${method}"`);
  return { challenge, method: method.toLowerCase() };
}

/** The `authentication_method` of a flow state for a verification type (models.ParseAuthenticationMethod). */
export function flowMethod(type: string): AuthMethod {
  if (type.endsWith('signup')) return 'email/signup';
  if (['recovery', 'magiclink', 'invite', 'email_change'].includes(type)) return type as AuthMethod;
  throw badRequest('validation_failed', `unsupported authentication method "${type}"`);
}

/** Records a flow state; the caller prefixes the e-mail token with `pkce_`. */
export async function createFlowState(
  db: Db,
  userId: string,
  method: AuthMethod,
  pkce: Pkce,
  providerType = 'email',
) {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type,
                                  created_at, updated_at, authentication_method)
     values ($1, $2, $3, $4, $5, $6, now(), now(), $7)`,
    [newId(), userId, newId(), pkce.method, pkce.challenge, providerType, method],
  );
}

/** issueAuthCode: the code of the user's latest flow state for this method, stamped as issued. */
export async function issueAuthCode(db: Db, userId: string, method: AuthMethod): Promise<string> {
  const { rows } = await db.query<{ id: string; auth_code: string | null }>(
    `select id, auth_code from auth.flow_state where user_id = $1 and authentication_method = $2
      order by created_at desc, id desc limit 1`,
    [userId, method],
  );
  if (!rows[0]) throw unprocessable('flow_state_not_found', 'No valid flow state found for user.');
  if (!rows[0].auth_code)
    throw unprocessable('flow_state_not_found', 'Flow state does not have an auth code (not a PKCE flow).');
  await db.query('update auth.flow_state set auth_code_issued_at = now(), updated_at = now() where id = $1', [
    rows[0].id,
  ]);
  return rows[0].auth_code;
}

/** POST /token?grant_type=pkce */
export async function pkceGrant(
  db: Db,
  settings: AuthSettings,
  body: Record<string, unknown>,
  client: ClientInfo,
): Promise<TokenResponse> {
  const authCode = typeof body['auth_code'] === 'string' ? body['auth_code'] : '';
  const verifier = typeof body['code_verifier'] === 'string' ? body['code_verifier'] : '';
  if (!authCode || !verifier) {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const { rows } = await db.query<{
    id: string;
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: string;
    authentication_method: string;
    created_at: string;
    auth_code_issued_at: string | null;
  }>(
    `select id, user_id, code_challenge, code_challenge_method::text, authentication_method, created_at, auth_code_issued_at
       from auth.flow_state where auth_code = $1 for update`,
    [authCode],
  );
  const flow = rows[0];
  if (!flow || !flow.user_id)
    throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
  const from =
    flow.auth_code_issued_at && flow.authentication_method === 'magiclink'
      ? flow.auth_code_issued_at
      : flow.created_at;
  if (Date.now() > new Date(from).getTime() + FLOW_STATE_EXPIRY_MS) {
    throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
  }
  const expected =
    flow.code_challenge_method === 's256'
      ? crypto.createHash('sha256').update(verifier).digest('base64url')
      : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(flow.code_challenge ?? '');
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) {
    throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  const { rows: users } = await db.query<Actor>(
    'select id, email, phone, is_sso_user, raw_user_meta_data from auth.users where id = $1',
    [flow.user_id],
  );
  if (users[0]) await audit(db, users[0], 'login', { provider_type: 'email' });
  const session = await issueSession(
    db,
    settings,
    flow.user_id,
    flow.authentication_method as AuthMethod,
    client,
  );
  await db.query('delete from auth.flow_state where id = $1', [flow.id]);
  return session;
}
