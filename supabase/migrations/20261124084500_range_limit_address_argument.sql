-- The range lookup's limit without a detour through request.headers (issue 14, section 4).
--
-- public.range_lookup_limited got the caller's X-Forwarded-For as an argument, then wrote it into
-- request.headers as JSON (set_config) for public.api_limit to read back through private.client_address
-- (current_setting, a JSON check and parse, the header's name from the settings). Now the address is
-- parsed from the argument itself and handed down:
--   private.forwarded_client_address(forwarded)  the client in an X-Forwarded-For value (the rules of
--                                                private.client_address, which now calls it);
--   private.api_limit_for(key_hash, cost, addr)  public.api_limit's body, with the anonymous caller's
--                                                address given; public.api_limit passes client_address().
-- Same answers: the same key checks, the same buckets (api.key per key, api.anon per salted address hash),
-- the same 429 state. Folds in 20261124082914_hot_path_plpgsql.sql's client_address (pg_input_is_valid,
-- no exception blocks), moved into forwarded_client_address unchanged.

/**
 * The client's address in an X-Forwarded-For value: entries are read from the right, and the first
 * public one that is not a trusted proxy (private.rate_limit_settings) is the client; entries further
 * left are whatever the client wrote and are never used. Null when there is none.
 */
create function private.forwarded_client_address(forwarded text)
returns inet
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_trusted inet[];
  v_entries text[];
  v_entry text;
  v_addr inet;
begin
  if forwarded is null then
    return null;
  end if;
  select coalesce(array_agg(btrim(t)::inet) filter (where btrim(t) <> ''), '{}')
    into v_trusted
    from private.rate_limit_settings s, regexp_split_to_table(s.value, ',') t
    where s.name = 'trusted_proxies';
  v_entries := regexp_split_to_array(forwarded, '\s*,\s*');
  for i in reverse coalesce(array_length(v_entries, 1), 0) .. 1 loop
    v_entry := btrim(v_entries[i]);
    -- '[v6]:port' and 'v4:port' forms
    v_entry := coalesce(substring(v_entry from '^\[([^\]]+)\]'), v_entry);
    if v_entry ~ '^[0-9.]+:[0-9]+$' then
      v_entry := split_part(v_entry, ':', 1);
    end if;
    if not pg_input_is_valid(v_entry, 'inet') then
      continue;
    end if;
    v_addr := v_entry::inet;
    if family(v_addr) = 6 and v_addr << '::ffff:0:0/96'::inet then
      v_addr := substring(host(v_addr) from '([0-9.]+)$')::inet;  -- IPv4-mapped
    end if;
    v_addr := host(v_addr)::inet;
    if private.is_non_public_address(v_addr) or v_addr << any (v_trusted) or v_addr = any (v_trusted) then
      continue;
    end if;
    return v_addr;
  end loop;
  return null;
end
$$;
comment on function private.forwarded_client_address(text) is 'The client''s address in an X-Forwarded-For value (right-most public entry that is not a trusted proxy), or null.';
revoke execute on function private.forwarded_client_address(text) from public, anon, authenticated;
grant execute on function private.forwarded_client_address(text) to service_role;

create or replace function private.client_address()
returns inet
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_header text;
  v_headers text := current_setting('request.headers', true);
begin
  -- No headers or not JSON: not a Data API request. A JSON array or scalar has no such key (null).
  if v_headers is null or not pg_input_is_valid(v_headers, 'json') then
    return null;
  end if;
  select value into v_header from private.rate_limit_settings where name = 'client_address_header';
  return private.forwarded_client_address(v_headers::json ->> lower(coalesce(v_header, 'x-forwarded-for')));
end
$$;

/**
 * public.api_limit with the anonymous caller's address given (addr, used only without a key): the
 * key's bucket (api.key) when key_hash names a valid key, else the address's (api.anon); not limited
 * without a public address.
 */
create function private.api_limit_for(key_hash text, cost integer, addr inet)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_key_id uuid;
  v_revoked timestamptz;
  v_last_used timestamptz;
  v_name text;
  v_subject text;
  v_limit private.rate_limits;
  r record;
begin
  if api_limit_for.key_hash is not null then
    select k.id, k.revoked_at, k.last_used_at into v_key_id, v_revoked, v_last_used
    from private.api_key_hashes h join public.api_keys k on k.id = h.key_id
    where h.key_hash = lower(api_limit_for.key_hash);
    if v_key_id is null then
      return jsonb_build_object('status', 'unknown');
    end if;
    if v_revoked is not null then
      return jsonb_build_object('status', 'revoked', 'revoked_at', v_revoked);
    end if;
    if v_last_used is null or v_last_used < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key_id;
    end if;
    v_name := 'api.key';
    v_subject := 'key:' || v_key_id;
  else
    v_name := 'api.anon';
    v_subject := private.address_key(api_limit_for.addr);
    if v_subject is null then
      return jsonb_build_object('status', 'ok', 'allowed', true, 'subject_kind', 'none');
    end if;
  end if;
  select * into v_limit from private.rate_limits l where l.name = v_name;
  select * into r from private.rate_limit_take(v_name, v_subject, greatest(coalesce(api_limit_for.cost, 1), 1));
  return jsonb_build_object(
    'status', 'ok', 'allowed', r.allowed, 'limit', r.max_calls, 'remaining', r.remaining,
    'reset', r.reset_seconds, 'retry_after', r.retry_after_seconds, 'window', v_limit.per_seconds,
    'subject_kind', case when v_name = 'api.key' then 'key' else 'address' end,
    'message', case when not r.allowed then
      format('%s: at most %s per %s. Please try again in %s.', v_limit.description, v_limit.max_calls,
             private.rate_limit_duration(v_limit.per_seconds), private.rate_limit_duration(r.retry_after_seconds))
    end);
end
$$;
comment on function private.api_limit_for(text, integer, inet) is
  'public.api_limit with the anonymous caller''s address given: checks the API key by its SHA-256 and takes cost calls from api.key (per key) or api.anon (per hashed addr).';
revoke execute on function private.api_limit_for(text, integer, inet) from public, anon, authenticated;
grant execute on function private.api_limit_for(text, integer, inet) to service_role;

create or replace function public.api_limit(key_hash text default null, cost integer default 1)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.api_limit_for(api_limit.key_hash, api_limit.cost,
                               case when api_limit.key_hash is null then private.client_address() end);
end
$$;

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
declare
  v_limit jsonb;
begin
  v_limit := private.api_limit_for(
    range_lookup_limited.key_hash, range_lookup_limited.cost,
    case
      when range_lookup_limited.key_hash is not null then null
      when range_lookup_limited.forwarded_for is not null
        then private.forwarded_client_address(range_lookup_limited.forwarded_for)
      else private.client_address()
    end);
  if v_limit ->> 'status' <> 'ok' or not coalesce((v_limit ->> 'allowed')::boolean, false) then
    return jsonb_build_object('limit', v_limit);
  end if;
  return jsonb_build_object('limit', v_limit, 'entries', public.range_lookup(range_lookup_limited.prefix));
end
$$;
