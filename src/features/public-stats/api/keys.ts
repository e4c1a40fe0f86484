import type { StatsPeriod } from './public-statistics-schema';

export type { StatsPeriod } from './public-statistics-schema';

export const publicStatsKeys = {
  all: ['public-stats'] as const,
  period: (period: StatsPeriod) => [...publicStatsKeys.all, period] as const,
};
