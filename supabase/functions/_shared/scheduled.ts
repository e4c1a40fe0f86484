/**
 * The frame of every scheduled job (notify-dispatch, removal-expiry, open-data): pg_cron + pg_net on
 * Supabase, supabase/local/scheduler.ts locally, call it with the service-role key. Answers the CORS
 * preflight, refuses any other caller (requireServiceRole), and answers the job's result as JSON or its
 * failure as the usual error answer.
 */
import { preflight } from './cors.ts';
import { json, toErrorResponse } from './http.ts';
import { requireServiceRole } from './service.ts';

export function serveScheduledJob(run: () => Promise<unknown>): void {
  Deno.serve(async (req) => {
    const early = preflight(req);
    if (early) return early;
    try {
      requireServiceRole(req);
      return json(await run());
    } catch (e) {
      return toErrorResponse(e);
    }
  });
}
