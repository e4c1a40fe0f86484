/** Visits (GET /visitor) and the contact form (POST /visitor/contact). */
import { readFields } from '../../_shared/body.ts';
import { json } from '../../_shared/http.ts';
import { contactSchema, parseFields } from '../../_shared/schemas.ts';
import { clientFor, identify, isAdmin } from '../../_shared/supabase.ts';
import { recordVisits } from '../../_shared/visits.ts';
import { dbError } from '../db.ts';
import type { TablesInsert } from '../../_shared/database.ts';
import type { RouteContext } from '../router.ts';

export async function getVisitor({ req, url }: RouteContext): Promise<Response> {
  const caller = await identify(req);
  const client = clientFor(caller);
  const visit = await recordVisits(req, caller.user?.id ?? null, [url.searchParams.get('path')]);
  // The old admin overview read its visitor totals from this call; admins still get them here.
  let stats: unknown = undefined;
  if (caller.user && (await isAdmin(client, caller.user.id))) {
    const { data, error } = await client.rpc('admin_app_stats');
    if (error) throw dbError(error, 'read the counters');
    stats = data;
  }
  return json({ msg: 'Visit recorded', ...visit, ...(stats ? { stats } : {}) });
}

export async function postContact({ req }: RouteContext): Promise<Response> {
  const caller = await identify(req);
  const input = parseFields(contactSchema, await readFields(req));
  const row: TablesInsert<'contact_messages'> = {
    nickname: input.nickname ?? null,
    email: input.email ?? null,
    subject: input.subject ?? null,
    message: input.message,
  };
  const { error } = await clientFor(caller).from('contact_messages').insert(row);
  if (error) throw dbError(error, 'send this message');
  return json({ msg: "We'll review this ASAP & we'll get back to you" }, 201);
}
