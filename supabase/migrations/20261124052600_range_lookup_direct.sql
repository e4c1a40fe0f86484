-- The range lookup without the Data API (issue 14, section 4): the api function now calls
-- public.range_lookup_limited over its own Postgres connection (SUPABASE_DB_URL), so the caller's
-- X-Forwarded-For, which PostgREST used to hand over as request.headers, comes as an argument. The
-- per-address limit reads it from request.headers as before (private.client_address), set for this
-- transaction only; without the argument the function behaves as it did.

drop function public.range_lookup_limited(text, text, integer);

create function public.range_lookup_limited(
  prefix text,
  key_hash text default null,
  cost integer default 1,
  forwarded_for text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_limit jsonb;
begin
  if range_lookup_limited.forwarded_for is not null then
    perform set_config('request.headers',
                       json_build_object('x-forwarded-for', range_lookup_limited.forwarded_for)::text, true);
  end if;
  v_limit := public.api_limit(range_lookup_limited.key_hash, range_lookup_limited.cost);
  if v_limit ->> 'status' <> 'ok' or not coalesce((v_limit ->> 'allowed')::boolean, false) then
    return jsonb_build_object('limit', v_limit);
  end if;
  return jsonb_build_object('limit', v_limit, 'entries', public.range_lookup(range_lookup_limited.prefix));
end
$$;
comment on function public.range_lookup_limited(text, text, integer, text) is
  'Service role only (GET /api/v1/range/{prefix}): takes the caller''s API limit as public.api_limit does (forwarded_for: the caller''s X-Forwarded-For, for the per-address limit) and, when allowed, answers the range as public.range_lookup does: {limit, entries}; entries is absent when refused.';
revoke execute on function public.range_lookup_limited(text, text, integer, text) from public, anon, authenticated;
grant execute on function public.range_lookup_limited(text, text, integer, text) to service_role;
