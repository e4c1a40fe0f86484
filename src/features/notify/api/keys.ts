export const notifyKeys = {
  all: ['notify'] as const,
  registrations: (userId: string | undefined) => [...notifyKeys.all, 'registrations', userId] as const,
  notifications: (userId: string | undefined) => [...notifyKeys.all, 'notifications', userId] as const,
};
