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
  return (
    <>
      <BackToAdmin />
      <PageHeader
        title="Search History"
        description="Every search, newest first; no IP addresses are kept."
      />
      <PagedList<SearchRow>
        name="searches"
        empty="Nobody has searched yet."
        columns={[
          { header: 'When', cell: (r) => formatDate(r.created_at), className: 'whitespace-nowrap' },
          {
            header: 'Searched for',
            cell: (r) => r.search_string,
            className: 'max-w-64 truncate font-medium',
          },
          {
            header: 'Kind',
            cell: (r) => (r.identifier_kind ? accountTypeLabel(r.identifier_kind) : '—'),
          },
          { header: 'Results', cell: (r) => r.result_count },
          {
            header: 'From',
            cell: (r) =>
              r.city || r.country
                ? [r.city, r.country && formatCountry(r.country)].filter(Boolean).join(', ')
                : 'Unknown',
          },
        ]}
      />
    </>
  );
}
