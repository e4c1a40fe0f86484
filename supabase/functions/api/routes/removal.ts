/**
 * The removal policy (docs/behaviour.md §1): the holder of a reported identifier asks for removal with a
 * reason and a contact e-mail; the database notifies the reporter, who is e-mailed at once with a link
 * to delete the report; the reporter may answer instead; an unanswered request removes the report
 * after 7 days (the `removal-expiry` job).
 */
import { readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import {
  parseFields,
  removalRequestSchema,
  removalResponseSchema,
  uuidSchema,
} from '../../_shared/schemas.ts';
import { clientFor, identify, requireUser } from '../../_shared/supabase.ts';
import { dispatchSoon } from '../../_shared/dispatch.ts';
import { dbError } from '../db.ts';
import type { RouteContext } from '../router.ts';

function requestOut(r: Record<string, unknown>) {
  return {
    _id: r.id,
    reportId: r.report_id,
    reason: r.reason,
    // Only the requester and admins read it; a reporter's view of the request has none.
    contactEmail: r.contact_email ?? null,
    status: r.status,
    reporterResponse: r.reporter_response ?? null,
    createdAt: r.created_at,
    // A reporter's rows (my_report_removal_requests) are confirmed ones and carry the deadline itself.
    contactConfirmed: r.contact_confirmed_at != null || r.answer_by != null,
    // The week runs from the confirmation of the contact address; unconfirmed requests never expire.
    expiresAt: r.answer_by
      ? new Date(String(r.answer_by)).toISOString()
      : r.contact_confirmed_at
        ? new Date(Date.parse(String(r.contact_confirmed_at)) + 7 * 86_400_000).toISOString()
        : null,
  };
}

export async function createRemovalRequest({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const input = parseFields(removalRequestSchema, await readFields(req));
  const { data, error } = await clientFor(caller)
    .from('removal_requests')
    .insert({
      report_id: input.reportId,
      requester_id: caller.user.id,
      reason: input.reason,
      contact_email: input.contactEmail,
    })
    .select()
    .single();
  if (error?.code === '23503') throw new HttpError(404, `No report with id ${input.reportId}`);
  if (error) throw dbError(error, 'request removal');
  // The confirmation link goes out with the next dispatch, now rather than at the next minute.
  dispatchSoon();
  return json(
    {
      msg: `Removal requested: confirm your contact e-mail with the link we sent to ${input.contactEmail}; the reporter is told once you do`,
      request: requestOut(data),
    },
    201,
  );
}

/** The link in the confirmation e-mail (GET, opened from a mail client, no sign-in needed). */
export async function confirmRemovalRequest({ req, params, url }: RouteContext): Promise<Response> {
  if (!uuidSchema.safeParse(params.id).success)
    throw new HttpError(404, `No removal request with id ${params.id}`);
  const token = url.searchParams.get('token') ?? '';
  const { data, error } = await clientFor(await identify(req)).rpc('confirm_removal_request', {
    request_id: params.id,
    token,
  });
  if (error) throw dbError(error, 'confirm this removal request');
  const outcome = data as { confirmed: boolean; reason: string };
  // The reporter's notification was queued by the confirmation: e-mail it now.
  if (outcome.reason === 'confirmed') dispatchSoon();
  if (outcome.confirmed)
    return json({
      msg: 'Thank you: your contact e-mail is confirmed and the reporter has been told of your request',
    });
  if (outcome.reason === 'expired')
    throw new HttpError(410, 'This confirmation link has expired; file the removal request again');
  if (outcome.reason === 'closed') throw new HttpError(409, 'This removal request is already closed');
  throw new HttpError(404, 'This confirmation link is not valid');
}

/**
 * The caller's own requests (with the contact address they gave) and, for a reporter, the confirmed
 * requests about their reports (public.my_report_removal_requests: never the requester's address, so
 * contactEmail is null there); admins read every request with its address.
 */
export async function listRemovalRequests({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const client = clientFor(caller);
  const [own, onMine] = await Promise.all([
    client.from('removal_requests').select('*').order('created_at', { ascending: false }),
    client.rpc('my_report_removal_requests'),
  ]);
  if (own.error) throw dbError(own.error, 'list removal requests');
  if (onMine.error) throw dbError(onMine.error, 'list removal requests');
  const seen = new Set((own.data ?? []).map((r) => r.id));
  const rows: Record<string, unknown>[] = [
    ...(own.data ?? []),
    ...(onMine.data ?? []).filter((r) => !seen.has(r.id)),
  ];
  rows.sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
  return json({ requests: rows.map(requestOut) });
}

export async function respondToRemovalRequest({ req, params }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  if (!uuidSchema.safeParse(params.id).success)
    throw new HttpError(404, `No removal request with id ${params.id}`);
  const input = parseFields(removalResponseSchema, await readFields(req));
  // The reporter answers through public.answer_removal_request (the table shows them no request rows).
  const { data, error } = await clientFor(caller).rpc('answer_removal_request', {
    request_id: params.id,
    answer: input.response,
  });
  if (error?.code === 'P0002') throw new HttpError(404, `No removal request with id ${params.id}`);
  if (error) throw dbError(error, 'answer this removal request');
  return json({
    msg: 'Response saved: the report stays until an admin decides',
    request: requestOut(data as Record<string, unknown>),
  });
}
