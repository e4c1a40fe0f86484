/** Site-wide counters for admins (docs/behaviour.md §7, GET /users/admin/app-stats). */
import { HttpError, json } from '../../_shared/http.ts';
import { clientFor, requireUser } from '../../_shared/supabase.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';

export async function appStats({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const { data, error } = await clientFor(caller).rpc('admin_app_stats');
  if (error?.code === '42501') throw new HttpError(403, 'You are not authorized to view this page');
  if (error) throw dbError(error, 'read the counters');
  return json(data);
}
