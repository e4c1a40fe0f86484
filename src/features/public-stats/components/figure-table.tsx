import { useTranslation } from 'react-i18next';

/**
 * The text alternative of a chart: the same figures as a table, folded away under a disclosure so
 * that screen-reader and keyboard users (and anyone who wants the numbers) get every value.
 */
export function FigureTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: string[];
  rows: (string | number)[][];
}) {
  const { t } = useTranslation();
  return (
    <details className="mt-3 text-sm">
      <summary className="text-muted-foreground hover:text-foreground cursor-pointer">
        {t('statistics.showTable')}
      </summary>
      <div
        className="mt-2 max-h-80 overflow-auto rounded-md border"
        tabIndex={0}
        role="region"
        aria-label={caption}
      >
        <table className="w-full text-left tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-muted sticky top-0">
            <tr>
              {columns.map((c, i) => (
                <th key={c} scope="col" className={i === 0 ? 'px-3 py-2' : 'px-3 py-2 text-right'}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row[0])} className="border-t">
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-3 py-1.5 font-normal">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="px-3 py-1.5 text-right">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
