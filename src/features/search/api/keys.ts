export const searchKeys = {
  all: ['search'] as const,
  results: () => [...searchKeys.all, 'results'] as const,
  /** Keyed by user too: signed-in users get more columns than anonymous visitors for the same string. */
  result: (searchString: string, userId: string | null) =>
    [...searchKeys.results(), searchString, userId] as const,
};
