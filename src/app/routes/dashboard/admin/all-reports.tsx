import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatDate, incidentTypeLabel } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import type { AdminReportRow } from './report-rows';

export function Component() {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <BackToAdmin />
      <PageHeader title="Submitted Reports" description="Every report, newest first." />
      <PagedList<AdminReportRow>
        name="reports"
        empty="No reports yet."
        columns={[
          { header: 'Filed', cell: (r) => formatDate(r.created_at), className: 'whitespace-nowrap' },
          { header: 'Type', cell: (r) => incidentTypeLabel(r.incident_type) },
          {
            header: 'Account',
            cell: (r) => `${accountTypeLabel(r.reported_account_type)}: ${r.reported_account}`,
            className: 'max-w-72 truncate',
          },
          { header: 'Location', cell: (r) => r.location || '—' },
          { header: 'Status', cell: (r) => <ReportStatusBadge status={r.status} /> },
          {
            header: 'Action',
            cell: (r) =>
              r.status === 'pending' || r.status === 'verified' ? (
                <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setOpen(r.id)}>
                  View full report
                </Button>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <FullReportDialog reportId={open} onClose={() => setOpen(null)} />
    </>
  );
}
