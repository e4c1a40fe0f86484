export const notifyKeys = {
  all: ['notify'] as const,
  registrations: (userId: string | undefined) => [...notifyKeys.all, 'registrations', userId] as const,
  /**
   * Everything read from public.notifications. Marking notifications read invalidates this prefix, so
   * the Notify Me list and the sidebar's unread badge change together.
   */
  notificationsAll: () => [...notifyKeys.all, 'notifications'] as const,
  notifications: (userId: string | undefined) => [...notifyKeys.notificationsAll(), 'list', userId] as const,
  unreadCount: (userId: string | undefined) =>
    [...notifyKeys.notificationsAll(), 'unread-count', userId] as const,
};
