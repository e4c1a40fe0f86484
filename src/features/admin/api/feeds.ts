import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { i18n } from '@/i18n';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

/** public.review_takedown_report: approve a drafted XARF report for its abuse contact, or dismiss it. */
export function useReviewTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; decision: 'approve' | 'dismiss'; abuseContact?: string }) => {
      const { error } = await supabase.rpc('review_takedown_report', {
        report_id: input.id,
        decision: input.decision,
        abuse_contact: input.abuseContact,
      });
      if (error) throw error;
      return input.decision;
    },
    onSuccess: async (decision) => {
      toast.success(
        i18n.t(decision === 'approve' ? 'admin.takedowns.approved' : 'admin.takedowns.dismissed'),
      );
      await queryClient.invalidateQueries({ queryKey: adminKeys.lists() });
    },
  });
}

/** public.set_api_key_partner: mark a key as a partner organisation's (the TLP:AMBER feed), or unmark it. */
export function useSetPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; organisation: string | null }) => {
      const { error } = await supabase.rpc('set_api_key_partner', {
        key_id: input.id,
        organisation: input.organisation ?? '',
      });
      if (error) throw error;
      return input.organisation;
    },
    onSuccess: async (organisation) => {
      toast.success(i18n.t(organisation ? 'admin.partnerKeys.marked' : 'admin.partnerKeys.unmarked'));
      await queryClient.invalidateQueries({ queryKey: adminKeys.lists() });
    },
  });
}
