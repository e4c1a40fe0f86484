export const publicStatsKeys = {
  all: ['public-stats'] as const,
  period: (period: StatsPeriod) => [...publicStatsKeys.all, period] as const,
};

export type StatsPeriod = 'last_30_days' | 'last_12_months' | 'all_time';
