/**
 * The frame of every scheduled job (notify-dispatch, removal-expiry, open-data, upload-cleanup): the
 * migrations' pg_cron jobs call it with pg_net and the service-role key from Vault. Answers the CORS
 * preflight, refuses any other caller (requireServiceRole), and answers the job's result as JSON or its
 * failure as the usual error answer. The job gets the request's JSON body (pg_net sends
 * {scheduledAt}; a job may queue its own follow-up with more).
 */
import { preflight } from './cors.ts';
import { json, toErrorResponse } from './http.ts';
import { requireServiceRole } from './service.ts';

/** The request's JSON object body ({} when it has none or it is not an object). */
async function jobBody(req: Request): Promise<Record<string, unknown>> {
  try {
    const body = JSON.parse(await req.text());
    return body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  } catch {
    return {};
  }
}

export function serveScheduledJob(run: (body: Record<string, unknown>) => Promise<unknown>): void {
  Deno.serve(async (req) => {
    const early = preflight(req);
    if (early) return early;
    try {
      requireServiceRole(req);
      return json(await run(await jobBody(req)));
    } catch (e) {
      return toErrorResponse(e);
    }
  });
}
