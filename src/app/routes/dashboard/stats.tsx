import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/errors';
import { useUser } from '@/lib/auth';
import { getUserStatsQueryOptions, useUserStats } from '@/features/stats/api/get-user-stats';
import { MonthlyChart } from '@/features/stats/components/monthly-chart';
import { StatsCards } from '@/features/stats/components/stats-cards';
import { supabase } from '@/lib/supabase';
import { PageHeader } from '@/components/layouts/page-header';

export const clientLoader = (queryClient: QueryClient) => async () => {
  const { data } = await supabase.auth.getSession();
  if (data.session) void queryClient.prefetchQuery(getUserStatsQueryOptions(data.session.user.id));
  return null;
};

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const stats = useUserStats(user?.id);
  return (
    <>
      <PageHeader title={t('dashboard.nav.stats')} description={t('stats.description')} />
      {stats.isError && <p className="text-destructive">{errorMessage(stats.error)}</p>}
      {stats.data ? (
        <div className="flex flex-col gap-6">
          <StatsCards stats={stats.data.defaultStats} />
          {/* docs/behaviour.md §2: the chart only shows with more than one month of data. */}
          {stats.data.monthlyApplications.length > 1 ? (
            <MonthlyChart data={stats.data.monthlyApplications} />
          ) : (
            <p className="text-muted-foreground rounded-lg border border-dashed p-6 text-center">
              {t('stats.chartLater')}
            </p>
          )}
        </div>
      ) : (
        !stats.isError && (
          <div
            className="grid grid-cols-1 gap-4 md:grid-cols-3"
            aria-busy="true"
            aria-label={t('stats.loading')}
          >
            <Skeleton className="h-28" />
            <Skeleton className="h-28" />
            <Skeleton className="h-28" />
          </div>
        )
      )}
    </>
  );
}
