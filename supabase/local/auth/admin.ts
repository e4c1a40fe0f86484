/**
 * GoTrue's admin API (`supabase.auth.admin.*`), open only to tokens with an admin role (service_role):
 * list, create, read, update and delete users, and generate e-mail links without sending them.
 */
import { sendJson } from '../http.ts';
import {
  checkPassword,
  generateOtp,
  mailData,
  obj,
  referrer,
  str,
  tokenHash,
  validateEmail,
  type Auth,
  type Rq,
} from './context.ts';
import { badRequest, internal, notFound, unprocessable } from './errors.ts';
import { hashPassword, randomPassword } from './flows.ts';
import { logout } from './sessions.ts';
import {
  NIL_UUID,
  adminActor,
  audit,
  confirmUser,
  findUserByEmail,
  findUserById,
  identitiesOf,
  insertEmailIdentity,
  insertUser,
  loadUserJson,
  mergeMetadata,
  putOneTimeToken,
  updateUser,
  userJson,
  type Db,
  type UserRow,
} from './store.ts';

type Tx = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DUPLICATE_EMAIL = 'A user with this email address has already been registered';

/** Go's time.ParseDuration for ban_duration ("24h", "1h30m"; "none" lifts a ban). */
function banUntil(duration: string): string | null {
  if (duration === 'none') return null;
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let ms = 0;
  let rest = duration;
  for (const m of duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    ms += Number(m[1]) * units[m[2]];
    rest = rest.replace(m[0], '');
  }
  if (rest || !duration)
    throw badRequest(
      'validation_failed',
      `invalid format for ban duration: time: invalid duration "${duration}"`,
    );
  return new Date(Date.now() + ms).toISOString();
}

async function loadTarget(db: Db, id: string): Promise<UserRow> {
  if (!UUID_RE.test(id)) throw notFound('validation_failed', 'user_id must be an UUID');
  const user = await findUserById(db, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

/** GET /admin/users?page=&per_page= with GoTrue's Link and X-Total-Count headers. */
export async function listUsers(_auth: Auth, rq: Rq, tx: Tx) {
  const pageRaw = rq.url.searchParams.get('page') || '1';
  const perPageRaw = rq.url.searchParams.get('per_page') || '50';
  if (!/^\d+$/.test(pageRaw) || !/^\d+$/.test(perPageRaw))
    throw badRequest('validation_failed', 'Bad Pagination Parameters: invalid page or per_page');
  const page = Math.max(1, Number(pageRaw));
  const perPage = Math.min(Math.max(1, Number(perPageRaw)), 1000);
  const filter = rq.url.searchParams.get('filter') ?? '';
  const { users, total } = await tx(async (db) => {
    const like = `%${filter.replace(/[\\%_]/g, '\\$&')}%`;
    const where = `instance_id = $1 and aud = $2${filter ? " and (email ilike $3 or raw_user_meta_data->>'full_name' ilike $3)" : ''}`;
    const args: unknown[] = [NIL_UUID, rq.aud, ...(filter ? [like] : [])];
    const { rows: count } = await db.query<{ n: number }>(
      `select count(*)::int as n from auth.users where ${where}`,
      args,
    );
    const { rows } = await db.query<{ id: string }>(
      `select id from auth.users where ${where} order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`,
      args,
    );
    const list = [];
    for (const r of rows) list.push(await loadUserJson(db, r.id));
    return { users: list, total: count[0].n };
  });
  const totalPages = Math.ceil(total / perPage);
  const link = (p: number) => `</admin/users?page=${p}&per_page=${perPage}>`;
  let header = '';
  if (totalPages > page) header += `${link(page + 1)}; rel="next", `;
  header += `${link(totalPages)}; rel="last"`;
  sendJson(rq.res, 200, { users, aud: rq.aud }, { link: header, 'x-total-count': String(total) });
}

/** POST /admin/users */
export async function createUser(_auth: Auth, rq: Rq, tx: Tx) {
  const b = rq.body;
  const aud = str(b['aud']) || rq.aud;
  let email = str(b['email']);
  if (!email && !str(b['phone']))
    throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
  if (str(b['phone'])) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  email = validateEmail(email);
  if (b['password'] !== undefined && b['password'] !== null && str(b['password_hash'])) {
    throw badRequest('validation_failed', 'Only a password or a password hash should be provided');
  }
  const password = str(b['password']);
  if (Buffer.byteLength(password) > 72)
    throw badRequest('validation_failed', 'bcrypt: password length exceeds 72 bytes');
  let passwordHash = str(b['password_hash']);
  if (passwordHash && !/^\$2[aby]?\$\d\d\$/.test(passwordHash)) throw internal('Error creating user');
  if (!passwordHash) passwordHash = await hashPassword(password || randomPassword());
  const id = str(b['id']);
  if (id && !UUID_RE.test(id)) throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
  if (id === NIL_UUID) throw badRequest('validation_failed', 'ID cannot be a nil uuid');
  const ban = str(b['ban_duration']) ? banUntil(str(b['ban_duration'])) : undefined;
  const body = await tx(async (db) => {
    if (await findUserByEmail(db, email, aud)) throw unprocessable('email_exists', DUPLICATE_EMAIL);
    const user = await insertUser(db, {
      id: id || undefined,
      email,
      passwordHash,
      aud,
      role: str(b['role']) || 'authenticated',
      userMetadata: obj(b['user_metadata']) ?? {},
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    await insertEmailIdentity(db, user);
    await audit(db, adminActor(rq.adminRole ?? 'service_role'), 'user_signedup', {
      user_id: user.id,
      user_email: user.email,
      user_phone: user.phone ?? '',
      provider: 'email',
    });
    const appData = obj(b['app_metadata']);
    if (appData)
      await updateUser(db, user.id, { raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, appData) });
    if (b['email_confirm'] === true) await confirmUser(db, user);
    if (ban !== undefined) await updateUser(db, user.id, { banned_until: ban });
    return loadUserJson(db, user.id);
  });
  sendJson(rq.res, 200, body);
}

/** GET /admin/users/{id} */
export async function getUserById(_auth: Auth, rq: Rq, tx: Tx, id: string) {
  sendJson(
    rq.res,
    200,
    await tx(async (db) => userJson(await loadTarget(db, id), await identitiesOf(db, id))),
  );
}

/** PUT /admin/users/{id}: changes applied at once, without confirmation e-mails. */
export async function updateUserById(auth: Auth, rq: Rq, tx: Tx, id: string) {
  const b = rq.body;
  const email = str(b['email']) ? validateEmail(str(b['email'])) : '';
  const password = typeof b['password'] === 'string' ? (b['password'] as string) : undefined;
  if (password !== undefined) checkPassword(auth.settings, password);
  const passwordHash = password ? await hashPassword(password) : undefined;
  const ban = str(b['ban_duration']) ? banUntil(str(b['ban_duration'])) : undefined;
  const body = await tx(async (db) => {
    const user = await loadTarget(db, id);
    if (str(b['role'])) await updateUser(db, id, { role: str(b['role']) });
    if (email && email !== user.email) {
      const other = await findUserByEmail(db, email, user.aud ?? rq.aud);
      if (other && other.id !== id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
      await updateUser(db, id, { email });
      await db.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
          where user_id = $1 and provider = 'email'`,
        [id, email],
      );
    }
    if (passwordHash) {
      await updateUser(db, id, { encrypted_password: passwordHash });
      await logout(db, id, undefined, 'global');
    }
    if (b['email_confirm'] === true && !user.email_confirmed_at)
      await confirmUser(db, (await findUserById(db, id))!);
    const userData = obj(b['user_metadata']);
    if (userData)
      await updateUser(db, id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, userData) });
    const appData = obj(b['app_metadata']);
    if (appData)
      await updateUser(db, id, { raw_app_meta_data: mergeMetadata(user.raw_app_meta_data, appData) });
    // A ban keeps the sessions, as GoTrue's does; they cannot be used or refreshed until it ends.
    if (ban !== undefined) await updateUser(db, id, { banned_until: ban });
    await audit(db, adminActor(rq.adminRole ?? 'service_role'), 'user_modified', {
      user_id: id,
      user_email: user.email,
      user_phone: user.phone ?? '',
    });
    return loadUserJson(db, id);
  });
  sendJson(rq.res, 200, body);
}

/** DELETE /admin/users/{id} (should_soft_delete keeps the row, anonymised). */
export async function deleteUserById(_auth: Auth, rq: Rq, tx: Tx, id: string) {
  await tx(async (db) => {
    const user = await loadTarget(db, id);
    await audit(db, adminActor(rq.adminRole ?? 'service_role'), 'user_deleted', {
      user_id: id,
      user_email: user.email,
      user_phone: user.phone ?? '',
    });
    if (rq.body['should_soft_delete'] === true) {
      if (user.deleted_at) return;
      await db.query(
        `update auth.users set email = null, phone = null, encrypted_password = '', confirmation_token = '', recovery_token = '',
                email_change_token_current = '', email_change_token_new = '', raw_user_meta_data = '{}'::jsonb,
                raw_app_meta_data = '{}'::jsonb, deleted_at = now(), updated_at = now() where id = $1`,
        [id],
      );
      await db.query('delete from auth.identities where user_id = $1', [id]);
      await logout(db, id, undefined, 'global');
      return;
    }
    try {
      await db.query('delete from auth.users where id = $1', [id]);
    } catch (e) {
      throw Object.assign(internal('Database error deleting user'), { cause: e });
    }
  });
  sendJson(rq.res, 200, {});
}

/** POST /admin/generate_link: the link and code an e-mail would carry, for the caller to deliver. */
export async function generateLink(auth: Auth, rq: Rq, tx: Tx) {
  let type = str(rq.body['type']);
  const email = validateEmail(str(rq.body['email']));
  const data = obj(rq.body['data']) ?? {};
  const redirectTo = referrer(auth, rq);
  const otp = generateOtp(auth.settings.email.otpLength);
  const hash = tokenHash(email, otp);
  const existing = await tx((db) => findUserByEmail(db, email, rq.aud));
  if (!existing) {
    if (type === 'magiclink') type = 'signup';
    else if (['recovery', 'email_change_current', 'email_change_new'].includes(type))
      throw notFound('user_not_found', 'User with this email not found');
  }
  let password = str(rq.body['password']);
  if (type === 'signup' && !existing) {
    if (!password && str(rq.body['type']) === 'magiclink') password = randomPassword();
    if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
    checkPassword(auth.settings, password);
  }
  const passwordHash =
    !existing && (type === 'signup' || type === 'invite')
      ? await hashPassword(password || randomPassword())
      : '';
  const newEmail = str(rq.body['new_email']) ? validateEmail(str(rq.body['new_email'])) : '';
  const body = await tx(async (db) => {
    let user = existing ? (await findUserById(db, existing.id, true))! : undefined;
    const create = async () =>
      insertUser(db, {
        email,
        passwordHash,
        aud: rq.aud,
        role: 'authenticated',
        userMetadata: data,
        appMetadata: { provider: 'email', providers: ['email'] },
      }).then(async (u) => {
        await insertEmailIdentity(db, u, data);
        return u;
      });
    let linkHash = hash;
    let verificationType = type;
    switch (type) {
      case 'magiclink':
      case 'recovery':
        await updateUser(db, user!.id, { recovery_token: hash, recovery_sent_at: new Date().toISOString() });
        await putOneTimeToken(db, user!.id, 'recovery_token', hash, email);
        await audit(db, user!, 'user_recovery_requested');
        break;
      case 'invite':
        if (user?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL);
        user ??= await create();
        await audit(db, adminActor(rq.adminRole ?? 'service_role'), 'user_invited', {
          user_id: user.id,
          user_email: user.email,
        });
        await updateUser(db, user.id, {
          confirmation_token: hash,
          confirmation_sent_at: new Date().toISOString(),
          invited_at: new Date().toISOString(),
        });
        await putOneTimeToken(db, user.id, 'confirmation_token', hash, email);
        break;
      case 'signup':
        if (user?.email_confirmed_at) throw unprocessable('email_exists', DUPLICATE_EMAIL);
        if (user)
          await updateUser(db, user.id, { raw_user_meta_data: mergeMetadata(user.raw_user_meta_data, data) });
        user ??= await create();
        await updateUser(db, user.id, {
          confirmation_token: hash,
          confirmation_sent_at: new Date().toISOString(),
        });
        await putOneTimeToken(db, user.id, 'confirmation_token', hash, email);
        break;
      case 'email_change_current':
      case 'email_change_new': {
        if (type === 'email_change_current' && !auth.settings.email.doubleConfirmChanges) {
          throw badRequest(
            'validation_failed',
            'Enable secure email change to generate link for current email',
          );
        }
        if (!newEmail) throw badRequest('validation_failed', 'An email address is required');
        const other = await findUserByEmail(db, newEmail, rq.aud);
        if (other && other.id !== user!.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
        const current = type === 'email_change_current' ? hash : '';
        const next = type === 'email_change_new' ? tokenHash(newEmail, otp) : '';
        linkHash = current || next;
        await updateUser(db, user!.id, {
          email_change: newEmail,
          email_change_sent_at: new Date().toISOString(),
          email_change_confirm_status: 0,
          email_change_token_current: current,
          email_change_token_new: next,
        });
        if (current) await putOneTimeToken(db, user!.id, 'email_change_token_current', current, email);
        if (next) await putOneTimeToken(db, user!.id, 'email_change_token_new', next, newEmail);
        verificationType = type;
        break;
      }
      default:
        throw badRequest('validation_failed', `Invalid email action link type requested: ${type}`);
    }
    const linkType = type.startsWith('email_change') ? 'email_change' : type;
    const stored = (await findUserById(db, user!.id))!;
    return {
      ...userJson(stored, await identitiesOf(db, stored.id)),
      action_link: mailData(auth, stored, { otp, hash: linkHash, type: linkType, redirectTo })
        .ConfirmationURL,
      email_otp: otp,
      hashed_token: linkHash,
      verification_type: verificationType,
      redirect_to: redirectTo,
    };
  });
  sendJson(rq.res, 200, body);
}
