import { useState } from 'react';
import { Check, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { accountTypeLabel, formatAmount, formatDate, incidentTypeLabel } from '@/lib/format';
import { useSetReportStatus } from '@/features/admin/api/moderate';
import { PagedList } from '@/features/admin/components/paged-list';
import { FullReportDialog } from '@/features/reports/components/full-report-dialog';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import type { AdminReportRow } from './report-rows';

/** Pending reports, to verify or reject (docs/architecture.md); the reporter is notified either way. */
export function Component() {
  const [open, setOpen] = useState<string | null>(null);
  const moderate = useSetReportStatus();
  const busy = (id: string) => moderate.isPending && moderate.variables?.id === id;
  return (
    <>
      <BackToAdmin />
      <PageHeader
        title="Pending Reports"
        description="Reports waiting for review, newest first. Verified reports count towards an identifier's risk."
      />
      <PagedList<AdminReportRow>
        name="pendingReports"
        empty="Nothing waits for review."
        columns={[
          {
            header: 'Filed',
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap align-top',
          },
          {
            header: 'Report',
            cell: (r) => (
              <div className="max-w-md min-w-56 whitespace-normal">
                <p className="font-medium break-all">
                  {incidentTypeLabel(r.incident_type)} · {accountTypeLabel(r.reported_account_type)}:{' '}
                  {r.reported_account}
                </p>
                <p className="text-muted-foreground line-clamp-2">
                  {r.incident_description || 'No description'}
                </p>
                <p className="text-muted-foreground text-xs">
                  {r.location || 'No location'}
                  {r.amount_lost != null && ` · lost ${formatAmount(r.amount_lost)}`}
                  {r.evidence_path && ' · has evidence'}
                </p>
              </div>
            ),
          },
          {
            header: 'Action',
            cell: (r) => (
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setOpen(r.id)}>
                  View
                </Button>
                <Button
                  size="sm"
                  disabled={busy(r.id)}
                  onClick={() => moderate.mutate({ id: r.id, status: 'verified' })}
                  aria-label={`Verify report about ${r.reported_account}`}
                >
                  <Check aria-hidden />
                  Verify
                </Button>
                <Button
                  variant="destructive"
                  size="sm"
                  disabled={busy(r.id)}
                  onClick={() => moderate.mutate({ id: r.id, status: 'rejected' })}
                  aria-label={`Reject report about ${r.reported_account}`}
                >
                  <X aria-hidden />
                  Reject
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
