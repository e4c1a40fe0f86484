// Health check of the edge runtime: answers whether the function runtime is up and configured.
// It reports the project URL (public) and whether each key is present, never the keys themselves.
Deno.serve((_req) => {
  const body = {
    status: 'ok',
    supabaseUrl: Deno.env.get('SUPABASE_URL') ?? null,
    hasAnonKey: !!Deno.env.get('SUPABASE_ANON_KEY'),
    hasServiceRoleKey: !!Deno.env.get('SUPABASE_SERVICE_ROLE_KEY'),
    hasDbUrl: !!Deno.env.get('SUPABASE_DB_URL'),
  };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
});
