import { useState } from 'react';
import { Form, Link, useNavigation } from 'react-router-dom';
import { CalendarDays, MapPin, Pencil, Trash2 } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { paths } from '@/config/paths';
import { accountTypeLabel, formatDate, incidentTypeLabel } from '@/lib/format';
import { i18n } from '@/i18n';
import { cn } from '@/lib/utils';
import type { ReportRow } from '../api/types';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { moderationReasonLabel } from '@/lib/moderation-reasons';
import type { ReportRemovalRequest } from '../api/removal-answers';
import { RemovalAnswers } from './removal-answers';

const typeColors: Record<string, string> = {
  scam: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  hacked: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  spam: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
};

/** '1 reported case', '3 reported cases' (with each language's plural rules). */
export function reportedCaseText(count: number): string {
  return i18n.t('reports.card.caseCount', { count });
}

/**
 * One report in My Reports (docs/behaviour.md §2): the first letter of the incident type as an icon, the
 * account type and account, location and report date, the real number of reports about the same
 * identifier, the incident type label (100 by 30 px), the status, and edit and delete; with the reason of
 * an admin's decision and the removal requests on the report, which the reporter answers here (issue 31).
 */
export function ReportCard({
  report,
  removalRequests = [],
}: {
  report: ReportRow;
  removalRequests?: ReportRemovalRequest[];
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const navigation = useNavigation();
  const deleteHref = paths.dashboard.deleteReport.getHref(report.id);
  const deleting = navigation.state !== 'idle' && navigation.formAction === deleteHref;
  const type = report.incident_type;

  return (
    <Card
      className="gap-4"
      data-testid="report-card"
      aria-label={`${accountTypeLabel(report.reported_account_type)} ${report.reported_account}`}
    >
      <CardHeader className="flex flex-row flex-wrap items-start gap-4">
        <span
          aria-hidden
          className={cn(
            'flex size-12 shrink-0 items-center justify-center rounded-lg text-xl font-bold uppercase',
            typeColors[type],
          )}
        >
          {type.charAt(0)}
        </span>
        <div className="min-w-0 flex-1 basis-28">
          <h2 className="text-lg font-semibold">{accountTypeLabel(report.reported_account_type)}</h2>
          <p className="text-muted-foreground truncate" title={report.reported_account}>
            {report.reported_account}
          </p>
        </div>
        <ReportStatusBadge status={report.status} />
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        <p className="flex items-center gap-2">
          <MapPin className="text-muted-foreground size-4" aria-hidden />
          {report.location || t('reports.card.noLocation')}
        </p>
        <p className="flex items-center gap-2">
          <CalendarDays className="text-muted-foreground size-4" aria-hidden />
          {t('reports.card.reported', { date: formatDate(report.report_date) })}
        </p>
        <p className="text-destructive font-medium sm:col-span-2" data-testid="reported-case-count">
          {reportedCaseText(Number(report.reported_case_count))}
        </p>
        {report.status_reason && (
          <div className="bg-muted/40 rounded-md border p-2 sm:col-span-2" data-testid="status-reason">
            <p>{t('moderation.cardReason', { reason: moderationReasonLabel(report.status_reason) })}</p>
            {report.status_note && (
              <p className="text-muted-foreground whitespace-pre-wrap">
                {t('moderation.cardNote', { note: report.status_note })}
              </p>
            )}
          </div>
        )}
        <RemovalAnswers requests={removalRequests} />
      </CardContent>
      <CardFooter className="flex flex-wrap items-center gap-2">
        <span
          className={cn(
            'inline-flex h-[30px] w-[100px] items-center justify-center rounded-md text-sm font-medium',
            typeColors[type],
          )}
        >
          {incidentTypeLabel(type)}
        </span>
        <div className="ml-auto flex gap-2">
          <Button asChild variant="outline" size="sm">
            <Link
              to={paths.dashboard.editReport.getHref(report.id)}
              aria-label={t('reports.card.editAbout', { account: report.reported_account })}
            >
              <Pencil aria-hidden />
              {t('reports.card.edit')}
            </Link>
          </Button>
          <Button
            variant="destructive"
            size="sm"
            onClick={() => setConfirming(true)}
            aria-label={t('reports.card.deleteAbout', { account: report.reported_account })}
          >
            <Trash2 aria-hidden />
            {t('reports.card.delete')}
          </Button>
        </div>
      </CardFooter>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('reports.delete.title')}
        description={
          <Trans
            i18nKey="reports.delete.textAbout"
            values={{ account: report.reported_account }}
            components={{ account: <strong className="break-all" /> }}
          />
        }
        keepLabel={t('reports.delete.keep')}
        action={
          // Posts to the delete-report route's action (docs/behaviour.md: report cards post to it).
          <Form method="post" action={deleteHref} onSubmit={() => setConfirming(false)}>
            <Button type="submit" variant="destructive" disabled={deleting}>
              {deleting ? t('reports.delete.deleting') : t('reports.delete.confirm')}
            </Button>
          </Form>
        }
      />
    </Card>
  );
}
