export const checkKeys = {
  all: ['check'] as const,
  rules: () => [...checkKeys.all, 'rules'] as const,
  /** Keyed by the identifiers looked up (never by the message). */
  lookups: (canonicals: string[]) => [...checkKeys.all, 'lookups', ...canonicals] as const,
  /** The owners' answers (issue 32), keyed the same way. */
  owners: (canonicals: string[]) => [...checkKeys.all, 'owners', ...canonicals] as const,
};
