/** Query keys of the signed-in user's reports (STYLE.md: one key factory per feature). */
export const reportKeys = {
  all: ['reports'] as const,
  lists: () => [...reportKeys.all, 'list'] as const,
  list: (userId: string | undefined) => [...reportKeys.lists(), userId] as const,
  details: () => [...reportKeys.all, 'detail'] as const,
  detail: (id: string) => [...reportKeys.details(), id] as const,
  /** A report as anyone signed in may see it ('View full report'). */
  fullReport: (id: string) => [...reportKeys.all, 'full', id] as const,
  evidence: (path: string) => [...reportKeys.all, 'evidence', path] as const,
};
