export const INCIDENT_TYPES = ['scam', 'hacked', 'spam'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];
export const ACCOUNT_TYPES = ['mobile', 'email', 'ewallet', 'crypto', 'website'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export type ReportStatus = 'pending' | 'verified' | 'rejected' | 'removed';

/** The private evidence bucket: readable by the reporter and admins only, through signed URLs. */
export const EVIDENCE_BUCKET = 'evidence' as const;

/** A row of public.report_cards: the caller's own report plus the real count for its identifier. */
export interface ReportRow {
  id: string;
  reporter_id: string | null;
  incident_date: string;
  incident_type: IncidentType;
  reported_account_type: AccountType;
  reported_account: string;
  consent_to_contact: boolean;
  evidence_path: string | null;
  incident_description: string | null;
  location: string | null;
  report_date: string;
  country: string | null;
  status: ReportStatus;
  amount_lost: number | string | null;
  created_at: string;
  reported_case_count: number;
}

export const REPORT_CARD_COLUMNS =
  'id, reporter_id, incident_date, incident_type, reported_account_type, reported_account, consent_to_contact, evidence_path, incident_description, location, report_date, country, status, amount_lost, created_at, reported_case_count';
