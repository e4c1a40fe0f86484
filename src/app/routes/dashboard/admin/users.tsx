import { useTranslation } from 'react-i18next';
import type { Tables } from '@/types/database.types';
import { formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type UserRow = Pick<Tables<'profiles'>, 'id' | 'name' | 'email' | 'created_at'>;

export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.users.title')} />
      <PagedList<UserRow>
        name="users"
        empty={t('admin.users.empty')}
        columns={[
          { header: t('admin.columns.name'), cell: (r) => r.name || '—' },
          { header: t('admin.columns.email'), cell: (r) => r.email || '—', className: 'max-w-64 truncate' },
          { header: t('admin.columns.joined'), cell: (r) => formatDate(r.created_at) },
        ]}
      />
    </>
  );
}
