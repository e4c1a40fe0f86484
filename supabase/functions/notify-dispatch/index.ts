/**
 * Scheduled job, every minute: e-mails the notifications the database queued (a registered identifier
 * was reported, a removal was requested, a report was moderated). Supabase runs it with pg_cron +
 * pg_net (README, "Scheduled functions"); the local stack with supabase/local/scheduler.ts. Only the
 * service-role key may run it.
 */
import { preflight } from '../_shared/cors.ts';
import { json, toErrorResponse } from '../_shared/http.ts';
import { requireServiceRole } from '../_shared/service.ts';
import { dispatchPending } from '../_shared/dispatch.ts';

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    requireServiceRole(req);
    return json(await dispatchPending());
  } catch (e) {
    return toErrorResponse(e);
  }
});
