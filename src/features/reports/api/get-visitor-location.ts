import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { reportKeys } from './keys';

export interface VisitorLocation {
  country: string | null;
  loc: string | null;
  city: string | null;
  region: string | null;
}

/**
 * The report's hidden location fields (SPEC.md: ip, loc, country from the visitor lookup). The
 * `visitor` edge function resolves the caller's address on the server with an offline IP database;
 * the browser never learns or sends an IP address, and no raw address is stored.
 */
export async function getVisitorLocation(): Promise<VisitorLocation | null> {
  const { data, error } = await supabase.functions.invoke('visitor', { body: { path: '/dashboard/add-report' } });
  if (error) throw error;
  const location = (data as { location?: VisitorLocation | null } | null)?.location;
  return location ?? null;
}

export function getVisitorLocationQueryOptions() {
  return queryOptions({
    queryKey: reportKeys.location(),
    queryFn: getVisitorLocation,
    // One lookup per visit to the form is enough; the address does not move while the form is open.
    staleTime: Infinity,
    retry: false,
  });
}

export function useVisitorLocation() {
  return useQuery(getVisitorLocationQueryOptions());
}
