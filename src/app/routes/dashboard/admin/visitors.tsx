import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { formatCountry, formatDate } from '@/lib/format';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import { CountryAndPeriod, Filter, LogList } from '@/features/admin/components/log-list';
import { useVisitorLog, type VisitorLogFilters, type VisitorLogRow } from '@/features/admin/api/logs';

const NO_FILTERS: VisitorLogFilters = { search: '', place: '', country: '', from: '', to: '' };

function VisitItem({ row }: { row: VisitorLogRow }) {
  const { t } = useTranslation();
  const place = [row.city, row.region].filter(Boolean).join(', ');
  return (
    <li className="flex flex-col gap-1 px-4 py-3 text-sm" data-testid="admin-visit">
      <p className="font-medium break-all">{row.path || '—'}</p>
      <p className="text-muted-foreground flex flex-wrap gap-x-3 gap-y-1">
        <span className="whitespace-nowrap">{formatDate(row.created_at)}</span>
        <span>{place || t('common.unknown')}</span>
        <span>{formatCountry(row.country)}</span>
        <span>{row.signed_in ? t('admin.logFilters.signedIn') : t('admin.logFilters.anonymous')}</span>
      </p>
    </li>
  );
}

/**
 * Admins' visitors (issue 31): search by page, filter by place, country and period, newest first, 50 at
 * a time (public.admin_visitor_log).
 */
export function Component() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<VisitorLogFilters>(NO_FILTERS);
  const deferred = useDeferredValue(filters);
  const query = useVisitorLog(deferred);
  const set = (patch: Partial<VisitorLogFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.visitors.title')} description={t('admin.visitors.description')} />
      <LogList<VisitorLogRow>
        query={query}
        filtered={filtered}
        onClear={() => setFilters(NO_FILTERS)}
        label={t('admin.visitors.listLabel')}
        empty={t('admin.visitors.empty')}
        noMatch={t('admin.visitors.noMatch')}
        renderRow={(row) => <VisitItem key={row.id} row={row} />}
        filters={
          <>
            <Filter label={t('admin.visitors.search')}>
              <Input
                type="search"
                maxLength={300}
                value={filters.search}
                onChange={(e) => set({ search: e.target.value })}
              />
            </Filter>
            <Filter label={t('admin.visitors.place')}>
              <Input maxLength={200} value={filters.place} onChange={(e) => set({ place: e.target.value })} />
            </Filter>
            <CountryAndPeriod filters={filters} set={set} />
          </>
        }
      />
    </>
  );
}
