/**
 * The auth schema as GoTrue reads and writes it: users, identities, sessions, refresh tokens, AMR claims
 * and one-time tokens. Every write runs in a transaction as `supabase_auth_admin` with `search_path = auth`,
 * the role and path GoTrue connects with on Supabase, so triggers on auth.users behave exactly as there
 * (a trigger function that is not `security definer` cannot write to public tables, for instance).
 */
import crypto from 'node:crypto';
import type pg from 'pg';
import { internal } from './errors.ts';

/** GoTrue stores every row under the nil instance id. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export type Db = pg.PoolClient;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string | null;
  updated_at: string | null;
  phone: string | null;
  phone_confirmed_at: string | null;
  phone_change: string | null;
  phone_change_sent_at: string | null;
  confirmed_at: string | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
}

/** Thrown to keep what the transaction did (revoking a token family, say) and still answer with an error. */
export class CommitThenFail extends Error {
  constructor(public error: Error) {
    super(error.message);
  }
}

/** Runs `fn` in one transaction as GoTrue's database role. */
export async function authTx<T>(pool: pg.Pool, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await pool.connect();
  try {
    // One simple query, one round trip: the transaction it begins stays open after it.
    await db.query(
      "begin; set local role supabase_auth_admin; set local search_path = auth; set local timezone = 'UTC'",
    );
    const result = await fn(db);
    await db.query('commit');
    return result;
  } catch (e) {
    if (e instanceof CommitThenFail) {
      await db.query('commit');
      throw e.error;
    }
    await db.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    db.release();
  }
}

/** Timestamps as Go's encoding/json writes time.Time (RFC 3339, UTC, trailing zeros dropped). */
export function goTime(pgTimestamp: string | null | undefined): string | undefined {
  if (!pgTimestamp) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:([+-]\d{2})(?::?(\d{2}))?|Z)?$/.exec(
    pgTimestamp,
  );
  if (m && (!m[4] || (Number(m[4]) === 0 && !Number(m[5] ?? 0)))) {
    const frac = (m[3] ?? '').replace(/0+$/, '');
    return `${m[1]}T${m[2]}${frac ? '.' + frac : ''}Z`;
  }
  return new Date(pgTimestamp).toISOString();
}

export function newId(): string {
  return crypto.randomUUID();
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, confirmation_token,
  confirmation_sent_at, recovery_token, recovery_sent_at, email_change_token_new, email_change, email_change_sent_at,
  email_change_token_current, email_change_confirm_status, last_sign_in_at, raw_app_meta_data, raw_user_meta_data,
  created_at, updated_at, phone, phone_confirmed_at, phone_change, phone_change_sent_at, confirmed_at,
  reauthentication_token, reauthentication_sent_at, banned_until, deleted_at, is_anonymous, is_sso_user`;

export async function findUserById(db: Db, id: string, forUpdate = false): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1 and instance_id = $2${forUpdate ? ' for update' : ''}`,
    [id, NIL_UUID],
  );
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string, aud: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users
      where instance_id = $1 and lower(email) = lower($2) and aud = $3 and is_sso_user = false
      order by created_at limit 1`,
    [NIL_UUID, email, aud],
  );
  return rows[0];
}

export async function identitiesOf(db: Db, userId: string): Promise<IdentityRow[]> {
  const { rows } = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
       from auth.identities where user_id = $1 order by created_at`,
    [userId],
  );
  return rows;
}

/** Updates the named columns of a user (and updated_at, as GoTrue's ORM does). */
export async function updateUser(
  db: Db,
  id: string,
  values: Partial<Record<keyof UserRow, unknown>>,
): Promise<void> {
  const keys = Object.keys(values);
  if (!keys.length) return;
  const sets = keys.map((k, i) => `${k} = $${i + 2}`).join(', ');
  await db.query(`update auth.users set ${sets}, updated_at = now() where id = $1`, [
    id,
    ...keys.map((k) => jsonParam(values[k as keyof UserRow])),
  ]);
}

function jsonParam(v: unknown): unknown {
  return v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
}

/** The user object GoTrue answers with (models.User's JSON). */
export function userJson(u: UserRow, identities: IdentityRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: u.id,
    aud: u.aud ?? '',
    role: u.role ?? '',
    email: u.email ?? '',
  };
  const opt = (key: string, v: string | null | undefined) => {
    if (v) out[key] = goTime(v);
  };
  opt('email_confirmed_at', u.email_confirmed_at);
  opt('invited_at', u.invited_at);
  out.phone = u.phone ?? '';
  opt('phone_confirmed_at', u.phone_confirmed_at);
  opt('confirmation_sent_at', u.confirmation_sent_at);
  opt('confirmed_at', u.confirmed_at);
  opt('recovery_sent_at', u.recovery_sent_at);
  if (u.email_change) out.new_email = u.email_change;
  opt('email_change_sent_at', u.email_change_sent_at);
  if (u.phone_change) out.new_phone = u.phone_change;
  opt('phone_change_sent_at', u.phone_change_sent_at);
  opt('reauthentication_sent_at', u.reauthentication_sent_at);
  opt('last_sign_in_at', u.last_sign_in_at);
  out.app_metadata = u.raw_app_meta_data ?? {};
  out.user_metadata = u.raw_user_meta_data ?? {};
  out.identities = identities.map(identityJson);
  out.created_at = goTime(u.created_at) ?? '0001-01-01T00:00:00Z';
  out.updated_at = goTime(u.updated_at) ?? '0001-01-01T00:00:00Z';
  opt('banned_until', u.banned_until);
  opt('deleted_at', u.deleted_at);
  out.is_anonymous = u.is_anonymous;
  return out;
}

export function identityJson(i: IdentityRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
  };
  if (i.last_sign_in_at) out.last_sign_in_at = goTime(i.last_sign_in_at);
  out.created_at = goTime(i.created_at) ?? '0001-01-01T00:00:00Z';
  out.updated_at = goTime(i.updated_at) ?? '0001-01-01T00:00:00Z';
  if (i.email) out.email = i.email;
  return out;
}

export async function loadUserJson(db: Db, id: string): Promise<Record<string, unknown>> {
  const u = await findUserById(db, id);
  if (!u) throw new Error(`user ${id} vanished`);
  return userJson(u, await identitiesOf(db, id));
}

export function isConfirmed(u: UserRow): boolean {
  return !!u.email_confirmed_at;
}

export function isBanned(u: UserRow): boolean {
  return !!u.banned_until && new Date(u.banned_until).getTime() > Date.now();
}

/** Inserts a user as GoTrue's signup/admin create does and returns the stored row (triggers may change it). */
export async function insertUser(
  db: Db,
  user: {
    id?: string;
    email: string | null;
    phone?: string | null;
    passwordHash: string;
    aud: string;
    role: string;
    userMetadata: Record<string, unknown>;
    appMetadata: Record<string, unknown>;
  },
): Promise<UserRow> {
  const id = user.id ?? newId();
  try {
    await db.query(
      `insert into auth.users (instance_id, id, aud, role, email, phone, encrypted_password, raw_app_meta_data,
                               raw_user_meta_data, created_at, updated_at, is_sso_user, is_anonymous)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), now(), false, false)`,
      [
        NIL_UUID,
        id,
        user.aud,
        user.role,
        user.email,
        user.phone || null,
        user.passwordHash,
        JSON.stringify(user.appMetadata),
        JSON.stringify(user.userMetadata),
      ],
    );
  } catch (e) {
    // A failing trigger on auth.users (a profile insert, say) surfaces as GoTrue's own error.
    throw Object.assign(internal('Database error saving new user'), { cause: e });
  }
  return (await findUserById(db, id))!;
}

/** The `email` identity GoTrue creates with a user; sign-up data fills fields the claims do not set. */
export async function insertEmailIdentity(
  db: Db,
  u: UserRow,
  data: Record<string, unknown> = {},
  verified = false,
): Promise<void> {
  const identityData: Record<string, unknown> = {
    sub: u.id,
    email: u.email,
    email_verified: verified,
    phone_verified: false,
  };
  for (const [k, v] of Object.entries(data)) if (!(k in identityData)) identityData[k] = v;
  await db.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, 'email', now(), now(), now())`,
    [newId(), u.id, u.id, JSON.stringify(identityData)],
  );
}

/** Merges updates into user metadata; a null value removes the key (GoTrue's UpdateUserMetaData). */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  updates: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Marks the e-mail confirmed and clears pending one-time tokens (models.User.Confirm). */
export async function confirmUser(db: Db, u: UserRow): Promise<void> {
  await db.query(
    `update auth.users set confirmation_token = '', email_confirmed_at = now(), updated_at = now(),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb
      where id = $1`,
    [u.id],
  );
  await db.query('delete from auth.one_time_tokens where user_id = $1', [u.id]);
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and provider = 'email' and lower(identity_data->>'email') = lower($2)`,
    [u.id, u.email ?? ''],
  );
}

/** Sets app_metadata.providers from the user's identities (UpdateAppMetaDataProviders). */
export async function refreshProviders(db: Db, userId: string): Promise<void> {
  await db.query(
    `update auth.users u set raw_app_meta_data = coalesce(u.raw_app_meta_data, '{}'::jsonb)
        || jsonb_build_object('providers', p.providers, 'provider', p.providers->0)
       from (select coalesce(jsonb_agg(distinct provider), '[]'::jsonb) as providers
               from auth.identities where user_id = $1) p
      where u.id = $1 and jsonb_array_length(p.providers) > 0`,
    [userId],
  );
}

export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'phone_change_token';

/** Replaces the user's one-time token of this type (models.CreateOneTimeToken). */
export async function putOneTimeToken(
  db: Db,
  userId: string,
  type: OneTimeTokenType,
  tokenHash: string,
  relatesTo: string,
) {
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [userId, type]);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, $5, now(), now())`,
    [newId(), userId, type, tokenHash, relatesTo.toLowerCase()],
  );
}

export async function findOneTimeToken(db: Db, tokenHash: string, types: OneTimeTokenType[]) {
  const { rows } = await db.query<{ user_id: string; token_type: OneTimeTokenType }>(
    'select user_id, token_type from auth.one_time_tokens where token_hash = $1 and token_type = any($2) limit 1',
    [tokenHash, types],
  );
  return rows[0];
}

export type AuditAction =
  | 'login'
  | 'logout'
  | 'user_signedup'
  | 'user_invited'
  | 'user_deleted'
  | 'user_modified'
  | 'user_recovery_requested'
  | 'user_reauthenticate_requested'
  | 'user_confirmation_requested'
  | 'user_repeated_signup'
  | 'user_updated_password'
  | 'token_revoked'
  | 'token_refreshed';

const LOG_TYPES: Record<AuditAction, string> = {
  login: 'account',
  logout: 'account',
  user_signedup: 'team',
  user_invited: 'team',
  user_deleted: 'team',
  token_revoked: 'token',
  token_refreshed: 'token',
  user_modified: 'user',
  user_recovery_requested: 'user',
  user_reauthenticate_requested: 'user',
  user_confirmation_requested: 'user',
  user_repeated_signup: 'user',
  user_updated_password: 'user',
};

/** Who did it: a user, or an admin key (whose role GoTrue logs as the username, with the nil id). */
export type Actor = Pick<UserRow, 'id' | 'email' | 'phone' | 'is_sso_user' | 'raw_user_meta_data'>;

export function adminActor(role: string): Actor {
  return { id: NIL_UUID, email: role, phone: null, is_sso_user: false, raw_user_meta_data: {} };
}

/** Appends to auth.audit_log_entries as GoTrue's NewAuditLogEntry does (the trail the dashboard shows). */
export async function audit(db: Db, actor: Actor, action: AuditAction, traits?: Record<string, unknown>) {
  const payload: Record<string, unknown> = {
    actor_id: actor.id,
    actor_via_sso: actor.is_sso_user,
    actor_username: actor.phone || actor.email || '',
    action,
    log_type: LOG_TYPES[action],
  };
  const name = actor.raw_user_meta_data?.['full_name'];
  if (name !== undefined) payload.actor_name = name;
  if (traits) payload.traits = traits;
  await db.query(
    `insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address) values ($1, $2, $3, now(), '')`,
    [NIL_UUID, newId(), JSON.stringify(payload)],
  );
}
