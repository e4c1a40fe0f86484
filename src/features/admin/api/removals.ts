import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import type { ModerationReason } from '@/lib/moderation-reasons';
import { adminKeys } from './keys';

export type RemovalDecision = 'keep' | 'hide' | 'remove';

const queueRowSchema = z.object({
  request_id: z.string(),
  report_id: z.string(),
  reported_account: z.string(),
  report_status: z.enum(['pending', 'verified', 'rejected', 'removed']),
  request_status: z.string(),
  reason: z.string(),
  contact_email: z.string(),
  requested_at: z.string(),
  contact_confirmed_at: z.string().nullable(),
  deadline: z.string().nullable(),
  reporter_response: z.string().nullable(),
  responded_at: z.string().nullable(),
  escalated_at: z.string().nullable(),
});
export type RemovalQueueRow = z.infer<typeof queueRowSchema>;

const decisionRowSchema = z.object({
  request_id: z.string(),
  report_id: z.string(),
  reported_account: z.string(),
  decision: z.enum(['keep', 'hide', 'remove']).nullable(),
  decision_reason: z.string().nullable(),
  decision_note: z.string().nullable(),
  decided_at: z.string(),
  decided_by_email: z.string().nullable(),
});
export type RemovalDecisionRow = z.infer<typeof decisionRowSchema>;

export const removalKeys = {
  queue: () => [...adminKeys.all, 'removal-queue'] as const,
  decisions: () => [...adminKeys.all, 'removal-decisions'] as const,
};

/** public.admin_removal_queue (issue 27): open and escalated requests, oldest deadline first. */
export function useRemovalQueue() {
  return useQuery({
    queryKey: removalKeys.queue(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_removal_queue');
      if (error) throw error;
      return z.array(queueRowSchema).parse(data ?? []);
    },
  });
}

/** public.admin_removal_decisions: the latest decided requests. */
export function useRemovalDecisions() {
  return useQuery({
    queryKey: removalKeys.decisions(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_removal_decisions', { max_rows: 10 });
      if (error) throw error;
      return z.array(decisionRowSchema).parse(data ?? []);
    },
  });
}

/** public.decide_removal_request: keep, hide or remove, with a reason both sides see. */
export function useDecideRemoval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: {
      requestId: string;
      decision: RemovalDecision;
      reason: ModerationReason;
      note?: string;
    }) => {
      const { error } = await supabase.rpc('decide_removal_request', {
        request_id: v.requestId,
        decision: v.decision,
        reason: v.reason,
        note: v.note?.trim() || undefined,
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
