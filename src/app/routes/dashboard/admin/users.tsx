import type { Tables } from '@/types/database.types';
import { formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type UserRow = Pick<Tables<'profiles'>, 'id' | 'name' | 'email' | 'created_at'>;

export function Component() {
  return (
    <>
      <BackToAdmin />
      <PageHeader title="Registered Users" />
      <PagedList<UserRow>
        name="users"
        empty="No users yet."
        columns={[
          { header: 'Name', cell: (r) => r.name || '—' },
          { header: 'Email', cell: (r) => r.email || '—', className: 'max-w-64 truncate' },
          { header: 'Joined', cell: (r) => formatDate(r.created_at) },
        ]}
      />
    </>
  );
}
