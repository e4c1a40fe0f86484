import type { PublicStatistics } from '../api/get-public-statistics';

const count = new Intl.NumberFormat('en-PH');

/** Verified against pending (not yet reviewed) reports, as a single stacked bar with the shares in words. */
export function StatusShare({ stats }: { stats: PublicStatistics }) {
  const { verified, pending, reports } = stats.totals;
  const pct = (n: number) => (reports > 0 ? Math.round((100 * n) / reports) : 0);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        <span className="font-semibold">{pct(verified)}% verified</span> ({count.format(verified)}),{' '}
        <span className="font-semibold">{pct(pending)}% pending review</span> ({count.format(pending)}) of{' '}
        {count.format(reports)} reports.
      </p>
      <div className="bg-muted flex h-4 w-full overflow-hidden rounded-full" aria-hidden="true">
        <div style={{ width: `${pct(verified)}%`, background: 'var(--chart-2)' }} />
        <div style={{ width: `${pct(pending)}%`, background: 'var(--chart-4)' }} />
      </div>
    </div>
  );
}
