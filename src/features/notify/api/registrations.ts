import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { parseIdentifierList } from '@/lib/identifiers';
import { supabase } from '@/lib/supabase';
import type { FilledByDatabase } from '@/types/db';
import type { Tables, TablesInsert } from '@/types/database.types';
import { notifyKeys } from './keys';

export type NotifyRegistration = Pick<
  Tables<'notify_registrations'>,
  'id' | 'asset_name' | 'identifier_kind' | 'identifier_canonical' | 'created_at'
>;

export async function getRegistrations(): Promise<NotifyRegistration[]> {
  const { data, error } = await supabase
    .from('notify_registrations')
    .select('id, asset_name, identifier_kind, identifier_canonical, created_at')
    .order('created_at', { ascending: false })
    .limit(1000);
  if (error) throw error;
  return data ?? [];
}

export function getRegistrationsQueryOptions(userId: string | undefined) {
  return queryOptions({
    queryKey: notifyKeys.registrations(userId),
    queryFn: getRegistrations,
    enabled: !!userId,
  });
}

export function useRegistrations(userId: string | undefined) {
  return useQuery(getRegistrationsQueryOptions(userId));
}

/**
 * The Notify Me form (docs/behaviour.md §2): assetName is required and holds comma-delimited identifiers
 * on one or more lines; each must be an e-mail, mobile number, website or crypto wallet. Messages are
 * catalogue keys, or text already in the reader's language (parseIdentifierList), which FormMessage shows.
 */
export const notifyFormSchema = z.object({
  assetName: z
    .string()
    .trim()
    .min(1, 'identifiers.listRequired')
    .superRefine((text, ctx) => {
      const parsed = parseIdentifierList(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
});
export type NotifyFormInput = z.infer<typeof notifyFormSchema>;

/**
 * Registers every identifier not already registered (the database keeps one row per canonical
 * identifier per user and works out the canonical form itself). Returns how many were new.
 */
export async function createRegistrations({
  assetName,
  existing,
}: NotifyFormInput & { existing: string[] }): Promise<number> {
  const parsed = parseIdentifierList(assetName);
  if (!parsed.ok) throw new Error(parsed.error);
  const known = new Set(existing);
  const rows = parsed.identifiers
    .filter((i) => !known.has(i.canonical))
    .map((i): FilledByDatabase<'notify_registrations', 'identifier_canonical' | 'identifier_kind'> => ({
      asset_name: i.value,
    }));
  if (rows.length === 0) return 0;
  const { error } = await supabase
    .from('notify_registrations')
    .insert(rows as TablesInsert<'notify_registrations'>[]);
  if (error) throw error;
  return rows.length;
}

export function useCreateRegistrations({ onSuccess }: { onSuccess?: (added: number) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRegistrations,
    onSuccess: async (added) => {
      await queryClient.invalidateQueries({ queryKey: [...notifyKeys.all, 'registrations'] });
      onSuccess?.(added);
    },
  });
}

export function useDeleteRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await supabase.from('notify_registrations').delete().eq('id', id);
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...notifyKeys.all, 'registrations'] }),
  });
}
