/**
 * The /statistics charts (recharts, loaded with this module only when the page opens). Colours come
 * from the theme's --chart-* variables, so light and dark both read; every chart has a one-line
 * summary for screen readers and its figures as a table.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Button } from '@/components/ui/button';
import { i18n } from '@/i18n';
import {
  accountTypeLabel,
  formatAmount,
  formatCompactAmount,
  formatDate,
  formatMonth,
  formatNumber,
  incidentTypeLabel,
} from '@/lib/format';
import {
  ACCOUNT_TYPES,
  INCIDENT_TYPES,
  type PublicStatistics,
  type StatsPeriodRow,
} from '../api/get-public-statistics';
import { FigureTable } from './figure-table';

const COLORS = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)'];
/** A week or month of the charts ('2026-11-01') in the reader's language: 'Nov 2026', 'Week of Nov 2, 2026'. */
export function periodLabel(period: string, unit: 'week' | 'month'): string {
  return unit === 'month'
    ? formatMonth(period)
    : i18n.t('statistics.overTime.weekOf', { date: formatDate(period) });
}

const tooltipStyle = {
  background: 'var(--popover)',
  color: 'var(--popover-foreground)',
  borderRadius: 8,
  border: '1px solid var(--border)',
};
const tick = { fill: 'currentColor', fontSize: 12 };

type Breakdown = 'incident' | 'account' | 'status';
const SERIES: Record<
  Breakdown,
  {
    keys: readonly string[];
    label: (k: string) => string;
    pick: (r: StatsPeriodRow) => Record<string, number>;
  }
> = {
  incident: {
    keys: INCIDENT_TYPES,
    label: (k) => incidentTypeLabel(k),
    pick: (r) => r.by_incident_type,
  },
  account: { keys: ACCOUNT_TYPES, label: (k) => accountTypeLabel(k), pick: (r) => r.by_account_type },
  status: {
    keys: ['verified', 'pending'],
    label: (k) =>
      k === 'verified' ? i18n.t('statistics.totals.verified') : i18n.t('statistics.totals.pending'),
    pick: (r) => r.by_status,
  },
};

function Toggle<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: [T, string][];
  onChange: (v: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-1">
      {options.map(([v, text]) => (
        <Button
          key={v}
          size="sm"
          variant={v === value ? 'default' : 'outline'}
          aria-pressed={v === value}
          onClick={() => onChange(v)}
        >
          {text}
        </Button>
      ))}
    </div>
  );
}

/** Reports per week or month, stacked by scam type, account type or status; every period shown. */
export function ReportsOverTimeChart({ stats }: { stats: PublicStatistics }) {
  const { t } = useTranslation();
  const [unit, setUnit] = useState<'week' | 'month'>(stats.period === 'last_30_days' ? 'week' : 'month');
  const [breakdown, setBreakdown] = useState<Breakdown>('incident');
  const rows = unit === 'week' ? stats.weekly : stats.monthly;
  const series = SERIES[breakdown];
  const data = rows.map((r) => ({ label: periodLabel(r.period, unit), ...series.pick(r) }));
  const peak = rows.reduce<StatsPeriodRow | null>(
    (best, r) => (!best || r.total > best.total ? r : best),
    null,
  );
  const summary =
    rows.length === 0
      ? t('statistics.overTime.none')
      : t(unit === 'week' ? 'statistics.overTime.summaryWeeks' : 'statistics.overTime.summaryMonths', {
          total: formatNumber(rows.reduce((n, r) => n + r.total, 0)),
          periods: formatNumber(rows.length),
          peak: peak ? periodLabel(peak.period, unit) : '',
          peakTotal: formatNumber(peak?.total ?? 0),
        });
  const breakdownName = {
    incident: t('statistics.overTime.incident'),
    account: t('statistics.overTime.account'),
    status: t('statistics.overTime.status'),
  }[breakdown];
  return (
    <figure className="flex flex-col gap-3" aria-labelledby="over-time-caption">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Toggle
          label={t('statistics.overTime.periodLength')}
          value={unit}
          options={[
            ['week', t('statistics.overTime.weekly')],
            ['month', t('statistics.overTime.monthly')],
          ]}
          onChange={setUnit}
        />
        <Toggle
          label={t('statistics.overTime.breakDownBy')}
          value={breakdown}
          options={[
            ['incident', t('statistics.overTime.byIncident')],
            ['account', t('statistics.overTime.byAccount')],
            ['status', t('statistics.overTime.byStatus')],
          ]}
          onChange={setBreakdown}
        />
      </div>
      <div
        role="img"
        aria-label={t(
          unit === 'week' ? 'statistics.overTime.chartWeeks' : 'statistics.overTime.chartMonths',
          {
            breakdown: breakdownName,
            summary,
          },
        )}
        className="text-muted-foreground"
      >
        <ResponsiveContainer width="100%" height={300}>
          <BarChart data={data} margin={{ top: 10, right: 10, left: -10, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
            <XAxis dataKey="label" tick={tick} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={tick} tickFormatter={(v: number) => formatNumber(v)} />
            <Tooltip contentStyle={tooltipStyle} cursor={{ fill: 'var(--muted)', opacity: 0.5 }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {series.keys.map((k, i) => (
              <Bar
                key={k}
                dataKey={k}
                name={series.label(k)}
                stackId="a"
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption id="over-time-caption" className="text-muted-foreground text-sm">
        {summary}
      </figcaption>
      <FigureTable
        caption={t(unit === 'week' ? 'statistics.overTime.tableWeeks' : 'statistics.overTime.tableMonths')}
        columns={[
          unit === 'week' ? t('statistics.overTime.week') : t('statistics.overTime.month'),
          ...series.keys.map(series.label),
          t('statistics.overTime.total'),
        ]}
        rows={rows.map((r) => [
          periodLabel(r.period, unit),
          ...series.keys.map((k) => formatNumber(series.pick(r)[k] ?? 0)),
          formatNumber(r.total),
        ])}
      />
    </figure>
  );
}

/** Amounts reported lost per month: the total as bars, the median as a line (hidden below 5 amounts). */
export function AmountsChart({ stats }: { stats: PublicStatistics }) {
  const { t } = useTranslation();
  const data = stats.amounts.map((a) => ({
    label: periodLabel(a.month, 'month'),
    total: a.total,
    median: a.median,
  }));
  const total = stats.amounts.reduce((n, a) => n + (a.total ?? 0), 0);
  const summary = t('statistics.amounts.summary', {
    amount: formatAmount(total),
    months: formatNumber(stats.amounts.length),
  });
  return (
    <figure className="flex flex-col gap-3" aria-labelledby="amounts-caption">
      <div
        role="img"
        aria-label={t('statistics.amounts.chart', { summary })}
        className="text-muted-foreground"
      >
        <ResponsiveContainer width="100%" height={280}>
          <ComposedChart data={data} margin={{ top: 10, right: 10, left: 10, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
            <XAxis dataKey="label" tick={tick} interval="preserveStartEnd" minTickGap={16} />
            <YAxis yAxisId="total" tick={tick} tickFormatter={(v: number) => formatCompactAmount(v)} />
            <YAxis
              yAxisId="median"
              orientation="right"
              tick={tick}
              tickFormatter={(v: number) => formatCompactAmount(v)}
            />
            <Tooltip
              contentStyle={tooltipStyle}
              formatter={(v) =>
                typeof v === 'number' ? formatAmount(v) : t('statistics.amounts.fewerThan5Amounts')
              }
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar
              yAxisId="total"
              dataKey="total"
              name={t('statistics.amounts.totalLost')}
              fill="var(--chart-1)"
              isAnimationActive={false}
            />
            <Line
              yAxisId="median"
              dataKey="median"
              name={t('statistics.amounts.median')}
              stroke="var(--chart-2)"
              strokeWidth={2}
              connectNulls={false}
              dot
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption id="amounts-caption" className="text-muted-foreground text-sm">
        {summary} {t('statistics.amounts.medianNote')}
      </figcaption>
      <FigureTable
        caption={t('statistics.amounts.table')}
        columns={[
          t('statistics.overTime.month'),
          t('statistics.amounts.totalLost'),
          t('statistics.amounts.median'),
          t('statistics.amounts.withAmount'),
        ]}
        rows={stats.amounts.map((a) => [
          periodLabel(a.month, 'month'),
          formatAmount(a.total),
          a.median === null
            ? a.fewer_than_5
              ? t('statistics.amounts.fewerThan5Amounts')
              : '—'
            : formatAmount(a.median),
          a.fewer_than_5 ? t('statistics.fewerThan5') : formatNumber(a.reports_with_amount),
        ])}
      />
    </figure>
  );
}
