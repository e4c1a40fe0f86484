/**
 * Sessions, refresh tokens and access tokens as GoTrue issues them with its default (legacy) refresh
 * token algorithm: a 12-character token per rotation in auth.refresh_tokens, chained by `parent`, one
 * session per sign-in, and an HS256 access token carrying the session's AAL and AMR.
 */
import crypto from 'node:crypto';
import { signJwt } from '../jwt.ts';
import { badRequest } from './errors.ts';
import type { AuthSettings } from './settings.ts';
import {
  CommitThenFail,
  NIL_UUID,
  audit,
  findUserById,
  identitiesOf,
  isBanned,
  newId,
  userJson,
  type Db,
  type UserRow,
} from './store.ts';

export type AuthMethod =
  | 'password'
  | 'otp'
  | 'magiclink'
  | 'email/signup'
  | 'email_change'
  | 'token_refresh'
  | 'recovery'
  | 'invite';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  weak_password?: unknown;
}

export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** crypto.SecureAlphanumeric(12): the legacy refresh token format, `^[a-z0-9]{12}$`. */
function newRefreshToken(): string {
  let out = '';
  while (out.length < 12) {
    const b = crypto.randomBytes(16);
    for (const x of b) if (x < 252 && out.length < 12) out += ALNUM[x % 36];
  }
  return out;
}

/** Records that the session was authenticated with `method` (auth.mfa_amr_claims). */
async function addAmrClaim(db: Db, sessionId: string, method: AuthMethod) {
  await db.query(
    `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
     values ($1, $2, now(), now(), $3)
     on conflict (session_id, authentication_method) do update set updated_at = now()`,
    [newId(), sessionId, method],
  );
}

async function accessToken(db: Db, settings: AuthSettings, user: UserRow, sessionId: string) {
  const { rows: amr } = await db.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, extract(epoch from updated_at)::bigint as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by updated_at desc`,
    [sessionId],
  );
  const { rows } = await db.query<{ aal: string | null }>('select aal from auth.sessions where id = $1', [
    sessionId,
  ]);
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.jwtExpiry;
  const token = await signJwt({
    aud: user.aud ?? '',
    exp,
    iat,
    iss: settings.jwtIssuer,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? '',
    aal: rows[0]?.aal ?? 'aal1',
    amr: amr.map((a) => ({ method: a.method, timestamp: Number(a.timestamp) })),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  });
  return { token, exp };
}

/** Starts a session for a user who just proved who they are, and answers with its tokens. */
export async function issueSession(
  db: Db,
  settings: AuthSettings,
  userId: string,
  method: AuthMethod,
  client: ClientInfo,
): Promise<TokenResponse> {
  const sessionId = newId();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, userId, client.userAgent || null, client.ip || null],
  );
  const refresh = newRefreshToken();
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ($1, $2, $3, false, now(), now(), null, $4)`,
    [NIL_UUID, refresh, userId, sessionId],
  );
  await db.query('update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1', [userId]);
  await addAmrClaim(db, sessionId, method);
  return tokenResponse(db, settings, userId, sessionId, refresh);
}

async function tokenResponse(
  db: Db,
  settings: AuthSettings,
  userId: string,
  sessionId: string,
  refresh: string,
): Promise<TokenResponse> {
  const user = (await findUserById(db, userId))!;
  const { token, exp } = await accessToken(db, settings, user, sessionId);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: exp - Math.floor(Date.now() / 1000),
    expires_at: exp,
    refresh_token: refresh,
    user: userJson(user, await identitiesOf(db, userId)),
  };
}

interface RefreshRow {
  id: number;
  token: string;
  user_id: string;
  revoked: boolean;
  updated_at: string;
  parent: string | null;
  session_id: string | null;
  not_after: string | null;
  session_exists: boolean;
}

/**
 * The refresh_token grant with rotation and reuse detection: a revoked token is accepted only if it is the
 * parent of the session's active token (the client missed the answer; the active token is returned) or
 * within `refresh_token_reuse_interval` seconds of its revocation; any other reuse revokes every token of
 * the session, ends the session and fails with refresh_token_already_used.
 */
export async function refreshSession(
  db: Db,
  settings: AuthSettings,
  refreshToken: string,
  client: ClientInfo,
): Promise<TokenResponse> {
  const { rows } = await db.query<RefreshRow>(
    `select t.id, t.token, t.user_id, t.revoked, t.updated_at, t.parent, t.session_id, s.not_after, s.id is not null as session_exists
       from auth.refresh_tokens t left join auth.sessions s on s.id = t.session_id
      where t.instance_id = $1 and t.token = $2
      for update of t`,
    [NIL_UUID, refreshToken],
  );
  const token = rows[0];
  if (!token) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  const user = await findUserById(db, token.user_id);
  if (!user) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  if (isBanned(user)) throw badRequest('user_banned', 'Invalid Refresh Token: User Banned');
  if (!token.session_id || !token.session_exists) {
    await db.query('delete from auth.refresh_tokens where id = $1', [token.id]);
    throw new CommitThenFail(
      badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found'),
    );
  }
  if (token.not_after && new Date(token.not_after).getTime() < Date.now()) {
    throw badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
  }
  await db.query('select 1 from auth.sessions where id = $1 for update', [token.session_id]);

  let issued: string | undefined;
  if (token.revoked) {
    const { rows: active } = await db.query<{ token: string; parent: string | null }>(
      `select token, parent from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
      [token.session_id],
    );
    if (active[0] && active[0].parent === token.token) {
      issued = active[0].token;
    } else {
      const reuseUntil = new Date(token.updated_at).getTime() + settings.refreshTokenReuseInterval * 1000;
      if (Date.now() > reuseUntil) {
        if (settings.refreshTokenRotation) {
          // The whole family goes: its tokens are revoked, and the session ends so that no token of it
          // (not even the newest, revoked only now and so inside its reuse interval) refreshes again.
          await db.query(
            'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
            [token.session_id],
          );
          await db.query('update auth.sessions set not_after = now(), updated_at = now() where id = $1', [
            token.session_id,
          ]);
        }
        throw new CommitThenFail(
          badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
        );
      }
    }
  }
  await audit(db, user, 'token_refreshed');
  if (!issued) {
    await audit(db, user, 'token_revoked');
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [
      token.id,
    ]);
    issued = newRefreshToken();
    await db.query(
      `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
       values ($1, $2, $3, false, now(), now(), $4, $5)`,
      [NIL_UUID, issued, user.id, token.token, token.session_id],
    );
  }
  await db.query(
    `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now(), user_agent = $2, ip = $3 where id = $1`,
    [token.session_id, client.userAgent || null, client.ip || null],
  );
  return tokenResponse(db, settings, user.id, token.session_id, issued);
}

/** Ends sessions (their refresh tokens go with them): `local` this one, `others` all but this one, `global` all. */
export async function logout(
  db: Db,
  userId: string,
  sessionId: string | undefined,
  scope: 'global' | 'local' | 'others',
) {
  if (sessionId && scope === 'local') {
    await db.query('delete from auth.sessions where id = $1', [sessionId]);
  } else if (sessionId && scope === 'others') {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  } else {
    await db.query('delete from auth.sessions where user_id = $1', [userId]);
  }
}
