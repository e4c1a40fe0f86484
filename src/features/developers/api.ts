import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_BASE } from '@/config/api';

export { API_BASE };
export const OPENAPI_URL = `${API_BASE}/openapi.json`;

export interface ApiOperation {
  method: string;
  path: string;
  summary: string;
  tag: string;
  access: 'anyone' | 'signed in';
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: object[] }>>;
}

/** The operations of the served OpenAPI document, in its order, for the developer page's list. */
export function operationsOf(doc: OpenApiDoc): ApiOperation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      summary: op.summary ?? '',
      tag: op.tags?.[0] ?? 'Other',
      access: (op.security ?? []).some((s) => 'session' in s) ? 'signed in' : 'anyone',
    })),
  );
}

export function useApiOperations() {
  return useQuery(
    queryOptions({
      queryKey: ['developers', 'openapi'],
      queryFn: async () => {
        const res = await fetch(OPENAPI_URL);
        if (!res.ok) throw new Error(`The API description could not be loaded (${res.status})`);
        return operationsOf((await res.json()) as OpenApiDoc);
      },
      staleTime: 5 * 60_000,
    }),
  );
}
