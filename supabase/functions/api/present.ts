/**
 * The legacy API's shapes (docs/behaviour.md §3, camelCase, `_id`) built from database rows. Status is
 * shown as the old client expects it: 'verified' or 'not-verified'; the moderation state is given
 * separately for clients that know it.
 */
import type { SupabaseClient } from '../_shared/supabase.ts';
import type { SearchReport } from '../_shared/search-result.ts';

export type Row = Record<string, unknown>;

const ACCOUNT_TYPE_LABEL: Record<string, string> = { mobile: 'mobile no.' };

export function publicStatus(status: unknown): 'verified' | 'not-verified' {
  return status === 'verified' ? 'verified' : 'not-verified';
}

export function reportOut(r: Row, evidenceUrl: string | null = null) {
  return {
    _id: r.id,
    incidentDate: r.incident_date,
    incidentType: r.incident_type,
    reportedAccountType: ACCOUNT_TYPE_LABEL[String(r.reported_account_type)] ?? r.reported_account_type,
    reportedAccount: r.reported_account,
    consentToContact: r.consent_to_contact ? 'yes' : 'no',
    evidence: evidenceUrl,
    incidentDescription: r.incident_description ?? '',
    location: r.location ?? '',
    reportDate: r.report_date,
    loc: r.loc ?? '',
    country: r.country ?? '',
    status: publicStatus(r.status),
    moderationStatus: r.status,
    source: r.source ?? '',
    amountLost: r.amount_lost === null || r.amount_lost === undefined ? null : Number(r.amount_lost),
    reportedCaseCount: r.reported_case_count ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** A search result row (search_reports) in the legacy shape; its 'reported_date' is the filing date. */
export function searchReportOut(r: SearchReport) {
  return {
    _id: r.id ?? null,
    incidentDate: r.incident_date,
    createdAt: r.reported_date,
    incidentType: r.incident_type,
    reportedAccountType: ACCOUNT_TYPE_LABEL[r.reported_account_type] ?? r.reported_account_type,
    location: r.location ?? '',
    status: r.status,
    ...(r.id !== undefined
      ? {
          reportedAccount: r.reported_account,
          country: r.country ?? '',
          incidentDescription: r.incident_description ?? '',
          amountLost: r.amount_lost ?? null,
        }
      : {}),
  };
}

export function publicUrl(client: SupabaseClient, bucket: string, path: unknown): string | null {
  if (typeof path !== 'string' || !path) return null;
  return client.storage.from(bucket).getPublicUrl(path).data.publicUrl;
}

export function newsOut(client: SupabaseClient, n: Row) {
  const banner = publicUrl(client, 'news-banners', n.banner_path);
  return {
    _id: n.id,
    newsTitle: n.news_title,
    newsDescription: n.news_description,
    tags: Array.isArray(n.tags) ? (n.tags as string[]).join(', ') : '',
    imgURL: (n.img_url as string | null) ?? banner ?? '',
    newsBanner: banner,
    source: n.source ?? '',
    sourceDesc: n.source_desc ?? '',
    createdAt: n.created_at,
  };
}
