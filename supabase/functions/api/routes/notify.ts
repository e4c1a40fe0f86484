/** Notify Me registrations (docs/behaviour.md §7, POST /notify): one row per identifier, canonical in the DB. */
import { readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { notifySchema, parseFields, uuidSchema } from '../../_shared/schemas.ts';
import { clientFor, requireUser } from '../../_shared/supabase.ts';
import { filledByDatabase } from '../../_shared/database.ts';
import { dbError } from '../db.ts';
import { canonicalIdentifierAuto } from '../../_shared/canonical.ts';
import type { RouteContext } from '../router.ts';

export async function postNotify({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const { assetName } = parseFields(notifySchema, await readFields(req));
  const unusable = assetName.find((asset) => !canonicalIdentifierAuto(asset));
  if (unusable)
    throw new HttpError(400, `"${unusable}" is not a number, e-mail, website or wallet we can watch`);
  const client = clientFor(caller);
  const saved: string[] = [];
  for (const asset of assetName) {
    const { error } = await client.from('notify_registrations').insert(
      filledByDatabase<'notify_registrations', 'identifier_canonical' | 'identifier_kind'>({
        user_id: caller.user.id,
        asset_name: asset,
      }),
    );
    // 23505: this identifier (in canonical form) is registered already, which is what the user wants.
    if (error && error.code !== '23505') throw dbError(error, `register ${asset}`);
    saved.push(asset);
  }
  return json({ msg: 'Saved Sucessfully', assets: saved }, 201);
}

export async function listNotify({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const { data, error } = await clientFor(caller)
    .from('notify_registrations')
    .select('id, asset_name, identifier_kind, identifier_canonical, created_at')
    .order('created_at', { ascending: false });
  if (error) throw dbError(error, 'list your registrations');
  return json({
    assets: (data ?? []).map((r) => ({
      _id: r.id,
      assetName: r.asset_name,
      kind: r.identifier_kind,
      canonical: r.identifier_canonical,
      createdAt: r.created_at,
    })),
  });
}

export async function deleteNotify({ req, params }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  if (!uuidSchema.safeParse(params.id).success)
    throw new HttpError(404, `No registration with id ${params.id}`);
  const { data, error } = await clientFor(caller)
    .from('notify_registrations')
    .delete()
    .eq('id', params.id)
    .select('id');
  if (error) throw dbError(error, 'delete this registration');
  if (!data?.length) throw new HttpError(404, `No registration with id ${params.id}`);
  return json({ msg: 'Deleted Sucessfully' });
}
