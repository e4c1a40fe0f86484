import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { useUser } from '@/lib/auth';
import { UnreadNotificationsBadge } from '@/features/notify/components/unread-notifications-badge';

/**
 * The dashboard shell with what the features add to it: the shared layout cannot import features
 * (STYLE.md), so the app hands it the Notify Me entry's unread count here.
 */
export function Component() {
  const user = useUser();
  return <DashboardLayout navBadges={{ notifyMe: <UnreadNotificationsBadge userId={user?.id} /> }} />;
}
