export const statsKeys = {
  all: ['stats'] as const,
  user: (userId: string | undefined) => [...statsKeys.all, 'user', userId] as const,
};
