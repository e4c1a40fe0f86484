import { lazy, Suspense, useState, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Skeleton } from '@/components/ui/skeleton';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/errors';
import { formatAmount, formatDate } from '@/lib/format';
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

// recharts and deck.gl load only with this page, after its figures (issue 6's budget for the home page).
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

const PERIODS: [StatsPeriod, string][] = [
  ['last_30_days', 'Last 30 days'],
  ['last_12_months', 'Last 12 months'],
  ['all_time', 'All time'],
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

const chartFallback = <Skeleton className="h-[300px] w-full" aria-label="Loading chart" />;
const count = new Intl.NumberFormat('en-PH');
const compactPeso = new Intl.NumberFormat('en-PH', {
  style: 'currency',
  currency: 'PHP',
  notation: 'compact',
  maximumFractionDigits: 1,
});

export function Component() {
  const [period, setPeriod] = useState<StatsPeriod>('last_12_months');
  const stats = usePublicStatistics(period);
  const { isDark } = useTheme();
  const data = stats.data;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">Scam statistics</h1>
        <p className="text-muted-foreground max-w-3xl text-lg">
          What people in the Philippines report to ScamCheck: how many reports, which kinds of scams, where
          victims report from and how much they lost. Counts include reports pending review; rejected and
          removed reports are left out.
        </p>
        <div role="radiogroup" aria-label="Date range" className="flex flex-wrap gap-2">
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
              {label}
            </button>
          ))}
        </div>
        {data && (
          <p className="text-muted-foreground text-sm">
            {formatDate(data.from)} to {formatDate(data.to)} (UTC).
          </p>
        )}
      </header>

      {stats.isError && <p className="text-destructive">{errorMessage(stats.error)}</p>}
      {!data && !stats.isError && (
        <div className="flex flex-col gap-4" role="status" aria-busy="true" aria-label="Loading statistics">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-[300px] w-full" />
        </div>
      )}
      {data && (
        <>
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="stats-totals">
            {[
              ['Reports', count.format(data.totals.reports)],
              ['Verified', count.format(data.totals.verified)],
              ['Pending review', count.format(data.totals.pending)],
              [
                'Reported lost',
                compactPeso.format(data.totals.amount_lost),
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

          <Section
            title="Reports over time"
            description="Every week or month of the range, empty ones as zero."
          >
            <Suspense fallback={chartFallback}>
              <ReportsOverTimeChart key={period} stats={data} />
            </Suspense>
          </Section>

          <Section
            title="Verified and pending"
            description="Verified reports were checked by a moderator; pending ones are not reviewed yet."
          >
            <StatusShare stats={data} />
          </Section>

          <Section
            title="Amounts reported lost"
            description="Per month, in Philippine pesos, as reporters gave them."
          >
            <Suspense fallback={chartFallback}>
              <AmountsChart stats={data} />
            </Suspense>
          </Section>

          <Section
            title="Where victims report from"
            description="Regions of the Philippines, from the reporter's approximate location. Regions with 1 to 4 reports show as “fewer than 5”."
          >
            <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
              <Suspense fallback={<Skeleton className="h-[420px] w-full" />}>
                <RegionsMap regions={data.regions} dark={isDark} />
              </Suspense>
              <RegionsTable regions={data.regions} />
            </div>
          </Section>

          <Section
            title="Most reported in the last 30 days"
            description="Identifiers with the most verified reports filed in the last 30 days (the same list for every range). Phone numbers and e-mail addresses are partly hidden."
          >
            <TopIdentifiers items={data.top_identifiers} />
          </Section>

          <Section
            title="Download data"
            description="Open data: the figures behind this page, per day, for anyone to reuse."
          >
            <div className="flex flex-col gap-3 text-sm leading-relaxed">
              <p>
                A daily export of the last 365 days, rebuilt every hour:{' '}
                <a className="text-primary underline underline-offset-4" href={openDataFiles.csv} download>
                  reports-daily.csv
                </a>{' '}
                and{' '}
                <a className="text-primary underline underline-offset-4" href={openDataFiles.json} download>
                  reports-daily.json
                </a>
                . The addresses stay the same.
              </p>
              <p>
                One row per UTC day, incident type, account type and status: <code>date</code> (YYYY-MM-DD),{' '}
                <code>incident_type</code> (scam, hacked, spam), <code>reported_account_type</code> (mobile,
                email, ewallet, crypto, website), <code>status</code> (verified, pending),{' '}
                <code>reports</code> (count) and <code>amount_lost_php</code> (sum of the amounts reported
                lost). Days and combinations without reports are left out. The JSON file carries the same rows
                under <code>rows</code> with the schema and licence.
              </p>
              <p>Licence: Creative Commons Attribution 4.0 (CC BY 4.0). Credit “ScamCheck”.</p>
            </div>
          </Section>
        </>
      )}
    </div>
  );
}
