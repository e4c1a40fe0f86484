/**
 * Query keys of the admin's news pages. They sit under the public site's news root ['news']
 * (src/features/news/api/keys.ts, which a feature may not import), so one invalidation after an
 * add, edit or delete refreshes the home page cards, the news list, the article page and this list.
 */
export const addNewsKeys = {
  all: ['news'] as const,
  lists: () => [...addNewsKeys.all, 'admin-list'] as const,
  list: (pageSize: number) => [...addNewsKeys.lists(), { pageSize }] as const,
};
