import { Trans } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import type { PublicStatistics } from '../api/get-public-statistics';

/** Verified against pending (not yet reviewed) reports, as a single stacked bar with the shares in words. */
export function StatusShare({ stats }: { stats: PublicStatistics }) {
  const { verified, pending, reports } = stats.totals;
  const pct = (n: number) => (reports > 0 ? Math.round((100 * n) / reports) : 0);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        <Trans
          i18nKey="statistics.status.share"
          values={{
            verifiedShare: pct(verified),
            verified: formatNumber(verified),
            pendingShare: pct(pending),
            pending: formatNumber(pending),
            reports: formatNumber(reports),
          }}
          components={{ strong: <span className="font-semibold" /> }}
        />
      </p>
      <div className="bg-muted flex h-4 w-full overflow-hidden rounded-full" aria-hidden="true">
        <div style={{ width: `${pct(verified)}%`, background: 'var(--chart-2)' }} />
        <div style={{ width: `${pct(pending)}%`, background: 'var(--chart-4)' }} />
      </div>
    </div>
  );
}
