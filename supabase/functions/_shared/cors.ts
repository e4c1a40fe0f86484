/**
 * CORS for browser callers. Functions answer the preflight first (Supabase's gateway passes OPTIONS
 * through to the function) and add these headers to every answer.
 */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type, dnt, sec-gpc',
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, PUT, DELETE, OPTIONS',
};

/** The answer to a CORS preflight, or null when the request is not one. */
export function preflight(req: Request): Response | null {
  return req.method === 'OPTIONS' ? new Response('ok', { headers: corsHeaders }) : null;
}
