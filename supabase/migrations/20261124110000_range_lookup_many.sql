-- Range lookups answered together (issue 14, section 4: p99 under 20 ms at 50 concurrent clients).
--
-- The api function sent one public.range_lookup_limited call per request. Measured, most of Postgres's
-- share of a lookup was not the lookup (0.06 ms) but the call around it: waking a backend, the
-- statement, the commit. Requests that arrive while the function instance's earlier calls are still
-- running now go to the database together, as one call of public.range_lookup_limited_many, and each
-- still takes its own caller's limit (per key, else per hashed address) exactly as a single call does:
-- the same private.api_limit_for, the same buckets, the same answers, in one transaction.
--
-- Deadlocks: a call takes several limiter rows (and, for keys, the key's row for last_used_at). Two
-- calls running at once take them in one fixed order, keys first by their hash, then addresses (each
-- address, as private.forwarded_client_address gives it, is one bucket: private.address_key of it), so
-- neither can wait for a row the other holds while holding one it wants. A single call holds one bucket
-- (and its key), which fits that order.

/** The body of public.range_lookup_limited for one request, with the anonymous caller's address given. */
create function private.range_lookup_limited_for(prefix text, key_hash text, cost integer, addr inet)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_limit jsonb;
begin
  v_limit := private.api_limit_for(
    range_lookup_limited_for.key_hash, range_lookup_limited_for.cost,
    case when range_lookup_limited_for.key_hash is null then range_lookup_limited_for.addr end);
  if v_limit ->> 'status' <> 'ok' or not coalesce((v_limit ->> 'allowed')::boolean, false) then
    return jsonb_build_object('limit', v_limit);
  end if;
  return jsonb_build_object('limit', v_limit, 'entries', public.range_lookup(range_lookup_limited_for.prefix));
end
$$;
comment on function private.range_lookup_limited_for(text, text, integer, inet) is
  'public.range_lookup_limited with the anonymous caller''s address given: takes the limit, then answers the range when admitted.';
revoke execute on function private.range_lookup_limited_for(text, text, integer, inet) from public, anon, authenticated;
grant execute on function private.range_lookup_limited_for(text, text, integer, inet) to service_role;

create or replace function public.range_lookup_limited(
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
begin
  return private.range_lookup_limited_for(
    range_lookup_limited.prefix, range_lookup_limited.key_hash, range_lookup_limited.cost,
    case
      when range_lookup_limited.key_hash is not null then null
      when range_lookup_limited.forwarded_for is not null
        then private.forwarded_client_address(range_lookup_limited.forwarded_for)
      else private.client_address()
    end);
end
$$;

/**
 * Many range lookups in one call: `requests` is a JSON array of [prefix, key_hash or null,
 * x_forwarded_for or null], at most 256; the answer is the array of what public.range_lookup_limited
 * gives for each, in the same order. Each request takes its own caller's limit, in the fixed order
 * above. Nothing is taken when the array is malformed (22023).
 */
create function public.range_lookup_limited_many(requests jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_answers jsonb[];
  v_count integer;
  r record;
begin
  if jsonb_typeof(requests) is distinct from 'array' then
    raise exception 'requests must be a JSON array' using errcode = '22023';
  end if;
  v_count := jsonb_array_length(requests);
  if v_count > 256 then
    raise exception 'at most 256 requests in one call' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(requests) e(value)
    where jsonb_typeof(e.value) is distinct from 'array'
       or jsonb_typeof(e.value -> 0) is distinct from 'string'
       or jsonb_typeof(e.value -> 1) not in ('string', 'null')
       or jsonb_typeof(e.value -> 2) not in ('string', 'null')
       or (e.value ->> 0) !~ '^[0-9a-f]{5}$') then
    raise exception 'each request is [prefix (5 lowercase hex), key_hash or null, x_forwarded_for or null]'
      using errcode = '22023';
  end if;
  v_answers := array_fill(null::jsonb, array[v_count]);
  for r in
    select q.ord, q.prefix, q.key_hash, q.addr
    from (
      select e.ord, e.value ->> 0 as prefix, lower(e.value ->> 1) as key_hash,
             case
               when e.value ->> 1 is not null then null
               when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
               else private.client_address()
             end as addr
      from jsonb_array_elements(requests) with ordinality e(value, ord)
    ) q
    -- By the address itself: private.api_limit_for hashes it into its bucket once, below.
    order by q.key_hash is null, q.key_hash, q.addr, q.ord
  loop
    v_answers[r.ord] := private.range_lookup_limited_for(r.prefix, r.key_hash, 1, r.addr);
  end loop;
  return coalesce(to_jsonb(v_answers), '[]'::jsonb);
end
$$;
comment on function public.range_lookup_limited_many(jsonb) is
  'Many range lookups in one call ([prefix, key_hash, x_forwarded_for] each): each takes its caller''s limit, in a fixed order of limiter rows; answers in request order.';
revoke execute on function public.range_lookup_limited_many(jsonb) from public, anon, authenticated;
grant execute on function public.range_lookup_limited_many(jsonb) to service_role;
