/**
 * Every news query sits under ['news'], so one invalidation after an add, edit or delete refreshes the
 * home page cards, the news list, the article page and the admin's list together.
 */
export const newsKeys = {
  all: ['news'] as const,
  lists: () => [...newsKeys.all, 'list'] as const,
  list: (filters: { limit?: number }) => [...newsKeys.lists(), filters] as const,
  details: () => [...newsKeys.all, 'detail'] as const,
  detail: (id: string) => [...newsKeys.details(), id] as const,
  adminLists: () => [...newsKeys.all, 'admin-list'] as const,
  adminList: (pageSize: number) => [...newsKeys.adminLists(), { pageSize }] as const,
};
