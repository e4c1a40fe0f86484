-- pg_net's SQL interface: net.http_post / net.http_get queue a request and answer its id at once; after
-- the transaction commits, a worker (supabase/local/scheduler.ts here, pg_net's background worker on
-- Supabase) sends it and writes the answer to net._http_response, kept 6 hours.
create schema if not exists net;

create unlogged table net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null
);

create unlogged table net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz not null default now()
);
create index on net._http_response (created);

create function net._encode(s text) returns text
language sql immutable
set search_path = ''
as $$
  select coalesce(string_agg(
    case when ch ~ '^[A-Za-z0-9_.~-]$' then ch
      else (select string_agg('%' || upper(lpad(to_hex(b), 2, '0')), '')
            from (select get_byte(convert_to(ch, 'UTF8'), i) as b
                  from generate_series(0, octet_length(convert_to(ch, 'UTF8')) - 1) i) bytes)
    end, '' order by n), '')
  from regexp_split_to_table(s, '') with ordinality as t(ch, n)
$$;

-- The URL with params appended as a query string, each key and value percent-encoded.
create function net._url(url text, params jsonb) returns text
language sql immutable
set search_path = ''
as $$
  select case when params is null or params = '{}'::jsonb then url
    else url || case when url like '%?%' then '&' else '?' end || (
      select string_agg(net._encode(key) || '=' || net._encode(value), '&')
      from jsonb_each_text(params)
    ) end
$$;

create function net.http_post(
  url text,
  body jsonb default '{}'::jsonb,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('POST', net._url(url, params), coalesce(headers, '{}'::jsonb), convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id into request_id;
  perform pg_notify('net_http_request', request_id::text);
  return request_id;
end
$$;

create function net.http_get(
  url text,
  params jsonb default '{}'::jsonb,
  headers jsonb default '{}'::jsonb,
  timeout_milliseconds integer default 5000
) returns bigint
language plpgsql
set search_path = ''
as $$
declare
  request_id bigint;
begin
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('GET', net._url(url, params), coalesce(headers, '{}'::jsonb), null, timeout_milliseconds)
  returning id into request_id;
  perform pg_notify('net_http_request', request_id::text);
  return request_id;
end
$$;

revoke all on schema net from public;
revoke all on all tables in schema net from public;
revoke all on all functions in schema net from public;
