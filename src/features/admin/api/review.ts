import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import type { Database } from '@/types/database.types';
import { adminKeys } from './keys';

type IncidentType = Database['public']['Enums']['incident_type'];
type AccountType = Database['public']['Enums']['reported_account_type'];

import { type ModerationReason } from '@/lib/moderation-reasons';

export { MODERATION_REASONS, type ModerationReason } from '@/lib/moderation-reasons';

export type Decision = 'verified' | 'rejected' | 'removed';

const reporterSchema = z
  .object({
    id: z.string(),
    account_created_at: z.string().nullable(),
    banned: z.boolean().nullable(),
    filed: z.number(),
    verified: z.number(),
    rejected: z.number(),
    removed: z.number(),
    pending: z.number(),
  })
  .nullable();
export type ReporterHistory = z.infer<typeof reporterSchema>;

const queueReportSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  incident_date: z.string(),
  incident_type: z.enum(['scam', 'hacked', 'spam']),
  reported_account_type: z.enum(['mobile', 'email', 'ewallet', 'crypto', 'website']),
  reported_account: z.string(),
  incident_description: z.string().nullable(),
  amount_lost: z.number().nullable(),
  location: z.string().nullable(),
  country: z.string().nullable(),
  evidence_path: z.string().nullable(),
  source: z.string().nullable(),
  reporter: reporterSchema,
  /** Issue 27's public.report_signals for this report (null when it has no provenance row). */
  signal: z
    .object({ young_account: z.boolean(), shared_network_reporters: z.number() })
    .nullable()
    .optional(),
});
export type QueueReport = z.infer<typeof queueReportSchema>;

const queueSchema = z.object({
  backlog: z.number(),
  groups: z.array(
    z.object({
      identifier: z.string(),
      oldest: z.string(),
      report_count: z.number(),
      verified_count: z.number(),
      reports: z.array(queueReportSchema),
      verified: z.array(
        z.object({
          id: z.string(),
          created_at: z.string(),
          incident_type: z.string(),
          incident_description: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type ReviewQueue = z.infer<typeof queueSchema>;
export type QueueGroup = ReviewQueue['groups'][number];

export interface QueueFilters {
  search: string;
  incidentType: IncidentType | '';
  accountType: AccountType | '';
  minAgeDays: number | null;
  hasEvidence: boolean | null;
  region: string;
  sort: 'oldest' | 'most_reported';
}

export const emptyFilters: QueueFilters = {
  search: '',
  incidentType: '',
  accountType: '',
  minAgeDays: null,
  hasEvidence: null,
  region: '',
  sort: 'oldest',
};

export const reviewKeys = {
  queue: (f: QueueFilters) => [...adminKeys.all, 'review-queue', f] as const,
  log: () => [...adminKeys.all, 'moderation-log'] as const,
};

/** public.admin_review_queue: pending reports grouped by identifier, with reporter history. */
export function useReviewQueue(filters: QueueFilters) {
  return useQuery({
    queryKey: reviewKeys.queue(filters),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_review_queue', {
        search: filters.search.trim() || undefined,
        incident_type: filters.incidentType || undefined,
        account_type: filters.accountType || undefined,
        min_age_days: filters.minAgeDays ?? undefined,
        has_evidence: filters.hasEvidence ?? undefined,
        region: filters.region.trim() || undefined,
        sort: filters.sort,
      });
      if (error) throw error;
      return queueSchema.parse(data);
    },
    placeholderData: keepPreviousData,
  });
}

/** A row of the moderation log that public.moderate_reports returns. */
export type LoggedDecision = Pick<
  Database['public']['Functions']['moderate_reports']['Returns'][number],
  'id' | 'report_id' | 'identifier' | 'from_status' | 'to_status' | 'reason'
>;

/** public.moderate_reports: one decision for one or more reports; returns the log rows (for undo). */
export function useModerateReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { ids: string[]; status: Decision; reason?: ModerationReason; note?: string }) => {
      const { data, error } = await supabase.rpc('moderate_reports', {
        report_ids: v.ids,
        status: v.status,
        reason: v.reason,
        note: v.note?.trim() || undefined,
      });
      if (error) throw error;
      return data ?? [];
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** public.undo_moderation for each decision given (newest first, so a report's latest goes first). */
export function useUndoDecisions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (logIds: number[]) => {
      for (const id of [...logIds].sort((a, b) => b - a)) {
        const { error } = await supabase.rpc('undo_moderation', { log_id: id });
        if (error) throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

const logEntrySchema = z.object({
  id: z.number(),
  report_id: z.string(),
  identifier: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  from_status: z.string(),
  to_status: z.string(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  undo_of: z.number().nullable(),
  undone_by_log_id: z.number().nullable(),
  created_at: z.string(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** public.admin_moderation_log: the latest decisions, who made them and whether they were undone. */
export function useModerationLog() {
  return useQuery({
    queryKey: reviewKeys.log(),
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_moderation_log', { max_rows: 30 });
      if (error) throw error;
      return z.array(logEntrySchema).parse(data);
    },
  });
}
