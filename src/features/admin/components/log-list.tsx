import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/errors';
import type { Period } from '../api/logs';

export const selectClass =
  'border-input bg-background dark:bg-input/30 h-9 w-full min-w-0 rounded-md border px-2 text-sm shadow-xs focus-visible:ring-ring/50 focus-visible:ring-[3px] outline-none';

/** One labelled filter of a log list (label above its control; one column at 375 px). */
export function Filter({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex min-w-0 flex-col gap-1 text-xs font-medium">
      {label}
      {children}
    </label>
  );
}

/** The country code and period filters both lists share. */
export function CountryAndPeriod<F extends Period & { country: string }>({
  filters,
  set,
}: {
  filters: F;
  set: (patch: Partial<F>) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Filter label={t('admin.logFilters.country')}>
        <Input
          value={filters.country}
          maxLength={2}
          autoCapitalize="characters"
          className="uppercase"
          onChange={(e) => set({ country: e.target.value.replace(/[^a-z]/gi, '') } as Partial<F>)}
        />
      </Filter>
      <div className="grid min-w-0 grid-cols-2 gap-2 sm:col-span-2">
        <Filter label={t('admin.logFilters.from')}>
          <Input
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => set({ from: e.target.value } as Partial<F>)}
          />
        </Filter>
        <Filter label={t('admin.logFilters.to')}>
          <Input
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => set({ to: e.target.value } as Partial<F>)}
          />
        </Filter>
      </div>
    </>
  );
}

/**
 * The body of a log list: its filters, the rows (or why there are none), and "Show more" while the
 * last page was full.
 */
export function LogList<Row extends { id: string }>({
  filters,
  filtered,
  onClear,
  query,
  label,
  empty,
  noMatch,
  renderRow,
}: {
  filters: ReactNode;
  filtered: boolean;
  onClear: () => void;
  query: {
    data?: { pages: Row[][] };
    isError: boolean;
    error: unknown;
    hasNextPage: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: () => unknown;
  };
  label: string;
  empty: string;
  noMatch: string;
  renderRow: (row: Row) => ReactNode;
}) {
  const { t } = useTranslation();
  const rows = query.data?.pages.flat() ?? [];
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-6">
        {filters}
        <Button variant="outline" onClick={onClear} disabled={!filtered}>
          {t('admin.logFilters.clear')}
        </Button>
      </div>
      {query.isError ? (
        <p className="text-destructive">{errorMessage(query.error)}</p>
      ) : !query.data ? (
        <Skeleton className="h-96 w-full" aria-label={t('admin.logFilters.loading')} />
      ) : (
        <Card className="py-0">
          {rows.length === 0 ? (
            <p className="text-muted-foreground py-8 text-center">{filtered ? noMatch : empty}</p>
          ) : (
            <ul className="divide-y" aria-label={label}>
              {rows.map(renderRow)}
            </ul>
          )}
        </Card>
      )}
      {query.hasNextPage && (
        <Button
          variant="outline"
          className="self-center"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
        >
          {t('admin.logFilters.more')}
        </Button>
      )}
    </div>
  );
}
