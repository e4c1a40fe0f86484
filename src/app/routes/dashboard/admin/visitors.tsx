import type { Tables } from '@/types/database.types';
import { formatCountry, formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type VisitorRow = Pick<Tables<'visitor_log'>, 'id' | 'path' | 'city' | 'region' | 'country' | 'created_at'>;

export function Component() {
  return (
    <>
      <BackToAdmin />
      <PageHeader
        title="Visitor Stats"
        description="Visits with their approximate location, resolved on the server; no IP addresses are kept."
      />
      <PagedList<VisitorRow>
        name="visitors"
        empty="No visits recorded yet."
        columns={[
          { header: 'When', cell: (r) => formatDate(r.created_at), className: 'whitespace-nowrap' },
          { header: 'Page', cell: (r) => r.path || '—', className: 'max-w-64 truncate' },
          { header: 'City', cell: (r) => [r.city, r.region].filter(Boolean).join(', ') || 'Unknown' },
          { header: 'Country', cell: (r) => formatCountry(r.country) },
        ]}
      />
    </>
  );
}
