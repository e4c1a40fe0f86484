import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMonth, formatNumber } from '@/lib/format';
import { fillPeriods } from '@/lib/periods';
import type { UserStats } from '../api/get-user-stats';

/** docs/behaviour.md §9: the chart is 300 high with bars 75 wide. */
export const CHART_HEIGHT = 300;
export const BAR_SIZE = 75;

/** 'Nov 2026' ('Nob 2026'), in the reader's language. */
function monthLabel(yyyyMm: string): string {
  const date = new Date(`${yyyyMm}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? yyyyMm : formatMonth(date);
}

/** The monthly reports chart, toggling between bars and an area (docs/behaviour.md §4). */
export function MonthlyChart({ data }: { data: UserStats['monthlyApplications'] }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'bar' | 'area'>('bar');
  // Every month from the first with reports to this one, empty months as zero: a gap must read as one.
  const months = data.length
    ? fillPeriods(data, {
        key: (d) => d.date,
        from: new Date(
          `${data.reduce((min, d) => (d.date < min ? d.date : min), data[0].date)}-01T00:00:00Z`,
        ),
        to: new Date(),
        unit: 'month',
        empty: (p) => ({ date: p.slice(0, 7), count: 0 }),
      })
    : [];
  const points = months.map((d) => ({ month: monthLabel(d.date), count: d.count }));
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" className="stroke-border" />
      <XAxis dataKey="month" tick={{ fill: 'currentColor', fontSize: 12 }} />
      <YAxis
        allowDecimals={false}
        tickFormatter={(value: number) => formatNumber(value)}
        tick={{ fill: 'currentColor', fontSize: 12 }}
      />
      <Tooltip
        formatter={(value) => formatNumber(Number(value))}
        contentStyle={{ background: 'var(--popover)', color: 'var(--popover-foreground)', borderRadius: 8 }}
      />
    </>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('stats.chart.title')}</h2>
        </CardTitle>
        <CardDescription>{t('stats.chart.description')}</CardDescription>
        <CardAction>
          <Button variant="outline" size="sm" onClick={() => setKind((k) => (k === 'bar' ? 'area' : 'bar'))}>
            {kind === 'bar' ? t('stats.chart.area') : t('stats.chart.bar')}
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent className="text-muted-foreground" data-testid={`chart-${kind}`}>
        <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
          {kind === 'bar' ? (
            <BarChart data={points} margin={{ top: 10, right: 10, left: -10 }}>
              {axes}
              <Bar
                dataKey="count"
                name={t('stats.chart.series')}
                barSize={BAR_SIZE}
                fill="var(--primary)"
                radius={[4, 4, 0, 0]}
              />
            </BarChart>
          ) : (
            <AreaChart data={points} margin={{ top: 10, right: 10, left: -10 }}>
              {axes}
              <Area
                type="monotone"
                dataKey="count"
                name={t('stats.chart.series')}
                stroke="var(--primary)"
                fill="var(--primary)"
                fillOpacity={0.25}
              />
            </AreaChart>
          )}
        </ResponsiveContainer>
      </CardContent>
    </Card>
  );
}
