import { useTranslation } from 'react-i18next';
import type { Tables } from '@/types/database.types';
import { formatCountry, formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type VisitorRow = Pick<Tables<'visitor_log'>, 'id' | 'path' | 'city' | 'region' | 'country' | 'created_at'>;

export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.visitors.title')} description={t('admin.visitors.description')} />
      <PagedList<VisitorRow>
        name="visitors"
        empty={t('admin.visitors.empty')}
        columns={[
          {
            header: t('admin.columns.when'),
            cell: (r) => formatDate(r.created_at),
            className: 'whitespace-nowrap',
          },
          { header: t('admin.columns.page'), cell: (r) => r.path || '—', className: 'max-w-64 truncate' },
          {
            header: t('admin.columns.city'),
            cell: (r) => [r.city, r.region].filter(Boolean).join(', ') || t('common.unknown'),
          },
          { header: t('admin.columns.country'), cell: (r) => formatCountry(r.country) },
        ]}
      />
    </>
  );
}
