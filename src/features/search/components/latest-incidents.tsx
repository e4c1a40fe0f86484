import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { paths } from '@/config/paths';
import { accountTypeLabel, formatCountry, formatDate, incidentTypeLabel } from '@/lib/format';
import type { SearchReport } from '../api/search-reports';
import { IdentifierText } from './identifier-text';

interface LatestIncidentsProps {
  reports: SearchReport[];
  signedIn: boolean;
  /** Where 'View full report' leads a signed-in user. */
  fullReportHref: string;
  /** Opens one report in place (the dashboard's results); rows without an id keep the link. */
  onViewReport?: (report: SearchReport) => void;
}

const actionClass = 'text-primary font-medium underline-offset-4 hover:underline';

function ViewReport({
  report,
  href,
  onViewReport,
}: {
  report: SearchReport;
  href: string;
  onViewReport?: (report: SearchReport) => void;
}) {
  const { t } = useTranslation();
  if (onViewReport && report.id) {
    return (
      <button type="button" onClick={() => onViewReport(report)} className={actionClass}>
        {t('search.latest.viewFull')}
      </button>
    );
  }
  return (
    <Link to={href} className={actionClass}>
      {t('search.latest.viewFull')}
    </Link>
  );
}

/**
 * The newest reports (SPEC's "Latest Incident" table). 'Reported on' is when the report was filed and
 * 'Happened on' when the scam happened (the old site had the two swapped). Anonymous visitors get only
 * the columns the database gives them; signed-in users also see the account and country.
 *
 * From 640 px up a table; below it, where a table of eight columns would scroll sideways and hide the
 * status (issue 37), one card per report with every field and the status at the top.
 */
export function LatestIncidents({ reports, signedIn, fullReportHref, onViewReport }: LatestIncidentsProps) {
  const { t } = useTranslation();
  const actionHref = signedIn ? fullReportHref : paths.auth.login.getHref(fullReportHref);
  return (
    <section aria-labelledby="latest-heading" className="flex flex-col gap-3">
      <h2 id="latest-heading" className="text-xl font-semibold">
        {t('search.latest.title')}
      </h2>

      <ul aria-label={t('search.latest.cardsLabel')} className="flex flex-col gap-3 sm:hidden">
        {reports.map((report, i) => (
          <li key={report.id ?? i} className="bg-card @container rounded-xl border p-4 shadow-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-semibold">{incidentTypeLabel(report.incident_type)}</span>
              <ReportStatusBadge status={report.status} />
            </div>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5 text-sm">
              <dt className="text-muted-foreground">{t('search.latest.reportedDate')}</dt>
              <dd>{formatDate(report.reported_date)}</dd>
              <dt className="text-muted-foreground">{t('search.latest.incidentDate')}</dt>
              <dd>{formatDate(report.incident_date)}</dd>
              <dt className="text-muted-foreground">{t('search.latest.assetType')}</dt>
              <dd>{accountTypeLabel(report.reported_account_type)}</dd>
              {signedIn && (
                <>
                  <dt className="text-muted-foreground">{t('search.latest.reportedAccount')}</dt>
                  <dd className="min-w-0">
                    {report.reported_account ? <IdentifierText value={report.reported_account} /> : '—'}
                  </dd>
                </>
              )}
              <dt className="text-muted-foreground">{t('search.latest.location')}</dt>
              <dd className="min-w-0 break-words">{report.location || '—'}</dd>
              {signedIn && (
                <>
                  <dt className="text-muted-foreground">{t('search.latest.country')}</dt>
                  <dd>{report.country ? formatCountry(report.country) : '—'}</dd>
                </>
              )}
            </dl>
            <div className="mt-3">
              <ViewReport report={report} href={actionHref} onViewReport={onViewReport} />
            </div>
          </li>
        ))}
      </ul>

      <Card className="hidden py-2 sm:flex">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('search.latest.reportedDate')}</TableHead>
              <TableHead>{t('search.latest.incidentType')}</TableHead>
              <TableHead>{t('search.latest.assetType')}</TableHead>
              {signedIn && <TableHead>{t('search.latest.reportedAccount')}</TableHead>}
              <TableHead>{t('search.latest.location')}</TableHead>
              {signedIn && <TableHead>{t('search.latest.country')}</TableHead>}
              <TableHead>{t('search.latest.status')}</TableHead>
              <TableHead>{t('search.latest.incidentDate')}</TableHead>
              <TableHead>{t('search.latest.action')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {reports.map((report, i) => (
              <TableRow key={report.id ?? i}>
                <TableCell>{formatDate(report.reported_date)}</TableCell>
                <TableCell>{incidentTypeLabel(report.incident_type)}</TableCell>
                <TableCell>{accountTypeLabel(report.reported_account_type)}</TableCell>
                {signedIn && (
                  <TableCell className="max-w-48 truncate">{report.reported_account ?? '—'}</TableCell>
                )}
                <TableCell>{report.location || '—'}</TableCell>
                {signedIn && <TableCell>{report.country ? formatCountry(report.country) : '—'}</TableCell>}
                <TableCell>
                  <ReportStatusBadge status={report.status} />
                </TableCell>
                <TableCell>{formatDate(report.incident_date)}</TableCell>
                <TableCell>
                  <ViewReport report={report} href={actionHref} onViewReport={onViewReport} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      {!signedIn && (
        <p className="text-muted-foreground text-sm">
          <Trans
            i18nKey="search.latest.logInToSee"
            components={{
              login: (
                <Link
                  to={paths.auth.login.getHref(fullReportHref)}
                  className="text-primary underline underline-offset-4"
                />
              ),
            }}
          />
        </p>
      )}
    </section>
  );
}
