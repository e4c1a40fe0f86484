/** The signed-in user's reports: list, stats, create, read, update, delete (docs/behaviour.md §7, /reports). */
import { fileField, readFields } from '../../_shared/body.ts';
import { HttpError, json } from '../../_shared/http.ts';
import { storeImage } from '../../_shared/uploads.ts';
import {
  createReportSchema,
  parseFields,
  updateReportSchema,
  uuidSchema,
  type z,
} from '../../_shared/schemas.ts';
import { clientFor, requireUser, type SupabaseClient, isAdmin } from '../../_shared/supabase.ts';
import { dispatchSoon } from '../../_shared/dispatch.ts';
import { locateReport } from '../../_shared/report-location.ts';
import { canonicalIdentifier, type IdentifierKind } from '../../_shared/canonical.ts';
import { dbError } from '../db.ts';
import { serviceClient } from '../../_shared/service.ts';
import { reportOut, type Row } from '../present.ts';
import { asCaller, literal } from '../../_shared/as-caller.ts';
import { dataApiError } from '../../_shared/postgres.ts';
import { definedOnly, type FilledByDatabase, type TablesUpdate } from '../../_shared/database.ts';
import type { RouteContext } from '../router.ts';

const EVIDENCE = 'evidence' as const;

/** Evidence is private: the owner (and admins) get a link that works for an hour. */
async function evidenceUrl(client: SupabaseClient, path: unknown): Promise<string | null> {
  if (typeof path !== 'string' || !path) return null;
  const { data, error } = await client.storage.from(EVIDENCE).createSignedUrl(path, 3600);
  return error ? null : data.signedUrl;
}

async function present(client: SupabaseClient, row: Row) {
  return reportOut(row, await evidenceUrl(client, row.evidence_path));
}

function reportId(params: Record<string, string>): string {
  if (!uuidSchema.safeParse(params.id).success) throw new HttpError(404, `No report with id ${params.id}`);
  return params.id;
}

/** The database keys reports by the identifier's canonical form; a value without one is not an identifier. */
function checkIdentifier(kind: unknown, value: unknown): void {
  if (typeof kind !== 'string' || typeof value !== 'string') return;
  if (!canonicalIdentifier(kind as IdentifierKind, value)) {
    throw new HttpError(400, `reportedAccount is not a valid ${kind === 'mobile' ? 'mobile number' : kind}`);
  }
}

/** The report's columns from the legacy fields the caller sent; the fields left out stay out. */
function toColumns(
  input: z.infer<typeof createReportSchema>,
): FilledByDatabase<'reports', 'reported_account_canonical'>;
function toColumns(input: z.infer<typeof updateReportSchema>): TablesUpdate<'reports'>;
function toColumns(input: z.infer<typeof updateReportSchema>): TablesUpdate<'reports'> {
  return definedOnly({
    incident_date: input.incidentDate,
    incident_type: input.incidentType,
    reported_account_type: input.reportedAccountType,
    reported_account: input.reportedAccount,
    consent_to_contact: input.consentToContact,
    incident_description: input.incidentDescription,
    location: input.location,
    report_date: input.reportDate,
    // loc and country are still accepted (and checked) from old clients, but never stored as sent:
    // the server sets them from the caller's address (issue 27, locateReport).
    source: input.source,
    amount_lost: input.amountLost,
  });
}

/** Checks and stores an evidence image under the reporter's folder; returns its path. */
function storeEvidence(req: Request, userId: string, file: File | null): Promise<string | null> {
  return file
    ? storeImage(EVIDENCE, userId, file, { userId, forwardedFor: req.headers.get('x-forwarded-for') })
    : Promise.resolve(null);
}

export async function listReports({ req, url }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const client = clientFor(caller);
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit')) || 100, 1), 500);
  const page = Math.max(Math.floor(Number(url.searchParams.get('page')) || 1), 1);
  const { data, error, count } = await client
    .from('report_cards')
    .select('*', { count: 'exact' })
    .eq('reporter_id', caller.user.id)
    .order('created_at', { ascending: false })
    .range((page - 1) * limit, page * limit - 1);
  if (error) throw dbError(error, 'list your reports');
  const reports = await Promise.all((data ?? []).map((r) => present(client, r)));
  const total = count ?? reports.length;
  return json({ reports, totalReports: total, numOfPages: Math.max(1, Math.ceil(total / limit)) });
}

export async function reportStats({ req }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const { data, error } = await clientFor(caller).rpc('user_report_stats');
  if (error) throw dbError(error, 'read your stats');
  return json(data);
}

/**
 * The insert of a new report as PostgREST runs `insert ... select=*`: the row as JSON turned into the
 * table's types by json_populate_record, only the columns the caller set (so column grants and column
 * defaults apply as through the Data API), and the new row back as JSON.
 */
function insertReportSql(columns: Record<string, unknown>): string {
  const names = Object.keys(columns);
  for (const c of names) if (!/^[a-z_]+$/.test(c)) throw new Error(`not a column name: ${c}`);
  const list = names.map((c) => `"${c}"`).join(', ');
  return `insert into public.reports as r (${list})
    select ${list} from json_populate_record(null::public.reports, ${literal(JSON.stringify(columns))}::json)
    returning to_jsonb(r) as row`;
}

export async function createReport({ req }: RouteContext): Promise<Response> {
  // The body is read while the Auth server checks the caller (an unauthenticated caller still gets
  // the 401, not a complaint about the body).
  const body = readFields(req);
  body.catch(() => undefined);
  const caller = await requireUser(req);
  const fields = await body;
  const input = parseFields(createReportSchema, fields);
  checkIdentifier(input.reportedAccountType, input.reportedAccount);
  const evidence = fileField(fields, 'evidence');
  const evidencePath = await storeEvidence(req, caller.user.id, evidence);
  const columns = {
    ...toColumns(input),
    reporter_id: caller.user.id,
    evidence_path: evidencePath,
  } satisfies FilledByDatabase<'reports', 'reported_account_canonical'>;
  // Straight to Postgres as the caller (_shared/as-caller.ts: their role and claims, so RLS and the
  // write limits decide as through the Data API); the evidence link is signed meanwhile.
  const inserted = asCaller<{ row: Row }>(
    caller,
    { method: 'POST', path: '/reports' },
    insertReportSql(columns),
  ).then((rows) => rows[0].row);
  // The object is the one this request just stored in the caller's own folder, which the caller may
  // read: the service role signs its link, with the client built once, where a client of the caller's
  // own, built for this one call, cost the function more than the signing.
  const url = evidenceUrl(serviceClient(), evidencePath);
  let row: Row;
  try {
    row = await inserted;
  } catch (e) {
    if (evidencePath) await clientFor(caller).storage.from(EVIDENCE).remove([evidencePath]);
    throw e instanceof HttpError ? e : dbError(dataApiError(e), 'file this report');
  }
  const located = await locateReport(req, caller.user.id, String(row.id));
  if (located) row = { ...row, ...located };
  // Users who registered this identifier were queued a notification by the database; send it now
  // rather than at the scheduler's next minute.
  dispatchSoon();
  return json({ msg: 'Reported Sucessfully', report: reportOut(row, await url) }, 201);
}

export async function getReport({ req, params }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const id = reportId(params);
  const client = clientFor(caller);
  const { data, error } = await client.from('report_cards').select('*').eq('id', id).maybeSingle();
  if (error) throw dbError(error, 'read this report');
  if (!data) throw new HttpError(404, `No report with id ${id}`);
  return json({ report: await present(client, data) });
}

export async function updateReport({ req, params }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const id = reportId(params);
  const fields = await readFields(req);
  const input = parseFields(updateReportSchema, fields);
  const evidence = fileField(fields, 'evidence');
  const client = clientFor(caller);
  const { data: before, error: readError } = await client
    .from('reports')
    .select('id, evidence_path, reported_account_type, reported_account')
    .eq('id', id)
    .maybeSingle();
  if (readError) throw dbError(readError, 'read this report');
  if (!before) throw new HttpError(404, `No report with id ${id}`);
  if (input.reportedAccountType || input.reportedAccount) {
    checkIdentifier(
      input.reportedAccountType ?? before.reported_account_type,
      input.reportedAccount ?? before.reported_account,
    );
  }
  const patch = toColumns(input);
  const evidencePath = await storeEvidence(req, caller.user.id, evidence);
  if (evidencePath) patch.evidence_path = evidencePath;
  if (!Object.keys(patch).length)
    throw new HttpError(400, 'Nothing to update: send at least one report field');
  const { data, error } = await client.from('reports').update(patch).eq('id', id).select().maybeSingle();
  if (error || !data) {
    if (evidencePath) await client.storage.from(EVIDENCE).remove([evidencePath]);
    if (error) throw dbError(error, 'update this report');
    throw new HttpError(404, `No report with id ${id}`);
  }
  if (evidencePath && before.evidence_path)
    await client.storage.from(EVIDENCE).remove([before.evidence_path]);
  dispatchSoon();
  const { data: card } = await client.from('report_cards').select('*').eq('id', id).maybeSingle();
  return json({ msg: 'Report updated successfully', report: await present(client, card ?? data) });
}

export async function deleteReport({ req, params }: RouteContext): Promise<Response> {
  const caller = await requireUser(req);
  const id = reportId(params);
  const client = clientFor(caller);
  const { data, error } = await client.from('reports').delete().eq('id', id).select('id, evidence_path');
  if (error) throw dbError(error, 'delete this report');
  if (!data?.length) throw new HttpError(404, `No report with id ${id}`);
  const path: string | null = data[0].evidence_path;
  if (path?.startsWith(`${caller.user.id}/`)) await client.storage.from(EVIDENCE).remove([path]);
  else if (path && (await isAdmin(client, caller.user.id))) {
    // An admin deleted someone else's report (RLS allowed the delete): the evidence in the reporter's
    // folder goes too, which storage policies leave to its owner, so the service client does it.
    await serviceClient().storage.from(EVIDENCE).remove([path]);
  }
  return json({ msg: 'Report deleted successfully' });
}
