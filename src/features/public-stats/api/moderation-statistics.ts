import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { publicStatsKeys } from './keys';

/** A count under 5 is withheld (null), as everywhere in the published figures. */
const masked = z.number().nullable();

const periodSchema = z.object({
  decisions: masked,
  verified: masked,
  rejected: masked,
  removed: masked,
  median_hours: z.number().nullable(),
  p90_hours: z.number().nullable(),
});

export const moderationStatisticsSchema = z.object({
  generated_at: z.string(),
  small_count_threshold: z.number(),
  last_30_days: periodSchema,
  all_time: periodSchema,
  removal_requests: z.object({
    received: masked,
    open: masked,
    kept: masked,
    hidden: masked,
    removed: masked,
  }),
  backlog: z.object({ pending: masked, oldest_filed_at: z.string().nullable() }),
});
export type ModerationStatistics = z.infer<typeof moderationStatisticsSchema>;
export type ModerationPeriod = ModerationStatistics['all_time'];

/** public.moderation_statistics (issue 31): from the moderation rollup, never by scanning reports. */
export function useModerationStatistics() {
  return useQuery({
    queryKey: [...publicStatsKeys.all, 'moderation'] as const,
    queryFn: async () => {
      const { data, error } = await supabase.rpc('moderation_statistics');
      if (error) throw error;
      return moderationStatisticsSchema.parse(data);
    },
    staleTime: 60_000,
  });
}
