import { queryOptions, useQuery } from '@tanstack/react-query';
// Loaded on demand: the results page shows these steps, and its first load runs without supabase-js.
import { loadSupabase } from '@/lib/load-supabase';
import type { Tables } from '@/types/database.types';
import { afterScamKeys } from './keys';

export type AfterScamStep = Tables<'after_scam_steps'>;

/** The "what to do now" steps in order of urgency (public.after_scam_steps: everyone reads, admins edit). */
export async function getAfterScamSteps(): Promise<AfterScamStep[]> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('after_scam_steps').select('*').order('position');
  if (error) throw error;
  return data;
}

export function getAfterScamStepsQueryOptions() {
  return queryOptions({
    queryKey: afterScamKeys.steps(),
    queryFn: getAfterScamSteps,
    staleTime: 60 * 60_000,
  });
}

export function useAfterScamSteps() {
  return useQuery(getAfterScamStepsQueryOptions());
}
