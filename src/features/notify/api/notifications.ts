import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/types/database.types';
import { notifyKeys } from './keys';

export type AppNotification = Pick<
  Tables<'notifications'>,
  'id' | 'kind' | 'report_id' | 'identifier' | 'read_at' | 'created_at'
>;

/** The latest notifications the database created for the user (RLS: their own). */
export async function getNotifications(): Promise<AppNotification[]> {
  const { data, error } = await supabase
    .from('notifications')
    .select('id, kind, report_id, identifier, read_at, created_at')
    .order('created_at', { ascending: false })
    .limit(50);
  if (error) throw error;
  return data ?? [];
}

export function getNotificationsQueryOptions(userId: string | undefined) {
  return queryOptions({
    queryKey: notifyKeys.notifications(userId),
    queryFn: getNotifications,
    enabled: !!userId,
    // Other people's reports create these at any time: look again on each visit and every 30 s.
    staleTime: 0,
    refetchInterval: 30_000,
  });
}

export function useNotifications(userId: string | undefined) {
  return useQuery(getNotificationsQueryOptions(userId));
}

/** Marks one notification, or all unread ones (no id), as read. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id?: string) => {
      let query = supabase
        .from('notifications')
        .update({ read_at: new Date().toISOString() })
        .is('read_at', null);
      if (id) query = query.eq('id', id);
      const { error } = await query;
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notifyKeys.notificationsAll() }),
  });
}
