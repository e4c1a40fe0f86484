import { Outlet } from 'react-router-dom';
import { RequireAdmin } from '@/features/admin/components/require-admin';

/** The admin pages' parent: only admins get past it. */
export function AdminOutlet() {
  return (
    <RequireAdmin>
      <Outlet />
    </RequireAdmin>
  );
}
