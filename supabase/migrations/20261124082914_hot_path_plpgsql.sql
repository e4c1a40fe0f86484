-- Postgres CPU per request under `npm run check:load` (issue 12): the small helpers every search and report
-- runs were SQL functions with a pinned search_path. Postgres never inlines such a function (its SET clause,
-- and for most also security definer, rule that out), and PostgreSQL 17 keeps no plan for a SQL function
-- between transactions: each request parsed and planned their bodies again, 0.05-0.08 ms a body
-- (pg_stat_statements' plan times). A PL/pgSQL function keeps its statements' plans for the session, and a
-- pooled connection (the Data API's, the functions' own) serves thousands of requests.
--
-- The bodies below compute exactly what the SQL ones did; grants and owners stay (create or replace).
-- private.client_address also stops entering an exception block (a subtransaction) to read the headers and
-- once per X-Forwarded-For entry: pg_input_is_valid (PostgreSQL 16+) tells the same bad input apart.

/** The request's JWT role (Data API requests), or null. */
create or replace function private.request_role()
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role';
end
$$;

/** Loopback, private, link-local, shared, benchmarking, multicast, reserved or documentation space. */
create or replace function private.is_non_public_address(addr inet)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  return addr << any (array[
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
    '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/3',
    '::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'ff00::/8', '2001:db8::/32']::inet[])
    or addr = any (array['::'::inet, '::1'::inet]);
end
$$;

create or replace function private.client_address()
returns inet
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_header text;
  v_trusted inet[];
  v_headers text := current_setting('request.headers', true);
  v_raw text;
  v_entries text[];
  v_entry text;
  v_addr inet;
begin
  select value into v_header from private.rate_limit_settings where name = 'client_address_header';
  select coalesce(array_agg(btrim(t)::inet) filter (where btrim(t) <> ''), '{}')
    into v_trusted
    from private.rate_limit_settings s, regexp_split_to_table(s.value, ',') t
    where s.name = 'trusted_proxies';
  -- No headers or not JSON: not a Data API request. A JSON array or scalar has no such key (null).
  if v_headers is null or not pg_input_is_valid(v_headers, 'json') then
    return null;
  end if;
  v_raw := v_headers::json ->> lower(coalesce(v_header, 'x-forwarded-for'));
  if v_raw is null then
    return null;
  end if;
  v_entries := regexp_split_to_array(v_raw, '\s*,\s*');
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

/** 'ip:' and the first 32 hex digits of SHA-256(salt || address), or null without an address or salt. */
create or replace function private.address_key(addr inet)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key text;
begin
  if addr is null then
    return null;
  end if;
  select 'ip:' || left(encode(sha256(convert_to(s.value || host(addr), 'UTF8')), 'hex'), 32)
    into v_key
    from private.rate_limit_settings s
    where s.name = 'address_salt';
  return v_key;
end
$$;

create or replace function private.client_address_key()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return private.address_key(private.client_address());
end
$$;

/** Adds `delta` to the shard of `counter` this session writes (pg_backend_pid() % 16). */
create or replace function private.bump_site_counter(counter text, delta bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.site_counters as c (name, shard, value)
  values (counter, pg_backend_pid() % 16, delta)
  on conflict (name, shard) do update set value = c.value + excluded.value;
end
$$;

create or replace function private.identifier_weight(canonical text)
returns float8
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_weight float8;
begin
  select coalesce(sum(p.w), 0)
    into v_weight
    from (
      select max(case when r.status = 'verified' then 1.0::float8 else 0.2::float8 end
                 * power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0))) as w
      from public.reports r
      where r.reported_account_canonical = identifier_weight.canonical and r.status in ('pending', 'verified')
      group by coalesce(r.reporter_id, r.id)
    ) p;
  return v_weight;
end
$$;

create or replace function private.ph_region(loc text, country text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_lat float8;
  v_lng float8;
  v_region text;
begin
  if ph_region.country is distinct from 'PH' or ph_region.loc is null
     or ph_region.loc !~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then
    return null;
  end if;
  v_lat := split_part(ph_region.loc, ',', 1)::float8;
  v_lng := split_part(ph_region.loc, ',', 2)::float8;
  if v_lat not between 4 and 22 or v_lng not between 116 and 127.5 then
    return null;
  end if;
  -- Equirectangular distance: at these latitudes a degree of longitude is ~0.97 of one of latitude.
  select a.region_code
    into v_region
    from private.ph_region_anchors a
    order by (a.lat - v_lat) ^ 2 + ((a.lng - v_lng) * cos(radians(v_lat))) ^ 2
    limit 1;
  return v_region;
end
$$;
