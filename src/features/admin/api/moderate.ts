import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { i18n } from '@/i18n';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

export type ModerationStatus = 'verified' | 'rejected' | 'pending' | 'removed';

/** The toast after a status change, in the reader's language. */
const moderatedMessage = {
  verified: 'admin.moderated.verified',
  rejected: 'admin.moderated.rejected',
  pending: 'admin.moderated.pending',
  removed: 'admin.moderated.removed',
} as const satisfies Record<ModerationStatus, string>;

/** public.set_report_status: admins only; the reporter is notified and sees the status in My Reports. */
export function useSetReportStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status }: { id: string; status: ModerationStatus }) => {
      const { error } = await supabase.rpc('set_report_status', { report_id: id, status });
      if (error) throw error;
      return status;
    },
    onSuccess: async (status) => {
      toast.success(i18n.t(moderatedMessage[status]));
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
  });
}

/** Marks a contact message handled (it leaves the inbox) or back to unhandled. */
export function useMarkMessageHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, handled }: { id: string; handled: boolean }) => {
      const { error } = await supabase
        .from('contact_messages')
        .update({ handled_at: handled ? new Date().toISOString() : null })
        .eq('id', id);
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.lists() }),
  });
}
