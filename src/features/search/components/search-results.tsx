import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, Globe2, ListChecks, ShieldAlert, Wallet } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { paths } from '@/config/paths';
import { accountTypeLabel, formatAmount, formatCountry, formatDate, incidentTypeLabel } from '@/lib/format';
import { cn } from '@/lib/utils';
import { LATEST_INCIDENT_ROWS } from '../../../../supabase/functions/_shared/limits.ts';
import type { SearchReport, SearchResult, SearchSummary } from '../api/search-reports';
import { ReportStatusBadge } from '@/components/report-status-badge';
import { RemovalRequest } from './removal-request';

// The map comes in two steps so the results are readable and interactive first (issue 12): a light SVG
// preview (its own small chunk with the basemap), and deck.gl's interactive map only when asked for.
const IncidentMapPreview = lazy(() => import('./incident-map-preview'));
const IncidentHeatmap = lazy(() => import('./incident-heatmap'));

export function SearchResults({
  searchString,
  result,
  signedIn,
  fullReportHref,
  onViewReport,
}: {
  searchString: string;
  result: SearchResult;
  signedIn: boolean;
  /** Where 'View full report' leads a signed-in user. */
  fullReportHref: string;
  /** Opens one report in place (the dashboard's results); rows without an id keep the link. */
  onViewReport?: (report: SearchReport) => void;
}) {
  const { t } = useTranslation();
  // The count (the page's largest text) paints first; the summary, map and table follow in a background
  // render that React splits into short tasks, so a low-end phone does not freeze between the answer and
  // the page (their first Intl formatters alone cost ~100 ms there, Lighthouse, docs/benchmarks.md).
  const details = useDeferredValue<SearchResult | null>(result, null);
  if (result.count === 0) return <NoResults searchString={searchString} />;
  return (
    <div className="flex flex-col gap-8">
      <p className="text-lg" aria-live="polite">
        <Trans
          i18nKey="search.results.count"
          count={result.count}
          values={{ term: searchString }}
          components={{
            count: <span className="text-destructive text-3xl font-bold" />,
            term: <strong className="break-all" />,
          }}
        />
      </p>

      {details ? (
        <>
          <SummarizedReport summary={details.summary} />

          <section aria-labelledby="heatmap-heading" className="flex flex-col items-center gap-3">
            <h2 id="heatmap-heading" className="self-start text-xl font-semibold">
              {t('search.results.heatmapTitle')}
            </h2>
            {details.points.length > 0 ? (
              <IncidentMap points={details.points} />
            ) : (
              <p className="text-muted-foreground self-start">{t('search.results.noLocations')}</p>
            )}
          </section>

          <LatestIncidents
            reports={details.reports.slice(0, LATEST_INCIDENT_ROWS)}
            signedIn={signedIn}
            fullReportHref={fullReportHref}
            onViewReport={onViewReport}
          />

          <RemovalRequest reports={details.reports} returnTo={fullReportHref} />
        </>
      ) : (
        <div className="flex flex-col gap-4" aria-hidden="true">
          <Skeleton className="h-72 w-full sm:h-56 xl:h-40" />
          <Skeleton className="h-[60vh] w-full" />
        </div>
      )}
    </div>
  );
}

function IncidentMap({ points }: { points: [number, number][] }) {
  const { t } = useTranslation();
  const [interactive, setInteractive] = useState(false);
  const loading = (
    <Skeleton role="status" aria-label={t('search.results.loadingMap')} className="absolute inset-0" />
  );
  return (
    <div
      data-testid="incident-heatmap"
      className="relative h-[60vh] w-full overflow-hidden rounded-xl border md:w-[70vw]"
    >
      <div
        role="img"
        aria-label={t('search.results.heatmapLabel', { count: points.length })}
        className="absolute inset-0"
      >
        <Suspense fallback={loading}>
          {interactive ? <IncidentHeatmap points={points} /> : <IncidentMapPreview points={points} />}
        </Suspense>
      </div>
      {!interactive && (
        <button
          type="button"
          onClick={() => setInteractive(true)}
          className="bg-background/90 hover:bg-background focus-visible:ring-ring absolute right-3 bottom-3 rounded-md border px-3 py-2 text-sm font-medium shadow focus-visible:ring-2 focus-visible:outline-none"
        >
          {t('search.results.zoomMap')}
        </button>
      )}
    </div>
  );
}

const riskStyles = {
  low: 'text-green-700 dark:text-green-400',
  medium: 'text-amber-700 dark:text-amber-400',
  high: 'text-destructive',
} as const;

const riskLabelKeys = {
  low: 'search.summary.risk.low',
  medium: 'search.summary.risk.medium',
  high: 'search.summary.risk.high',
} as const;

function SummarizedReport({ summary }: { summary: SearchSummary }) {
  const { t } = useTranslation();
  const riskKey = riskLabelKeys[summary.risk_label];
  const items = [
    { icon: ListChecks, label: t('search.summary.count'), value: String(summary.count) },
    {
      icon: Globe2,
      label: t('search.summary.lastCountry'),
      value: formatCountry(summary.last_victim_country),
    },
    {
      icon: ShieldAlert,
      label: t('search.summary.risk.label'),
      value: `${summary.risk_level}% (${riskKey ? t(riskKey) : summary.risk_label})`,
      className: riskStyles[summary.risk_label] ?? '',
      // Issue 27: a risk that rests on unreviewed reports only says so.
      note:
        summary.risk_basis === 'unverified_only'
          ? t('search.summary.unreviewed', { count: summary.pending_count ?? summary.count })
          : undefined,
    },
    {
      icon: Wallet,
      label: t('search.summary.amount'),
      value:
        summary.estimated_amount_lost == null
          ? t('search.summary.amountHidden')
          : formatAmount(summary.estimated_amount_lost),
    },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>{t('search.summary.title')}</h2>
        </CardTitle>
        <CardDescription>{t('search.summary.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {items.map(({ icon: Icon, label, value, className, note }) => (
            <div key={label} className="bg-muted/40 rounded-lg border p-4">
              <dt className="text-muted-foreground flex items-center gap-2 text-sm">
                <Icon className="text-primary size-5 shrink-0" aria-hidden />
                {label}
              </dt>
              <dd className={cn('mt-1 pl-7 text-lg font-semibold capitalize', className)}>{value}</dd>
              {note && <dd className="text-muted-foreground mt-1 pl-7 text-sm">{note}</dd>}
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * The Latest Incident table. 'Reported Date' is when the report was filed and 'Incident Date' when
 * the scam happened (the old site had the two swapped). Anonymous visitors get only the columns the
 * database gives them; signed-in users also see the account and country.
 */
function LatestIncidents({
  reports,
  signedIn,
  fullReportHref,
  onViewReport,
}: {
  reports: SearchReport[];
  signedIn: boolean;
  fullReportHref: string;
  onViewReport?: (report: SearchReport) => void;
}) {
  const { t } = useTranslation();
  const actionHref = signedIn ? fullReportHref : paths.auth.login.getHref(fullReportHref);
  return (
    <section aria-labelledby="latest-heading" className="flex flex-col gap-3">
      <h2 id="latest-heading" className="text-xl font-semibold">
        {t('search.latest.title')}
      </h2>
      <Card className="py-2">
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
                  {onViewReport && report.id ? (
                    <button
                      type="button"
                      onClick={() => onViewReport(report)}
                      className="text-primary font-medium underline-offset-4 hover:underline"
                    >
                      {t('search.latest.viewFull')}
                    </button>
                  ) : (
                    <Link
                      to={actionHref}
                      className="text-primary font-medium underline-offset-4 hover:underline"
                    >
                      {t('search.latest.viewFull')}
                    </Link>
                  )}
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

/** docs/behaviour.md §2: 'No Results Found', the advice to proceed with caution and the checklist link. */
export function NoResults({ searchString }: { searchString: string }) {
  const { t } = useTranslation();
  return (
    <Alert className="border-warning/50 bg-warning/5 p-6">
      <AlertTriangle className="text-amber-600" aria-hidden />
      <AlertTitle className="line-clamp-none text-xl">
        <h2>{t('search.noResults.title')}</h2>
      </AlertTitle>
      <AlertDescription className="text-base">
        <p>
          <Trans
            i18nKey="search.noResults.text"
            values={{ term: searchString }}
            components={{ term: <strong className="text-foreground break-all" /> }}
          />
        </p>
        <p>
          <Trans
            i18nKey="search.noResults.checklist"
            components={{
              guide: (
                <Link
                  to={paths.guide.getHref()}
                  className="text-primary font-medium underline underline-offset-4"
                />
              ),
            }}
          />
        </p>
      </AlertDescription>
    </Alert>
  );
}
