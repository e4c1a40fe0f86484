import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatAmount, formatDate, incidentTypeLabel } from '@/lib/format';
import { useSetReportStatus } from '@/features/admin/api/moderate';
import { PagedList } from '@/features/admin/components/paged-list';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import { useReportSignal } from '@/features/admin/api/report-signals';
import type { AdminReportRow } from './report-rows';

/** Issue 27: whether the report came from a young account or a network other reporters share. */
function Signal({ id }: { id: string }) {
  const { t } = useTranslation();
  const { data } = useReportSignal(id);
  if (!data || (!data.young_account && data.shared_network_reporters === 0)) return null;
  return (
    <p className="text-xs font-medium text-amber-700 dark:text-amber-400">
      {[
        data.young_account ? t('admin.pending.youngAccount') : null,
        data.shared_network_reporters > 0
          ? t('admin.pending.sharedNetwork', { count: data.shared_network_reporters })
          : null,
      ]
        .filter(Boolean)
        .join(' · ')}
    </p>
  );
}

/** Pending reports, to verify or reject (docs/architecture.md); the reporter is notified either way. */
export function Component() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const moderate = useSetReportStatus();
  const busy = (id: string) => moderate.isPending && moderate.variables?.id === id;
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.pending.title')} description={t('admin.pending.description')} />
      <PagedList<AdminReportRow>
        name="pendingReports"
        empty={t('admin.pending.empty')}
        columns={[
          {
            header: t('admin.columns.filed'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap align-top',
          },
          {
            header: t('admin.columns.report'),
            cell: (r) => (
              <div className="max-w-md min-w-56 whitespace-normal">
                <p className="font-medium break-all">
                  {incidentTypeLabel(r.incident_type)} · {accountTypeLabel(r.reported_account_type)}:{' '}
                  {r.reported_account}
                </p>
                <p className="text-muted-foreground line-clamp-2">
                  {r.incident_description || t('admin.pending.noDescription')}
                </p>
                <p className="text-muted-foreground text-xs">
                  {r.location || t('admin.pending.noLocation')}
                  {r.amount_lost != null && t('admin.pending.lost', { amount: formatAmount(r.amount_lost) })}
                  {r.evidence_path && t('admin.pending.hasEvidence')}
                </p>
                <Signal id={r.id} />
              </div>
            ),
          },
          {
            header: t('admin.columns.action'),
            cell: (r) => (
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setOpen(r.id)}>
                  {t('admin.pending.view')}
                </Button>
                <Button
                  size="sm"
                  disabled={busy(r.id)}
                  onClick={() => moderate.mutate({ id: r.id, status: 'verified' })}
                  aria-label={t('admin.pending.verifyLabel', { account: r.reported_account })}
                >
                  <Check aria-hidden />
                  {t('admin.pending.verify')}
                </Button>
                <Button
                  variant="destructive"
                  size="sm"
                  disabled={busy(r.id)}
                  onClick={() => moderate.mutate({ id: r.id, status: 'rejected' })}
                  aria-label={t('admin.pending.rejectLabel', { account: r.reported_account })}
                >
                  <X aria-hidden />
                  {t('admin.pending.reject')}
                </Button>
              </div>
            ),
            className: 'align-top',
          },
        ]}
      />
      <FullReportDialog reportId={open} onClose={() => setOpen(null)} />
    </>
  );
}
