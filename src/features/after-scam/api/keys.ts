/** Query keys of the after-scam help (STYLE.md: one key factory per feature). */
export const afterScamKeys = {
  all: ['after-scam'] as const,
  steps: () => [...afterScamKeys.all, 'steps'] as const,
};
