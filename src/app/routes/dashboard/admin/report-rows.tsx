import type { ReportStatus } from '@/features/reports/api/types';

/** A report as the admin lists read it from public.reports (admins may read every row). */
export interface AdminReportRow {
  id: string;
  incident_type: string;
  reported_account_type: string;
  reported_account: string;
  incident_description?: string | null;
  location: string | null;
  country: string | null;
  status: ReportStatus;
  amount_lost: number | string | null;
  evidence_path: string | null;
  created_at: string;
}
