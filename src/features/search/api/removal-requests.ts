import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
// Loaded on demand: this module is part of the results page's first load, which runs without supabase-js
// until a signed-in user acts (src/lib/load-supabase.ts).
import { loadSupabase } from '@/lib/load-supabase';

export const removalRequestKeys = {
  all: ['removal-requests'] as const,
  mine: (userId: string | undefined) => [...removalRequestKeys.all, 'mine', userId] as const,
};

/** What the public removal form asks (public.removal_requests' own limits). */
export const removalRequestSchema = z.object({
  reportId: z.string().uuid({ message: 'removal.form.chooseReport' }),
  reason: z
    .string()
    .trim()
    .min(10, { message: 'removal.form.reasonShort' })
    .max(5000, { message: 'removal.form.reasonLong' }),
  contactEmail: z.string().trim().email({ message: 'removal.form.emailInvalid' }).max(320),
});
export type RemovalRequestInput = z.infer<typeof removalRequestSchema>;

const mineSchema = z.array(
  z.object({
    id: z.string(),
    report_id: z.string(),
    status: z.string(),
    created_at: z.string(),
    contact_confirmed_at: z.string().nullable(),
    decision: z.enum(['keep', 'hide', 'remove']).nullable(),
    decision_reason: z.string().nullable(),
    decision_note: z.string().nullable(),
  }),
);
export type MyRemovalRequest = z.infer<typeof mineSchema>[number];

/** The signed-in user's own removal requests (RLS: the requester reads theirs), newest first. */
export function useMyRemovalRequests(userId: string | undefined) {
  return useQuery({
    queryKey: removalRequestKeys.mine(userId),
    enabled: !!userId,
    queryFn: async () => {
      const supabase = await loadSupabase();
      const { data, error } = await supabase
        .from('removal_requests')
        .select(
          'id, report_id, status, created_at, contact_confirmed_at, decision, decision_reason, decision_note',
        )
        .eq('requester_id', userId!)
        .order('created_at', { ascending: false })
        .limit(50);
      if (error) throw error;
      return mineSchema.parse(data);
    },
  });
}

/**
 * Files a removal request (the same row the legacy API files): the contact address gets a confirmation
 * link by e-mail, and only once it is confirmed is the reporter told (docs/behaviour.md §11).
 */
export function useFileRemovalRequest(userId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: RemovalRequestInput) => {
      const supabase = await loadSupabase();
      const { error } = await supabase.from('removal_requests').insert({
        report_id: v.reportId,
        requester_id: userId,
        reason: v.reason.trim(),
        contact_email: v.contactEmail.trim(),
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: removalRequestKeys.all }),
  });
}
