import { Constants, type Enums, type Tables } from '@/types/database.types';

export const INCIDENT_TYPES = Constants.public.Enums.incident_type;
export type IncidentType = Enums<'incident_type'>;
export const ACCOUNT_TYPES = Constants.public.Enums.reported_account_type;
export type AccountType = Enums<'reported_account_type'>;
export type ReportStatus = Enums<'report_status'>;

/** The private evidence bucket: readable by the reporter and admins only, through signed URLs. */
export const EVIDENCE_BUCKET = 'evidence' as const;

/**
 * A row of public.report_cards: the caller's own report (public.reports' columns, whose types the
 * generated schema gives; a view's columns all come out nullable) plus the real count for its identifier.
 */
export type ReportRow = Pick<
  Tables<'reports'>,
  | 'id'
  | 'reporter_id'
  | 'incident_date'
  | 'incident_type'
  | 'reported_account_type'
  | 'reported_account'
  | 'consent_to_contact'
  | 'evidence_path'
  | 'incident_description'
  | 'location'
  | 'report_date'
  | 'country'
  | 'status'
  | 'amount_lost'
  | 'created_at'
> & { reported_case_count: number } & Partial<Pick<Tables<'reports'>, 'status_reason' | 'status_note'>>;

export const REPORT_CARD_COLUMNS =
  'id, reporter_id, incident_date, incident_type, reported_account_type, reported_account, consent_to_contact, evidence_path, incident_description, location, report_date, country, status, amount_lost, created_at, reported_case_count, status_reason, status_note';
