import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { adminKeys } from './keys';

/** Rows per page of every admin list. */
export const ADMIN_PAGE_SIZE = 20;

/** The admin lists: which table, which columns, in which order (RLS lets only admins read them all). */
export const adminLists = {
  users: { table: 'profiles', columns: 'id, name, email, created_at', filter: null },
  messages: {
    table: 'contact_messages',
    columns: 'id, nickname, email, subject, message, handled_at, created_at',
    filter: null,
  },
  reports: {
    table: 'reports',
    columns:
      'id, incident_type, reported_account_type, reported_account, location, country, status, amount_lost, evidence_path, created_at',
    filter: null,
  },
  pendingReports: {
    table: 'reports',
    columns:
      'id, incident_type, reported_account_type, reported_account, incident_description, location, country, status, amount_lost, evidence_path, created_at',
    filter: { column: 'status', value: 'pending' },
  },
  takedowns: {
    table: 'takedown_reports',
    columns: 'id, url, host, target_brand, status, abuse_contact, created_at, sent_at, send_error',
    filter: null,
  },
  apiKeys: {
    table: 'api_keys',
    columns: 'id, name, prefix, partner_organisation, partner_since, revoked_at, last_used_at, created_at',
    filter: null,
  },
} as const;
export type AdminListName = keyof typeof adminLists;

export interface AdminPage<Row> {
  rows: Row[];
  total: number;
}

/** One page, newest first, with the exact total (PostgREST range + count=exact). */
export async function getAdminList<Row>(name: AdminListName, page: number): Promise<AdminPage<Row>> {
  const spec = adminLists[name];
  const from = (page - 1) * ADMIN_PAGE_SIZE;
  let query = supabase.from(spec.table).select(spec.columns, { count: 'exact' });
  if (spec.filter) query = query.filter(spec.filter.column, 'eq', spec.filter.value);
  const { data, error, count } = await query
    .order('created_at', { ascending: false })
    .range(from, from + ADMIN_PAGE_SIZE - 1);
  if (error) throw error;
  return { rows: (data ?? []) as Row[], total: count ?? 0 };
}

export function useAdminList<Row>(name: AdminListName, page: number) {
  return useQuery({
    queryKey: adminKeys.list(name, page),
    queryFn: () => getAdminList<Row>(name, page),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
