/**
 * The frame of every scheduled job (notify-dispatch, removal-expiry, open-data, upload-cleanup): the
 * migrations' pg_cron jobs call it with pg_net and the service-role key from Vault. Answers the CORS
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
