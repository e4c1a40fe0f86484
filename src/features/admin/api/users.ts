import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

export const USERS_PAGE = 50;

const userSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  is_admin: z.boolean(),
  reports_filed: z.coerce.number(),
  reports_verified: z.coerce.number(),
  reports_rejected: z.coerce.number(),
  reports_removed: z.coerce.number(),
  suspended_until: z.string().nullable(),
  suspension_reason: z.string().nullable(),
});
export type AdminUser = z.infer<typeof userSchema>;

export interface UserFilters {
  search: string;
  role: '' | 'admin' | 'user';
  state: '' | 'suspended' | 'active';
  minReports: number | null;
}

/** public.admin_users, 50 a page by joined date (keyset), with the filters. */
export function useAdminUsers(filters: UserFilters) {
  return useInfiniteQuery({
    queryKey: [...adminKeys.all, 'users', filters] as const,
    // The list stays on screen while a new filter loads (no flash of a skeleton per keystroke).
    placeholderData: keepPreviousData,
    initialPageParam: null as { created_at: string; id: string } | null,
    queryFn: async ({ pageParam }) => {
      const { data, error } = await supabase.rpc('admin_users', {
        search: filters.search.trim() || undefined,
        role: filters.role || undefined,
        suspended: filters.state ? filters.state === 'suspended' : undefined,
        min_reports: filters.minReports ?? undefined,
        before_created_at: pageParam?.created_at,
        before_id: pageParam?.id,
        max_rows: USERS_PAGE,
      });
      if (error) throw error;
      return z.array(userSchema).parse(data);
    },
    getNextPageParam: (last) =>
      last.length < USERS_PAGE
        ? null
        : { created_at: last[last.length - 1].created_at, id: last[last.length - 1].id },
  });
}

const logSchema = z.object({
  id: z.coerce.number(),
  user_id: z.string(),
  user_email: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.enum(['suspend', 'unsuspend']),
  reason: z.string(),
  suspended_until: z.string().nullable(),
  created_at: z.string(),
});
export type SuspensionLogEntry = z.infer<typeof logSchema>;

/** public.admin_suspension_log: the latest suspensions and unsuspensions, who and why. */
export function useSuspensionLog() {
  return useQuery({
    queryKey: [...adminKeys.all, 'suspension-log'] as const,
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_suspension_log', { max_rows: 30 });
      if (error) throw error;
      return z.array(logSchema).parse(data);
    },
  });
}

/** public.admin_set_suspension: Auth's ban with a reason (days, or until unsuspended), or its lifting. */
export function useSetSuspension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (v: { userId: string; suspend: boolean; reason: string; days: number | null }) => {
      const { error } = await supabase.rpc('admin_set_suspension', {
        user_id: v.userId,
        suspend: v.suspend,
        reason: v.reason.trim(),
        days: v.days ?? undefined,
      });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
