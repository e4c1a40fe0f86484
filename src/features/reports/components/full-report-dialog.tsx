import { useTranslation } from 'react-i18next';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/errors';
import { accountTypeLabel, formatAmount, formatCountry, formatDate, incidentTypeLabel } from '@/lib/format';
import { useFullReport } from '../api/get-full-report';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { reportedCaseText } from './report-card';

/**
 * 'View full report' (docs/architecture.md): the whole report except who filed it, from
 * public.report_details; the evidence image only for the reporter and admins (signed link). `actions`
 * (the review workspace's decisions) sit below the report.
 */
export function FullReportDialog({
  reportId,
  onClose,
  actions,
}: {
  reportId: string | null;
  onClose: () => void;
  actions?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const report = useFullReport(reportId);
  const data = report.data;
  return (
    <Dialog open={!!reportId} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('reports.full.title')}</DialogTitle>
          <DialogDescription>
            {data
              ? `${accountTypeLabel(data.reported_account_type)}: ${data.reported_account}`
              : t('reports.full.loading')}
          </DialogDescription>
        </DialogHeader>
        {report.isError && <p className="text-destructive">{errorMessage(report.error)}</p>}
        {report.isPending && !report.isError && <Skeleton className="h-48 w-full" />}
        {data && (
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm">
              <Item label={t('reports.full.incidentType')}>{incidentTypeLabel(data.incident_type)}</Item>
              <Item label={t('reports.full.status')}>
                <ReportStatusBadge status={data.status} />
              </Item>
              <Item label={t('reports.full.incidentDate')}>{formatDate(data.incident_date)}</Item>
              <Item label={t('reports.full.reportedDate')}>{formatDate(data.reported_date)}</Item>
              <Item label={t('reports.full.location')}>{data.location || '—'}</Item>
              <Item label={t('reports.full.country')}>{formatCountry(data.country)}</Item>
              <Item label={t('reports.full.amountLost')}>
                {data.amount_lost == null ? t('reports.full.notGiven') : formatAmount(data.amount_lost)}
              </Item>
              <Item label={t('reports.full.caseCount')}>
                {reportedCaseText(Number(data.reported_case_count))}
              </Item>
            </dl>
            <section>
              <h3 className="mb-1 text-sm font-semibold">{t('reports.full.description')}</h3>
              <p className="bg-muted/40 rounded-md border p-3 text-sm whitespace-pre-wrap">
                {data.incident_description || t('reports.full.noDescription')}
              </p>
            </section>
            {data.evidenceUrls.length > 0 && (
              <section>
                <h3 className="mb-1 text-sm font-semibold">{t('reports.full.evidence')}</h3>
                <div className="flex flex-wrap gap-2">
                  {data.evidenceUrls.map((url, i) => (
                    <a key={url} href={url} target="_blank" rel="noopener noreferrer">
                      <img
                        src={url}
                        alt={t('reports.full.evidenceNumbered', {
                          n: i + 1,
                          total: data.evidenceUrls.length,
                        })}
                        className="max-h-96 rounded-md border object-contain"
                      />
                    </a>
                  ))}
                </div>
              </section>
            )}
          </div>
        )}
        {actions && <DialogFooter className="flex-wrap gap-2">{actions}</DialogFooter>}
      </DialogContent>
    </Dialog>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}
