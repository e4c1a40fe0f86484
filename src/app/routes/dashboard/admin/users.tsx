import { formatDate } from '@/lib/format';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

interface UserRow {
  id: string;
  name: string | null;
  email: string | null;
  created_at: string;
}

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
