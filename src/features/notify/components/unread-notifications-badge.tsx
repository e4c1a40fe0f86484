import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { useUnreadNotificationCount } from '../api/get-unread-notification-count';

/** What the badge shows: the count, or '99+' when it would not fit. */
export function unreadBadgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The signed-in user's unread notifications as a small count for the sidebar's Notify Me entry;
 * nothing while there are none (or the count is not known yet). Screen readers hear the full number,
 * after the link's own name: 'Notify Me 3 unread notifications'.
 */
export function UnreadNotificationsBadge({ userId }: { userId: string | undefined }) {
  const { t } = useTranslation();
  const unread = useUnreadNotificationCount(userId);
  const count = unread.data ?? 0;
  if (count === 0) return null;
  return (
    <Badge
      variant="destructive"
      className="ml-auto min-w-5 rounded-full px-1.5 tabular-nums"
      data-testid="unread-notifications-badge"
    >
      <span aria-hidden>{unreadBadgeText(count)}</span>
      {/* Chrome puts a space between the link's text and the badge by itself; the leading one covers browsers that do not. */}
      <span className="sr-only">{` ${t('notify.badge', { count })}`}</span>
    </Badge>
  );
}
