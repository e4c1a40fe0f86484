import { useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

export interface ReportSignal {
  report_id: string;
  /** The account was younger than 30 days, or had no verified report, when it filed (issue 27). */
  young_account: boolean;
  /** Other reporters of the same identifier who filed or signed up from the same /24 or /64. */
  shared_network_reporters: number;
  network_known: boolean;
}

/**
 * public.report_signals (admins only): a signal for review, not a block, of one pending report. The
 * moderation workspace (issue 31) may batch these; the queue asks per row.
 */
export function useReportSignal(reportId: string) {
  return useQuery({
    queryKey: [...adminKeys.all, 'report-signal', reportId],
    queryFn: async (): Promise<ReportSignal | null> => {
      const { data, error } = await supabase.rpc('report_signals', { report_ids: [reportId] });
      if (error) throw error;
      return ((data as ReportSignal[] | null) ?? [])[0] ?? null;
    },
    staleTime: 60_000,
  });
}
