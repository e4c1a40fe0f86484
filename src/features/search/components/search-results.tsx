import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { Link } from 'react-router-dom';
import { AlertTriangle, Globe2, ListChecks, MessageSquareQuote, ShieldAlert, Wallet } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { OwnerAnswerQuote } from '@/components/owner-answer';
import { paths } from '@/config/paths';
import { formatAmount, formatCountry } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useSearchNotice } from '@/lib/search-notice';
import { LATEST_INCIDENT_ROWS } from '../../../../supabase/functions/_shared/limits.ts';
import type { OwnerStatement, SearchReport, SearchResult, SearchSummary } from '../api/search-reports';
import { LatestIncidents } from './latest-incidents';
import { RemovalRequest } from './removal-request';
import { SearchHeadline } from './search-headline';

// The map comes in two steps so the results are readable and interactive first (issue 12): a light SVG
// preview (its own small chunk with the basemap), and deck.gl's interactive map only when asked for.
const IncidentMapPreview = lazy(() => import('./incident-map-preview'));
const IncidentHeatmap = lazy(() => import('./incident-heatmap'));

/** The results' column (the results shell in index.html uses the same). */
export const SEARCH_RESULTS_CLASS = 'flex flex-col gap-8';

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
  // The headline (the page's largest text, and its answer) paints first; the summary, map and list
  // follow in a background render that React splits into short tasks, so a low-end phone does not freeze
  // between the answer and the page (their first Intl formatters alone cost ~100 ms there, Lighthouse,
  // docs/performance.md).
  const details = useDeferredValue<SearchResult | null>(result, null);
  // The page, top to bottom (issue 37): the one-line answer, then what to do and the owner's word when
  // those parts exist (issues 33 and 32 slot in here), then the summary, the map and the latest reports.
  // Issue 30: words that are no identifier, or a platform's own host, are told what can be searched
  // instead of "Nobody has reported this yet".
  const notice = useSearchNotice(searchString, result.count === 0);
  if (notice)
    return (
      <div className={SEARCH_RESULTS_CLASS}>
        <NotAnIdentifier searchString={searchString} notice={notice} />
      </div>
    );
  return (
    <div className={SEARCH_RESULTS_CLASS}>
      <SearchHeadline answer={result} searchString={searchString} />
      {result.count === 0 ? (
        <NoResults />
      ) : details ? (
        <>
          {/* Issue 32: the owner's answer follows the summary as a card of the same weight. */}
          <SummarizedReport summary={details.summary} />
          {(details.owner_statements?.length ?? 0) > 0 && (
            <OwnerAnswers statements={details.owner_statements ?? []} />
          )}

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
        <DetailsSkeleton />
      )}
    </div>
  );
}

/** The summary's and the map's places while their deferred render runs (also in the results shell). */
export function DetailsSkeleton() {
  return (
    <div className="flex flex-col gap-4" aria-hidden="true">
      <Skeleton className="h-72 w-full sm:h-56 xl:h-40" />
      <Skeleton className="h-[60vh] w-full" />
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
      className: cn('capitalize', riskStyles[summary.risk_label]),
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
      // The sentence saying why no amount is shown reads as a sentence, not as a figure.
      className: summary.estimated_amount_lost == null ? 'text-muted-foreground text-base font-normal' : '',
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
              <dd className={cn('mt-1 pl-7 text-lg font-semibold', className)}>{value}</dd>
              {note && <dd className="text-muted-foreground mt-1 pl-7 text-sm">{note}</dd>}
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

/** The verified owner's statements (issue 32): text only, with how and when ownership was proved. */
function OwnerAnswers({ statements }: { statements: OwnerStatement[] }) {
  const { t } = useTranslation();
  return (
    <Card data-testid="owner-answer">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          <MessageSquareQuote className="text-primary size-6 shrink-0" aria-hidden />
          <h2>{t('search.owner.title')}</h2>
        </CardTitle>
        <CardDescription>{t('search.owner.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {statements.map((s) => (
          <OwnerAnswerQuote
            key={`${s.identifier}-${s.updated_at}`}
            answer={{ statement: s.statement, updatedAt: s.updated_at, verifiedBy: s.verified_by }}
          />
        ))}
      </CardContent>
    </Card>
  );
}

/**
 * docs/behaviour.md §2: 'No Results Found', the advice to proceed with caution and the checklist link,
 * under the headline that already says nobody reported it.
 */
export function NoResults() {
  const { t } = useTranslation();
  return (
    <Alert className="border-warning/50 bg-warning/5 p-6">
      <AlertTriangle className="text-amber-600" aria-hidden />
      <AlertTitle className="line-clamp-none text-xl">
        <h2>{t('search.noResults.title')}</h2>
      </AlertTitle>
      <AlertDescription className="text-base">
        <p>{t('search.noResults.text')}</p>
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

/** Issue 30: what can be searched, instead of "nobody has reported", for words or a platform's host. */
function NotAnIdentifier({
  searchString,
  notice,
}: {
  searchString: string;
  notice: 'platform' | 'not-identifier';
}) {
  const { t } = useTranslation();
  return (
    <Alert className="p-6" data-testid="not-identifier">
      <ListChecks aria-hidden />
      <AlertTitle className="line-clamp-none text-xl">
        <h2>
          {t(notice === 'platform' ? 'search.notIdentifier.platformTitle' : 'search.notIdentifier.title')}
        </h2>
      </AlertTitle>
      <AlertDescription className="text-base">
        <p className="break-words">
          {t(notice === 'platform' ? 'search.notIdentifier.platform' : 'search.notIdentifier.text', {
            value: searchString,
          })}
        </p>
        {notice === 'not-identifier' && (
          <p>
            <Link
              to={`${paths.check.getHref()}?text=${encodeURIComponent(searchString)}`}
              className="text-primary font-medium underline underline-offset-4"
            >
              {t('search.notIdentifier.check')}
            </Link>
          </p>
        )}
      </AlertDescription>
    </Alert>
  );
}
