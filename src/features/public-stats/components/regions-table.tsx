import type { PublicStatistics } from '../api/get-public-statistics';

const count = new Intl.NumberFormat('en-PH');

/** Reports per region as a table: the map's figures for screen readers, with small counts hidden. */
export function RegionsTable({ regions }: { regions: PublicStatistics['regions'] }) {
  const sorted = [...regions].sort(
    (a, b) => (b.count ?? (b.fewer_than_5 ? 1 : 0)) - (a.count ?? (a.fewer_than_5 ? 1 : 0)),
  );
  return (
    // Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable).
    <div
      className="max-h-[420px] overflow-auto rounded-lg border"
      tabIndex={0}
      role="region"
      aria-label="Reports per region"
    >
      <table className="w-full text-left text-sm tabular-nums">
        <caption className="sr-only">Reports per region of the Philippines</caption>
        <thead className="bg-muted sticky top-0">
          <tr>
            <th scope="col" className="px-3 py-2">
              Region
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Reports
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
                {r.fewer_than_5 ? 'fewer than 5' : count.format(r.count ?? 0)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
