import { queryOptions, useQuery } from '@tanstack/react-query';
import { invokeFunction } from '@/lib/functions';
import { reportKeys } from './keys';

export interface VisitorLocation {
  country: string | null;
  loc: string | null;
  city: string | null;
  region: string | null;
}

/**
 * The report's hidden location fields (docs/behaviour.md: ip, loc, country from the visitor lookup). The
 * `visitor` edge function resolves the caller's address on the server with an offline IP database;
 * the browser never learns or sends an IP address, and no raw address is stored. `paths: []` asks
 * for the location only: the page view itself is recorded like every other (see page-views.ts).
 */
export async function getVisitorLocation(): Promise<VisitorLocation | null> {
  const data = await invokeFunction<{ location?: VisitorLocation | null } | null>('visitor', { paths: [] });
  return data?.location ?? null;
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
