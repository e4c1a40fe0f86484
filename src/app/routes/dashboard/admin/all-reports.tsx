import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatDate, incidentTypeLabel } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import type { AdminReportRow } from './report-rows';

export function Component() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.reports.title')} description={t('admin.reports.description')} />
      <PagedList<AdminReportRow>
        name="reports"
        empty={t('admin.reports.empty')}
        columns={[
          {
            header: t('admin.columns.filed'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap',
          },
          { header: t('admin.columns.type'), cell: (r) => incidentTypeLabel(r.incident_type) },
          {
            header: t('admin.columns.account'),
            cell: (r) => `${accountTypeLabel(r.reported_account_type)}: ${r.reported_account}`,
            className: 'max-w-72 truncate',
          },
          { header: t('admin.columns.location'), cell: (r) => r.location || '—' },
          { header: t('admin.columns.status'), cell: (r) => <ReportStatusBadge status={r.status} /> },
          {
            header: t('admin.columns.action'),
            cell: (r) =>
              r.status === 'pending' || r.status === 'verified' ? (
                <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setOpen(r.id)}>
                  {t('admin.reports.viewFull')}
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
