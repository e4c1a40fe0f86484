import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

export type ModerationStatus = 'verified' | 'rejected' | 'pending' | 'removed';

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
      toast.success(status === 'verified' ? 'Report verified' : `Report ${status}`);
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
