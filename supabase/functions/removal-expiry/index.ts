/**
 * Scheduled job, hourly: applies the 1-week removal policy (SPEC.md section 1). Reports whose removal
 * request went 7 days without an answer from the reporter get status 'removed'
 * (public.expire_removal_requests, executable by the service role only). Supabase runs it with
 * pg_cron + pg_net; the local stack with supabase/local/scheduler.ts.
 */
import { preflight } from '../_shared/cors.ts';
import { json, toErrorResponse } from '../_shared/http.ts';
import { requireServiceRole, serviceClient } from '../_shared/service.ts';

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    requireServiceRole(req);
    const { data, error } = await serviceClient().rpc('expire_removal_requests');
    if (error) throw new Error(`expire_removal_requests failed: ${error.message}`);
    return json({ removed: data ?? 0 });
  } catch (e) {
    return toErrorResponse(e);
  }
});
