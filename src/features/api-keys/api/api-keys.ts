import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/types/database.types';

/**
 * API keys (issue 14): the database makes them (public.create_api_key), keeps only their hash and
 * shows each key once; RLS lists a user's own keys, and every key to an admin.
 */
export type ApiKey = Pick<
  Tables<'api_keys'>,
  'id' | 'user_id' | 'name' | 'prefix' | 'created_at' | 'last_used_at' | 'revoked_at'
>;

/** The answer to making a key: the only time `key` itself is seen. */
export interface NewApiKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
  created_at: string;
}

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (userId: string | undefined) => [...apiKeyKeys.all, 'list', userId] as const,
};

export async function getApiKeys(): Promise<ApiKey[]> {
  const { data, error } = await supabase
    .from('api_keys')
    .select('id, user_id, name, prefix, created_at, last_used_at, revoked_at')
    .order('created_at', { ascending: false })
    .limit(500);
  if (error) throw error;
  return data ?? [];
}

export function useApiKeys(userId: string | undefined) {
  return useQuery(
    queryOptions({ queryKey: apiKeyKeys.list(userId), queryFn: getApiKeys, enabled: !!userId }),
  );
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<NewApiKey> => {
      const { data, error } = await supabase.rpc('create_api_key', { name });
      if (error) throw error;
      return data as unknown as NewApiKey;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const { error } = await supabase.rpc('revoke_api_key', { key_id: id });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
