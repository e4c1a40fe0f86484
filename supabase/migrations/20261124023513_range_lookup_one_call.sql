-- The range lookup in one database call (issue 14, section 4): GET /api/v1/range/{prefix} used to make
-- two (public.api_limit, then public.range_lookup), each a round trip through the Data API. This takes
-- the caller's API limit and, when allowed, answers the range, in one transaction.

create function public.range_lookup_limited(prefix text, key_hash text default null, cost integer default 1)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_limit jsonb := public.api_limit(range_lookup_limited.key_hash, range_lookup_limited.cost);
begin
  if v_limit ->> 'status' <> 'ok' or not coalesce((v_limit ->> 'allowed')::boolean, false) then
    return jsonb_build_object('limit', v_limit);
  end if;
  return jsonb_build_object('limit', v_limit, 'entries', public.range_lookup(range_lookup_limited.prefix));
end
$$;
comment on function public.range_lookup_limited(text, text, integer) is
  'Service role only (GET /api/v1/range/{prefix}): takes the caller''s API limit as public.api_limit does and, when allowed, answers the range as public.range_lookup does: {limit, entries}; entries is absent when refused.';
revoke execute on function public.range_lookup_limited(text, text, integer) from public, anon, authenticated;
grant execute on function public.range_lookup_limited(text, text, integer) to service_role;
