import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { accountTypeLabel, formatCountry, formatDate } from '@/lib/format';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import { CountryAndPeriod, Filter, LogList, selectClass } from '@/features/admin/components/log-list';
import { useSearchLog, type SearchLogFilters, type SearchLogRow } from '@/features/admin/api/logs';

const KINDS = ['mobile', 'email', 'ewallet', 'crypto', 'website', 'social'] as const;
const NO_FILTERS: SearchLogFilters = { search: '', kind: '', country: '', results: '', from: '', to: '' };

function SearchItem({ row }: { row: SearchLogRow }) {
  const { t } = useTranslation();
  const origin = [row.city, row.region, row.country && formatCountry(row.country)].filter(Boolean).join(', ');
  return (
    <li className="flex flex-col gap-1 px-4 py-3 text-sm" data-testid="admin-search">
      <p className="font-medium break-all">{row.search_string}</p>
      <p className="text-muted-foreground flex flex-wrap gap-x-3 gap-y-1">
        <span className="whitespace-nowrap">{formatDate(row.created_at)}</span>
        <span>{row.identifier_kind ? accountTypeLabel(row.identifier_kind) : '—'}</span>
        <span className={row.result_count === 0 ? 'text-foreground font-medium' : undefined}>
          {t('admin.searches.resultCount', { count: row.result_count })}
        </span>
        <span>{origin || t('common.unknown')}</span>
        <span>{row.signed_in ? t('admin.logFilters.signedIn') : t('admin.logFilters.anonymous')}</span>
      </p>
    </li>
  );
}

/**
 * Admins' search history (issue 31): search by what was typed or the identifier it stands for, filter
 * by kind, result, country and period, newest first, 50 at a time (public.admin_search_log).
 */
export function Component() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<SearchLogFilters>(NO_FILTERS);
  const deferred = useDeferredValue(filters);
  const query = useSearchLog(deferred);
  const set = (patch: Partial<SearchLogFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.searches.title')} description={t('admin.searches.description')} />
      <LogList<SearchLogRow>
        query={query}
        filtered={filtered}
        onClear={() => setFilters(NO_FILTERS)}
        label={t('admin.searches.listLabel')}
        empty={t('admin.searches.empty')}
        noMatch={t('admin.searches.noMatch')}
        renderRow={(row) => <SearchItem key={row.id} row={row} />}
        filters={
          <>
            <Filter label={t('admin.searches.search')}>
              <Input
                type="search"
                maxLength={256}
                value={filters.search}
                onChange={(e) => set({ search: e.target.value })}
              />
            </Filter>
            <Filter label={t('admin.searches.kind')}>
              <select
                className={selectClass}
                value={filters.kind}
                onChange={(e) => set({ kind: e.target.value })}
              >
                <option value="">{t('admin.searches.kindAny')}</option>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {accountTypeLabel(k)}
                  </option>
                ))}
              </select>
            </Filter>
            <Filter label={t('admin.searches.results')}>
              <select
                className={selectClass}
                value={filters.results}
                onChange={(e) => set({ results: e.target.value as SearchLogFilters['results'] })}
              >
                <option value="">{t('admin.searches.resultsAny')}</option>
                <option value="none">{t('admin.searches.resultsNone')}</option>
                <option value="some">{t('admin.searches.resultsSome')}</option>
              </select>
            </Filter>
            <CountryAndPeriod filters={filters} set={set} />
          </>
        }
      />
    </>
  );
}
