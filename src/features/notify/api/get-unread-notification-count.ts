import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { notifyKeys } from './keys';

/**
 * How many of the signed-in user's notifications are unread (RLS: only their own rows count). A HEAD
 * request with an exact count: the number comes back in a header and no rows are sent.
 */
export async function getUnreadNotificationCount(): Promise<number> {
  const { count, error } = await supabase
    .from('notifications')
    .select('id', { count: 'exact', head: true })
    .is('read_at', null);
  if (error) throw error;
  return count ?? 0;
}

/** Other people's reports create notifications at any time: look again every minute and when the tab regains focus. */
export const UNREAD_COUNT_REFETCH_MS = 60_000;

export function getUnreadNotificationCountQueryOptions(userId: string | undefined) {
  return queryOptions({
    queryKey: notifyKeys.unreadCount(userId),
    queryFn: getUnreadNotificationCount,
    enabled: !!userId,
    staleTime: 0,
    refetchInterval: UNREAD_COUNT_REFETCH_MS,
    refetchOnWindowFocus: true,
  });
}

export function useUnreadNotificationCount(userId: string | undefined) {
  return useQuery(getUnreadNotificationCountQueryOptions(userId));
}
