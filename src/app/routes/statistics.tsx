import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ParseKeys } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { WhenVisible } from '@/components/when-visible';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/errors';
import { formatAmount, formatCompactAmount, formatDate, formatNumber } from '@/lib/format';
import { useTheme } from '@/lib/theme';
import {
  getPublicStatisticsQueryOptions,
  usePublicStatistics,
} from '@/features/public-stats/api/get-public-statistics';
import type { StatsPeriod } from '@/features/public-stats/api/keys';
import { openDataFiles } from '@/features/public-stats/api/open-data';
import { RegionsTable } from '@/features/public-stats/components/regions-table';
import { TopIdentifiers } from '@/features/public-stats/components/top-identifiers';
import { StatusShare } from '@/features/public-stats/components/status-share';
import { ModerationFigures } from '@/features/public-stats/components/moderation-figures';

// recharts and deck.gl load only with this page, after its figures (issue 6's budget for the home page),
// and each part only when it nears the screen and the browser is idle (WhenVisible, issue 37): at 375 px
// they lie below the first screen, and deck.gl's map cost a phone's load seconds of main thread.
const ReportsOverTimeChart = lazy(() =>
  import('@/features/public-stats/components/statistics-charts').then((m) => ({
    default: m.ReportsOverTimeChart,
  })),
);
const AmountsChart = lazy(() =>
  import('@/features/public-stats/components/statistics-charts').then((m) => ({ default: m.AmountsChart })),
);
const RegionsMap = lazy(() =>
  import('@/features/public-stats/components/regions-map').then((m) => ({ default: m.RegionsMap })),
);

const PERIODS: [StatsPeriod, ParseKeys][] = [
  ['last_30_days', 'statistics.periods.last30Days'],
  ['last_12_months', 'statistics.periods.last12Months'],
  ['all_time', 'statistics.periods.allTime'],
];

export const clientLoader = (queryClient: QueryClient) => async () => {
  void queryClient.prefetchQuery(getPublicStatisticsQueryOptions('last_12_months'));
  return null;
};

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function ChartFallback() {
  const { t } = useTranslation();
  return <Skeleton className="h-[300px] w-full" role="status" aria-label={t('statistics.loadingChart')} />;
}
const chartFallback = <ChartFallback />;
const mapFallback = <Skeleton className="h-[420px] w-full" />;
const link = 'text-primary underline underline-offset-4';

export function Component() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<StatsPeriod>('last_12_months');
  const stats = usePublicStatistics(period);
  const { isDark } = useTheme();
  const data = stats.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{t('statistics.title')}</h1>
        <p className="text-muted-foreground max-w-3xl text-lg">{t('statistics.lead')}</p>
        <div role="radiogroup" aria-label={t('statistics.periods.label')} className="flex flex-wrap gap-2">
          {PERIODS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={period === value}
              onClick={() => setPeriod(value)}
              className={
                period === value
                  ? 'bg-primary text-primary-foreground rounded-full px-4 py-1.5 text-sm font-medium'
                  : 'hover:bg-accent rounded-full border px-4 py-1.5 text-sm font-medium'
              }
            >
              {t(label)}
            </button>
          ))}
        </div>
        {data && (
          <p className="text-muted-foreground text-sm">
            {t('statistics.range', { from: formatDate(data.from), to: formatDate(data.to) })}
          </p>
        )}
      </header>

      {stats.isError && <p className="text-destructive">{errorMessage(stats.error)}</p>}
      {!data && !stats.isError && (
        <div
          className="flex flex-col gap-4"
          role="status"
          aria-busy="true"
          aria-label={t('statistics.loading')}
        >
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-[300px] w-full" />
        </div>
      )}
      {data && (
        <>
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="stats-totals">
            {[
              [t('statistics.totals.reports'), formatNumber(data.totals.reports)],
              [t('statistics.totals.verified'), formatNumber(data.totals.verified)],
              [t('statistics.totals.pending'), formatNumber(data.totals.pending)],
              data.totals.amount_lost == null
                ? [t('statistics.totals.lost'), t('statistics.amounts.fewerThan5Amounts')]
                : [
                    t('statistics.totals.lost'),
                    formatCompactAmount(data.totals.amount_lost),
                    formatAmount(data.totals.amount_lost),
                  ],
            ].map(([label, value, full]) => (
              <div key={label} className="bg-card min-w-0 rounded-xl border p-4">
                <dt className="text-muted-foreground text-sm">{label}</dt>
                <dd className="mt-1 text-xl font-semibold break-words tabular-nums sm:text-2xl" title={full}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>

          <Section title={t('statistics.overTime.title')} description={t('statistics.overTime.description')}>
            <WhenVisible fallback={chartFallback} testId="over-time-frame">
              <Suspense fallback={chartFallback}>
                <ReportsOverTimeChart key={period} stats={data} />
              </Suspense>
            </WhenVisible>
          </Section>

          <Section title={t('statistics.status.title')} description={t('statistics.status.description')}>
            <StatusShare stats={data} />
          </Section>

          <Section title={t('statistics.amounts.title')} description={t('statistics.amounts.description')}>
            <WhenVisible fallback={chartFallback} testId="amounts-frame">
              <Suspense fallback={chartFallback}>
                <AmountsChart stats={data} />
              </Suspense>
            </WhenVisible>
          </Section>

          <Section title={t('statistics.regions.title')} description={t('statistics.regions.description')}>
            <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
              {/* The map's own size, so nothing shifts when it mounts. */}
              <WhenVisible className="h-[420px] w-full" fallback={mapFallback} testId="regions-map-frame">
                <Suspense fallback={mapFallback}>
                  <RegionsMap regions={data.regions} dark={isDark} />
                </Suspense>
              </WhenVisible>
              <RegionsTable regions={data.regions} />
            </div>
          </Section>

          <Section title={t('statistics.top.title')} description={t('statistics.top.description')}>
            <TopIdentifiers items={data.top_identifiers} />
          </Section>

          <Section
            title={t('statistics.moderation.title')}
            description={t('statistics.moderation.description')}
          >
            <ModerationFigures />
          </Section>

          <Section title={t('statistics.download.title')} description={t('statistics.download.description')}>
            <div className="flex flex-col gap-3 text-sm leading-relaxed">
              <p>
                <Trans
                  i18nKey="statistics.download.files"
                  components={{
                    csv: <a className={link} href={openDataFiles.csv} download />,
                    json: <a className={link} href={openDataFiles.json} download />,
                  }}
                />
              </p>
              <p>
                <Trans i18nKey="statistics.download.columns" components={{ code: <code /> }} />
              </p>
              <p>{t('statistics.download.licence')}</p>
            </div>
          </Section>
        </>
      )}
    </div>
  );
}
