import { useTranslation } from 'react-i18next';
import type { Tables } from '@/types/database.types';
import { accountTypeLabel, formatCountry, formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type SearchRow = Pick<
  Tables<'search_log'>,
  'id' | 'search_string' | 'identifier_kind' | 'result_count' | 'city' | 'country' | 'created_at'
>;

export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.searches.title')} description={t('admin.searches.description')} />
      <PagedList<SearchRow>
        name="searches"
        empty={t('admin.searches.empty')}
        columns={[
          {
            header: t('admin.columns.when'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap',
          },
          {
            header: t('admin.columns.searchedFor'),
            cell: (r) => r.search_string,
            className: 'max-w-64 truncate font-medium',
          },
          {
            header: t('admin.columns.kind'),
            cell: (r) => (r.identifier_kind ? accountTypeLabel(r.identifier_kind) : '—'),
          },
          { header: t('admin.columns.results'), cell: (r) => r.result_count },
          {
            header: t('admin.columns.origin'),
            cell: (r) =>
              r.city || r.country
                ? [r.city, r.country && formatCountry(r.country)].filter(Boolean).join(', ')
                : t('common.unknown'),
          },
        ]}
      />
    </>
  );
}
