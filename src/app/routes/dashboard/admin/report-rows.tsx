import type { Tables } from '@/types/database.types';

/** A report as the admin lists read it from public.reports (admins may read every row). */
export type AdminReportRow = Pick<
  Tables<'reports'>,
  | 'id'
  | 'incident_type'
  | 'reported_account_type'
  | 'reported_account'
  | 'location'
  | 'country'
  | 'status'
  | 'amount_lost'
  | 'evidence_path'
  | 'created_at'
> &
  Partial<Pick<Tables<'reports'>, 'incident_description'>>;
