import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import type { PublicStatistics } from '../api/get-public-statistics';

/** Reports per region as a table: the map's figures for screen readers, with small counts hidden. */
export function RegionsTable({ regions }: { regions: PublicStatistics['regions'] }) {
  const { t } = useTranslation();
  const sorted = [...regions].sort(
    (a, b) => (b.count ?? (b.fewer_than_5 ? 1 : 0)) - (a.count ?? (a.fewer_than_5 ? 1 : 0)),
  );
  return (
    // Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable).
    <div
      className="max-h-[420px] overflow-auto rounded-lg border"
      tabIndex={0}
      role="region"
      aria-label={t('statistics.regions.label')}
    >
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="sr-only">{t('statistics.regions.caption')}</caption>
        <thead className="bg-muted sticky top-0">
          <tr>
            <th scope="col" className="px-3 py-2">
              {t('statistics.regions.region')}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t('statistics.regions.reports')}
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={r.code} className="border-t">
              <th scope="row" className="px-3 py-1.5 font-normal">
                {r.name}
              </th>
              <td className="px-3 py-1.5 text-right">
                {r.fewer_than_5 ? t('statistics.fewerThan5') : formatNumber(r.count ?? 0)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
