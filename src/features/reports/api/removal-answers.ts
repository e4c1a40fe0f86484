import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { reportKeys } from './keys';

const requestSchema = z.object({
  id: z.string(),
  report_id: z.string(),
  reason: z.string(),
  status: z.enum(['open', 'report_removed', 'dismissed']),
  created_at: z.string(),
  answer_by: z.string().nullable(),
  reporter_response: z.string().nullable(),
  responded_at: z.string().nullable(),
  escalated_at: z.string().nullable(),
  decision: z.enum(['keep', 'hide', 'remove']).nullable(),
  decision_reason: z.string().nullable(),
  decision_note: z.string().nullable(),
  decided_at: z.string().nullable(),
  can_answer: z.boolean(),
});
export type ReportRemovalRequest = z.infer<typeof requestSchema>;

/** The reporter's answer: the database's own limits (1-5,000 characters, not all white space). */
export const answerSchema = z.object({
  answer: z
    .string()
    .trim()
    .min(1, { message: 'reports.removal.answerEmpty' })
    .max(5000, { message: 'reports.removal.answerLong' }),
});
export type AnswerInput = z.infer<typeof answerSchema>;

/**
 * Removal requests on the signed-in user's own reports (public.my_report_removal_requests: confirmed
 * ones only, without the requester's contact address), with the answer and the admins' decision.
 */
export function useReportRemovalRequests(userId: string | undefined) {
  return useQuery({
    queryKey: [...reportKeys.all, 'removal-requests', userId] as const,
    enabled: !!userId,
    queryFn: async () => {
      const { data, error } = await supabase.rpc('my_report_removal_requests');
      if (error) throw error;
      return z.array(requestSchema).parse(data);
    },
  });
}

/**
 * The reporter answers a request through public.answer_removal_request (the legacy API's answer calls
 * it too): the table shows a reporter no request rows, so the requester's address never reaches them.
 */
export function useAnswerRemovalRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, answer }: { id: string; answer: string }) => {
      const { error } = await supabase.rpc('answer_removal_request', {
        request_id: id,
        answer: answer.trim(),
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...reportKeys.all, 'removal-requests'] }),
  });
}
