/**
 * The /statistics charts (recharts, loaded with this module only when the page opens). Colours come
 * from the theme's --chart-* variables, so light and dark both read; every chart has a one-line
 * summary for screen readers and its figures as a table.
 */
import { useState } from 'react';
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
import { accountTypeLabel, formatAmount, incidentTypeLabel } from '@/lib/format';
import {
  ACCOUNT_TYPES,
  INCIDENT_TYPES,
  type PublicStatistics,
  type StatsPeriodRow,
} from '../api/get-public-statistics';
import { FigureTable } from './figure-table';

const COLORS = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)'];
const monthFormat = new Intl.DateTimeFormat('en-PH', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-PH', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const count = new Intl.NumberFormat('en-PH');

export function periodLabel(period: string, unit: 'week' | 'month'): string {
  const d = new Date(`${period}T00:00:00Z`);
  return unit === 'month' ? monthFormat.format(d) : `Week of ${dayFormat.format(d)}`;
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
    label: (k) => (k === 'verified' ? 'Verified' : 'Pending review'),
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
      ? 'No reports in this period.'
      : `${count.format(rows.reduce((n, r) => n + r.total, 0))} reports over ${rows.length} ${unit}s; the most in ${peak ? periodLabel(peak.period, unit) : ''} (${count.format(peak?.total ?? 0)}).`;
  return (
    <figure className="flex flex-col gap-3" aria-labelledby="over-time-caption">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Toggle
          label="Period length"
          value={unit}
          options={[
            ['week', 'Weekly'],
            ['month', 'Monthly'],
          ]}
          onChange={setUnit}
        />
        <Toggle
          label="Break down by"
          value={breakdown}
          options={[
            ['incident', 'By scam type'],
            ['account', 'By account type'],
            ['status', 'By status'],
          ]}
          onChange={setBreakdown}
        />
      </div>
      <div
        role="img"
        aria-label={`Bar chart of reports per ${unit}, by ${breakdown === 'incident' ? 'scam type' : breakdown === 'account' ? 'account type' : 'status'}. ${summary}`}
        className="text-muted-foreground"
      >
        <ResponsiveContainer width="100%" height={300}>
          <BarChart data={data} margin={{ top: 10, right: 10, left: -10, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
            <XAxis dataKey="label" tick={tick} interval="preserveStartEnd" minTickGap={16} />
            <YAxis allowDecimals={false} tick={tick} />
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
        caption={`Reports per ${unit}`}
        columns={[unit === 'week' ? 'Week' : 'Month', ...series.keys.map(series.label), 'Total']}
        rows={rows.map((r) => [
          periodLabel(r.period, unit),
          ...series.keys.map((k) => count.format(series.pick(r)[k] ?? 0)),
          count.format(r.total),
        ])}
      />
    </figure>
  );
}

/** Amounts reported lost per month: the total as bars, the median as a line (hidden below 5 amounts). */
export function AmountsChart({ stats }: { stats: PublicStatistics }) {
  const data = stats.amounts.map((a) => ({
    label: periodLabel(a.month, 'month'),
    total: a.total,
    median: a.median,
  }));
  const total = stats.amounts.reduce((n, a) => n + a.total, 0);
  const summary = `${formatAmount(total)} reported lost over ${stats.amounts.length} months.`;
  return (
    <figure className="flex flex-col gap-3" aria-labelledby="amounts-caption">
      <div
        role="img"
        aria-label={`Chart of the amount reported lost per month (total and median). ${summary}`}
        className="text-muted-foreground"
      >
        <ResponsiveContainer width="100%" height={280}>
          <ComposedChart data={data} margin={{ top: 10, right: 10, left: 10, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" className="stroke-border" vertical={false} />
            <XAxis dataKey="label" tick={tick} interval="preserveStartEnd" minTickGap={16} />
            <YAxis yAxisId="total" tick={tick} tickFormatter={(v: number) => compactPeso(v)} />
            <YAxis
              yAxisId="median"
              orientation="right"
              tick={tick}
              tickFormatter={(v: number) => compactPeso(v)}
            />
            <Tooltip
              contentStyle={tooltipStyle}
              formatter={(v) => (typeof v === 'number' ? formatAmount(v) : 'fewer than 5 amounts')}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar
              yAxisId="total"
              dataKey="total"
              name="Total lost"
              fill="var(--chart-1)"
              isAnimationActive={false}
            />
            <Line
              yAxisId="median"
              dataKey="median"
              name="Median per report"
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
        {summary} The median is the middle amount of the reports that gave one; it is left out for months with
        fewer than 5.
      </figcaption>
      <FigureTable
        caption="Amount reported lost per month"
        columns={['Month', 'Total lost', 'Median per report', 'Reports with an amount']}
        rows={stats.amounts.map((a) => [
          periodLabel(a.month, 'month'),
          formatAmount(a.total),
          a.median === null ? (a.fewer_than_5 ? 'fewer than 5 amounts' : '—') : formatAmount(a.median),
          a.fewer_than_5 ? 'fewer than 5' : count.format(a.reports_with_amount),
        ])}
      />
    </figure>
  );
}

const compactFormat = new Intl.NumberFormat('en-PH', { notation: 'compact', maximumFractionDigits: 1 });
function compactPeso(v: number): string {
  return `₱${compactFormat.format(v)}`;
}
