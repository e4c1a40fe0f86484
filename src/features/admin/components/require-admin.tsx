import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { paths } from '@/config/paths';
import { useCurrentProfile } from '@/lib/auth';

/**
 * The admin pages for admins only (docs/behaviour.md §6): anyone else gets 'You are not authorized to
 * view this page' and goes to /dashboard. The role comes from the database; the data behind these
 * pages is refused by RLS and the admin RPCs regardless.
 */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const refused = profile.isError || (profile.isSuccess && !profile.data.isAdmin);

  useEffect(() => {
    if (refused) toast.error(t('admin.notAuthorized'), { id: 'not-authorized' });
  }, [refused, t]);

  if (refused) return <Navigate to={paths.dashboard.root.getHref()} replace />;
  if (!profile.data) {
    return (
      <div role="status" aria-live="polite" className="text-muted-foreground p-8 text-center">
        {t('admin.checkingAccess')}
      </div>
    );
  }
  return <>{children}</>;
}
