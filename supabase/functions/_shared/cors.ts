/**
 * CORS for browser callers. Functions answer the preflight first (Supabase's gateway passes OPTIONS
 * through to the function) and add these headers to every answer.
 */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers':
    'authorization, x-client-info, apikey, x-api-key, content-type, dnt, sec-gpc, if-none-match',
  // Browser callers of /api/v1 may read their limit and the range lookup's validator.
  'Access-Control-Expose-Headers':
    'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, Retry-After, ETag',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
};

/** The answer to a CORS preflight, or null when the request is not one. */
export function preflight(req: Request): Response | null {
  return req.method === 'OPTIONS' ? new Response('ok', { headers: corsHeaders }) : null;
}
