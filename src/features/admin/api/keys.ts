export const adminKeys = {
  all: ['admin'] as const,
  stats: () => [...adminKeys.all, 'stats'] as const,
  lists: () => [...adminKeys.all, 'list'] as const,
  list: (table: string, page: number) => [...adminKeys.lists(), table, page] as const,
};
