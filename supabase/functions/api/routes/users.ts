/** The signed-in user: current-user and update-user (docs/behaviour.md §7, /users/*). */
import { fileField, readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { safeImage } from '../../_shared/image.ts';
import { storeSafeImage, takeUpload } from '../../_shared/uploads.ts';
import { parseFields, updateUserSchema } from '../../_shared/schemas.ts';
import {
  callerAddress,
  clientFor,
  isAdmin,
  requireUser,
  type SupabaseClient,
  type User,
} from '../../_shared/supabase.ts';
import { requireEnv, siteUrl } from '../../_shared/env.ts';
import { dbError } from '../db.ts';
import { publicUrl } from '../present.ts';
import type { TablesUpdate } from '../../_shared/database.ts';
import type { RouteContext } from '../router.ts';

/** The user as the legacy client knows it: name, email, avatar (a URL) and role. */
export async function userOut(client: SupabaseClient, user: User) {
  const { data, error } = await client
    .from('profiles')
    .select('name, email, avatar_path')
    .eq('id', user.id)
    .maybeSingle();
  if (error) throw dbError(error, 'read your profile');
  return {
    _id: user.id,
    name: data?.name ?? '',
    email: user.email ?? data?.email ?? '',
    avatar: publicUrl(client, 'avatars', data?.avatar_path),
    role: (await isAdmin(client, user.id)) ? 'admin' : 'user',
  };
}

export async function currentUser({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  return json({ user: await userOut(clientFor(caller), caller.user) });
}

export async function updateUser({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const fields = await readFields(req);
  const input = parseFields(updateUserSchema, fields);
  const avatarFile = fileField(fields, 'avatar');
  // The upload is spent from the caller's limits before the file is decoded.
  const taken = avatarFile
    ? await takeUpload(
        { userId: caller.user.id, forwardedFor: req.headers.get('x-forwarded-for') },
        avatarFile.size,
      )
    : null;
  const avatar = avatarFile ? await safeImage(avatarFile, 'Avatar') : null;
  if (!input.name && !input.email && !avatar)
    throw new HttpError(400, 'Nothing to update: send name, email or avatar');
  const client = clientFor(caller);

  const { data: before, error: readError } = await client
    .from('profiles')
    .select('avatar_path')
    .eq('id', caller.user.id)
    .maybeSingle();
  if (readError) throw dbError(readError, 'read your profile');

  let emailChangePending = false;
  if (input.email && input.email !== caller.user.email?.toLowerCase()) {
    // Supabase sends a confirmation to the new address; the e-mail changes once it is confirmed. That
    // e-mail goes to an address the caller typed: Auth's Send Email hook (send-email) spends that
    // address's daily allowance, and Auth answers 429 past it, passed on below.
    const res = await fetch(
      `${requireEnv('SUPABASE_URL')}/auth/v1/user?redirect_to=${encodeURIComponent(siteUrl() + '/dashboard/profile')}`,
      {
        method: 'PUT',
        headers: {
          apikey: requireEnv('SUPABASE_ANON_KEY'),
          Authorization: `Bearer ${caller.token}`,
          'Content-Type': 'application/json',
          // Auth's per-client limit counts the caller, not this function.
          ...(callerAddress(req.headers.get('x-forwarded-for'))
            ? { 'X-Forwarded-For': callerAddress(req.headers.get('x-forwarded-for'))! }
            : {}),
        },
        body: JSON.stringify({ email: input.email }),
      },
    );
    if (!res.ok) {
      const body = await res.json().catch(() => ({}));
      throw new HttpError(
        res.status >= 500 ? 502 : res.status === 422 ? 400 : res.status,
        body.msg ?? body.message ?? 'The e-mail could not be changed',
      );
    }
    emailChangePending = true;
  }

  const patch: TablesUpdate<'profiles'> = {};
  if (input.name) patch.name = input.name;
  let uploaded: string | null = null;
  if (avatar) {
    uploaded = await storeSafeImage('avatars', caller.user.id, avatar, taken!);
    patch.avatar_path = uploaded;
  }
  if (Object.keys(patch).length) {
    const { error } = await client.from('profiles').update(patch).eq('id', caller.user.id);
    if (error) {
      if (uploaded) await client.storage.from('avatars').remove([uploaded]);
      throw dbError(error, 'update your profile');
    }
    if (uploaded && before?.avatar_path && before.avatar_path !== uploaded) {
      await client.storage.from('avatars').remove([before.avatar_path]);
    }
  }
  return json({
    msg: 'Profile updated successfully',
    user: await userOut(client, caller.user),
    emailChangePending,
  });
}
