import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDate, formatNumber } from '@/lib/format';
import {
  useModerationStatistics,
  type ModerationPeriod,
} from '@/features/public-stats/api/moderation-statistics';

/** Hours as "N h" under two days, else "N days" (rounded), in the reader's language. */
function useDuration() {
  const { t } = useTranslation();
  return (hours: number | null) =>
    hours == null
      ? t('statistics.moderation.fewerThan5')
      : hours < 48
        ? t('statistics.moderation.hours', { count: hours })
        : t('statistics.moderation.days', { count: Math.round(hours / 24) });
}

/** The two periods shown, each with its title's key. */
const periods = [
  ['last_30_days', 'statistics.moderation.last30'],
  ['all_time', 'statistics.moderation.allTime'],
] as const satisfies readonly (readonly ['last_30_days' | 'all_time', string])[];

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="bg-card min-w-0 rounded-xl border p-4" data-testid={testId}>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * How moderation performs (issue 31): time from filing to decision (median and 90th percentile),
 * the share of outcomes, removal requests and their outcomes, and the backlog. Counts under 5 are
 * withheld, as in the rest of the figures.
 */
export function ModerationFigures() {
  const { t } = useTranslation();
  const stats = useModerationStatistics();
  const duration = useDuration();
  const count = (n: number | null) => (n == null ? t('statistics.moderation.fewerThan5') : formatNumber(n));
  const share = (p: ModerationPeriod, n: number | null) =>
    n == null || !p.decisions
      ? t('statistics.moderation.fewerThan5')
      : `${Math.round((n / p.decisions) * 100)}%`;
  if (stats.isError) return <p className="text-destructive">{errorMessage(stats.error)}</p>;
  if (!stats.data) return <Skeleton className="h-40 w-full" />;
  const s = stats.data;
  return (
    <div className="flex flex-col gap-6" data-testid="moderation-figures">
      {periods.map(([key, titleKey]) => {
        const p = s[key];
        const title = t(titleKey);
        return (
          <section key={key} aria-label={title}>
            <h3 className="mb-2 font-medium">{title}</h3>
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
              <Figure label={t('statistics.moderation.decisions')} value={count(p.decisions)} />
              <Figure label={t('statistics.moderation.median')} value={duration(p.median_hours)} />
              <Figure label={t('statistics.moderation.p90')} value={duration(p.p90_hours)} />
              <Figure label={t('statistics.moderation.verified')} value={share(p, p.verified)} />
              <Figure label={t('statistics.moderation.rejected')} value={share(p, p.rejected)} />
              <Figure label={t('statistics.moderation.removed')} value={share(p, p.removed)} />
            </dl>
          </section>
        );
      })}
      <section aria-label={t('statistics.moderation.removals')}>
        <h3 className="mb-2 font-medium">{t('statistics.moderation.removals')}</h3>
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
          <Figure label={t('statistics.moderation.received')} value={count(s.removal_requests.received)} />
          <Figure label={t('statistics.moderation.open')} value={count(s.removal_requests.open)} />
          <Figure label={t('statistics.moderation.kept')} value={count(s.removal_requests.kept)} />
          <Figure label={t('statistics.moderation.hidden')} value={count(s.removal_requests.hidden)} />
          <Figure
            label={t('statistics.moderation.removedRequests')}
            value={count(s.removal_requests.removed)}
          />
        </dl>
      </section>
      <section aria-label={t('statistics.moderation.backlog')}>
        <h3 className="mb-2 font-medium">{t('statistics.moderation.backlog')}</h3>
        <dl className="grid grid-cols-2 gap-3">
          <Figure
            label={t('statistics.moderation.waiting')}
            value={count(s.backlog.pending)}
            testId="moderation-backlog"
          />
          <Figure
            label={t('statistics.moderation.oldest')}
            value={s.backlog.oldest_filed_at ? formatDate(s.backlog.oldest_filed_at) : '—'}
          />
        </dl>
      </section>
    </div>
  );
}
