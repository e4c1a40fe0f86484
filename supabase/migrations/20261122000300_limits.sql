-- The one rate limiter of ScamCheck: every write path, every e-mail and the keyed API limits take from
-- it, so limits hold across function instances and on hosted Supabase alike (the counters live in
-- Postgres, not in a process).
--
-- Algorithm: a token bucket in its GCRA form. A limit is "max_calls per per_seconds"; a caller may spend
-- all max_calls at once, after which one call comes back every per_seconds / max_calls seconds. Each
-- (limit, subject) pair keeps one timestamp, the "theoretical arrival time" (tat): the moment its bucket
-- is full again. A call of cost c is allowed when greatest(tat, now) + c * interval <= now + per_seconds.
-- A bucket whose tat has passed is the same as no bucket, so old rows can be deleted at any time.
--
-- API (SQL, private schema, not exposed through the Data API):
--   private.rate_limit_take(name, subject, cost default 1)
--     -> (allowed, max_calls, remaining, reset_seconds, retry_after_seconds); spends only when allowed.
--   private.rate_limit(name, subject, cost default 1)
--     -> void, or raises PostgREST's 429 (code 'PT429', Retry-After and RateLimit-* headers).
--   private.client_address() / private.client_address_key()
--     -> the caller's address from the trusted header, and its salted hash ('ip:<hex>'), or null.
--   public.rate_limit_check(name, subject, cost) -> the same as rate_limit_take, for the service role only
--     (edge functions that limit something the database does not see).
-- Limits are rows of private.rate_limits (all of them below, listed in docs); operators change them with
-- an update, no deploy needed.
--
-- Write limits: every write path of the product (contact messages, searches, visits, reports, removal
-- requests, Notify Me registrations) has a row trigger, private.limit_writes, created with its table, so
-- the limit holds whichever way the row arrives. Only Data API requests by anon and signed-in users are
-- limited (PostgREST sets request.method and the JWT's role for every request); the service role,
-- seeds, operators and other sessions are not, and the service-role entry points limit themselves.

-- ---------------------------------------------------------------------------------------------
-- Configuration
-- ---------------------------------------------------------------------------------------------
create table private.rate_limits (
  name text not null primary key check (name ~ '^[a-z][a-z0-9_.]*$'),
  max_calls integer not null check (max_calls > 0),
  per_seconds integer not null check (per_seconds > 0),
  description text not null check (char_length(description) between 1 and 200),
  enabled boolean not null default true
);
alter table private.rate_limits enable row level security;
comment on column private.rate_limits.description is 'What is being limited, as the 429 message names it ("Too many searches from your address").';
comment on table private.rate_limits is 'Named limits: at most max_calls per per_seconds for one subject (a user, an address, an API key). Change with an update; disabled limits always allow.';

create table private.rate_limit_settings (
  name text not null primary key,
  value text not null
);
alter table private.rate_limit_settings enable row level security;
comment on table private.rate_limit_settings is 'How the limiter finds the client''s address: client_address_header (default x-forwarded-for), trusted_proxies (comma-separated CIDRs skipped as proxies), address_salt (secret salt of address hashes).';

-- The limiter's settings, and those of other domains read through private.rate_limit_settings.
insert into private.rate_limit_settings (name, value) values
  ('client_address_header', 'x-forwarded-for'),
  ('trusted_proxies', ''),
  ('address_salt', gen_random_uuid()::text || gen_random_uuid()::text),
  -- wrong tries one e-mail code gets (accounts)
  ('code_wrong_tries', '5'),
  -- days within which the same reporter cannot report the same identifier again (reports)
  ('duplicate_report_days', '30'),
  -- API keys one user may hold (API)
  ('api_keys_per_user', '10');

create table private.rate_limit_buckets (
  name text not null references private.rate_limits (name) on delete cascade on update cascade,
  subject text not null check (char_length(subject) between 1 and 200),
  tat timestamptz not null,
  primary key (name, subject)
);
alter table private.rate_limit_buckets enable row level security;
comment on table private.rate_limit_buckets is 'One token bucket per limit and subject: tat is when the bucket is full again. Rows whose tat passed mean nothing and are deleted by private.rate_limit_cleanup.';

create index rate_limit_buckets_tat_idx on private.rate_limit_buckets (tat);

-- Every named limit of the product; the description is the 429 message.
insert into private.rate_limits (name, max_calls, per_seconds, description) values
  -- Data API writes (private.rest_pre_request)
  ('rest_write.ip', 120, 60, 'Too many changes from your address'),
  ('rest_write.user', 120, 60, 'Too many changes from your account'),
  -- message check (public.check_identifiers)
  ('check.ip', 60, 60, 'Too many message checks from your address'),
  ('check.user', 60, 60, 'Too many message checks from your account'),
  -- rows written through the Data API (private.limit_writes) and the search and visit entry points
  ('contact.ip', 5, 3600, 'Too many contact messages from your address'),
  ('contact.user', 5, 3600, 'Too many contact messages from your account'),
  ('search.ip', 60, 60, 'Too many searches from your address'),
  ('search.user', 60, 60, 'Too many searches from your account'),
  ('visit.ip', 60, 60, 'Too many visits recorded from your address'),
  ('visit.user', 60, 60, 'Too many visits recorded from your account'),
  ('report.ip', 30, 3600, 'Too many reports filed from your address'),
  ('report.user', 20, 3600, 'Too many reports filed from your account'),
  ('removal.ip', 10, 86400, 'Too many removal requests from your address'),
  ('removal.user', 5, 86400, 'Too many removal requests from your account'),
  ('notify.ip', 60, 3600, 'Too many Notify Me registrations from your address'),
  ('notify.user', 30, 3600, 'Too many Notify Me registrations from your account'),
  -- removal request confirmations and notification e-mails
  ('removal_confirm.address', 3, 86400, 'Too many confirmation e-mails to this address'),
  ('email.user', 4, 3600, 'Too many notification e-mails to this user'),
  ('email.digest', 1, 3600, 'Too many notification digests to this user'),
  -- Auth's e-mail codes (the tries one code gets is the setting code_wrong_tries)
  ('auth_code.address', 15, 3600, 'Too many code tries for this e-mail address'),
  ('auth_code.issue', 5, 3600, 'Too many codes e-mailed to this address'),
  ('auth_verify.ip', 30, 300, 'Too many code checks from your address'),
  -- the open API and API keys
  ('api.anon', 120, 60, 'Too many API requests from your address'),
  ('api.key', 1200, 60, 'Too many API requests with this key'),
  ('api_key.create', 20, 3600, 'Too many API keys made from your account');

-- ---------------------------------------------------------------------------------------------
-- The limiter
-- ---------------------------------------------------------------------------------------------
/** Deletes buckets that are full again (equal to no bucket); returns how many. */
create function private.rate_limit_cleanup(max_rows integer default 10000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_deleted integer;
begin
  delete from private.rate_limit_buckets b
  where b.ctid in (
    select x.ctid from private.rate_limit_buckets x
    where x.tat < clock_timestamp()
    limit max_rows
    for update skip locked
  );
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$$;
revoke execute on function private.rate_limit_cleanup(integer) from public, anon, authenticated;
grant execute on function private.rate_limit_cleanup(integer) to service_role;
comment on function private.rate_limit_cleanup(integer) is 'Deletes expired rate-limit buckets (at most max_rows); the limiter also calls it now and then.';

/**
 * Takes cost calls from the bucket of (name, subject). Spends nothing when refused. remaining is how
 * many more calls would be allowed right now; reset_seconds how long until the bucket is full again;
 * retry_after_seconds (0 when allowed) how long until this call would be allowed.
 */
create function private.rate_limit_take(
  name text,
  subject text,
  cost integer default 1,
  out allowed boolean,
  out max_calls integer,
  out remaining integer,
  out reset_seconds integer,
  out retry_after_seconds integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_limit private.rate_limits;
  v_now timestamptz := clock_timestamp();
  v_interval float8;
  v_window interval;
  v_step interval;
  v_tat timestamptz;
begin
  select * into v_limit from private.rate_limits l where l.name = rate_limit_take.name;
  if v_limit.name is null then
    raise exception 'unknown rate limit %', rate_limit_take.name using errcode = '22023';
  end if;
  if subject is null or char_length(subject) = 0 or char_length(subject) > 200 then
    raise exception 'a rate limit subject is 1 to 200 characters' using errcode = '22023';
  end if;
  if cost is null or cost < 1 then
    raise exception 'a rate limit cost is at least 1' using errcode = '22023';
  end if;
  max_calls := v_limit.max_calls;
  if not v_limit.enabled then
    allowed := true;
    remaining := v_limit.max_calls;
    reset_seconds := 0;
    retry_after_seconds := 0;
    return;
  end if;
  v_interval := v_limit.per_seconds::float8 / v_limit.max_calls;
  v_window := make_interval(secs => v_limit.per_seconds);
  v_step := make_interval(secs => v_interval * cost);

  if cost <= v_limit.max_calls then
    insert into private.rate_limit_buckets as b (name, subject, tat)
    values (rate_limit_take.name, rate_limit_take.subject, v_now + v_step)
    on conflict on constraint rate_limit_buckets_pkey do update
      set tat = greatest(b.tat, v_now) + v_step
      where greatest(b.tat, v_now) + v_step <= v_now + v_window
    returning b.tat into v_tat;
  end if;

  if v_tat is not null then
    allowed := true;
    retry_after_seconds := 0;
  else
    allowed := false;
    -- The refused call did not spend; the row (when there is one) is locked by the upsert above.
    select b.tat into v_tat from private.rate_limit_buckets b
    where b.name = rate_limit_take.name and b.subject = rate_limit_take.subject;
    v_tat := greatest(coalesce(v_tat, v_now), v_now);
    retry_after_seconds := case
      when cost > v_limit.max_calls then v_limit.per_seconds
      else greatest(1, ceil(extract(epoch from (v_tat + v_step - v_window - v_now))))::int
    end;
  end if;
  remaining := greatest(0, floor((v_limit.per_seconds - extract(epoch from (v_tat - v_now))) / v_interval))::int;
  reset_seconds := greatest(0, ceil(extract(epoch from (v_tat - v_now))))::int;

  -- Now and then, clear a batch of expired buckets, so the table stays small without a scheduler.
  if random() < 0.002 then
    perform private.rate_limit_cleanup(1000);
  end if;
end
$$;
revoke execute on function private.rate_limit_take(text, text, integer) from public;
grant execute on function private.rate_limit_take(text, text, integer) to anon, authenticated, service_role;
comment on function private.rate_limit_take(text, text, integer) is
  'Takes cost calls from the (limit name, subject) bucket: (allowed, max_calls, remaining, reset_seconds, retry_after_seconds). Refused calls spend nothing.';

/** "1 minute", "1 hour", "10 minutes": how a 429 message names a duration. */
create function private.rate_limit_duration(seconds integer)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when seconds % 86400 = 0 then (seconds / 86400) || case when seconds = 86400 then ' day' else ' days' end
    when seconds % 3600 = 0 then (seconds / 3600) || case when seconds = 3600 then ' hour' else ' hours' end
    when seconds % 60 = 0 then (seconds / 60) || case when seconds = 60 then ' minute' else ' minutes' end
    else seconds || case when seconds = 1 then ' second' else ' seconds' end
  end
$$;
grant execute on function private.rate_limit_duration(integer) to anon, authenticated, service_role;
comment on function private.rate_limit_duration(integer) is 'A duration in seconds as words, for 429 messages.';

/**
 * Enforces a limit: returns when the call is allowed, else raises PostgREST's custom error, which the
 * Data API answers as HTTP 429 with Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset
 * and RateLimit-Policy, and the body {code: 'PT429', message, details, hint}. details carries
 * 'retry_after=<seconds>' for callers that see only the body (supabase-js in the edge functions).
 */
create function private.rate_limit(name text, subject text, cost integer default 1)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  v_limit private.rate_limits;
begin
  select * into r from private.rate_limit_take(rate_limit.name, rate_limit.subject, rate_limit.cost);
  if r.allowed then
    return;
  end if;
  select * into v_limit from private.rate_limits l where l.name = rate_limit.name;
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT429',
      'message', format('%s: at most %s per %s. Please try again in %s.',
                        v_limit.description, v_limit.max_calls,
                        private.rate_limit_duration(v_limit.per_seconds),
                        private.rate_limit_duration(r.retry_after_seconds)),
      'details', format('limit=%s; retry_after=%s', v_limit.name, r.retry_after_seconds),
      'hint', 'Wait for the time given in the Retry-After header before trying again.')::text,
    detail = json_build_object(
      'status', 429,
      'headers', json_build_object(
        'Retry-After', r.retry_after_seconds::text,
        'RateLimit-Limit', v_limit.max_calls::text,
        'RateLimit-Remaining', r.remaining::text,
        'RateLimit-Reset', r.reset_seconds::text,
        'RateLimit-Policy', format('%s;w=%s', v_limit.max_calls, v_limit.per_seconds)))::text;
end
$$;
revoke execute on function private.rate_limit(text, text, integer) from public;
grant execute on function private.rate_limit(text, text, integer) to anon, authenticated, service_role;
comment on function private.rate_limit(text, text, integer) is
  'Enforces the named limit for subject: returns, or raises HTTP 429 (code PT429) with Retry-After and RateLimit-* headers through PostgREST.';

/** The same as rate_limit_take, callable through the Data API by the service role only (edge functions). */
create function public.rate_limit_check(name text, subject text, cost integer default 1)
returns jsonb
language sql
volatile
security definer
set search_path = ''
as $$
  select jsonb_build_object('allowed', t.allowed, 'limit', t.max_calls, 'remaining', t.remaining,
                            'reset', t.reset_seconds, 'retry_after', t.retry_after_seconds)
  from private.rate_limit_take(rate_limit_check.name, rate_limit_check.subject, rate_limit_check.cost) t
$$;
revoke execute on function public.rate_limit_check(text, text, integer) from public, anon, authenticated;
grant execute on function public.rate_limit_check(text, text, integer) to service_role;
comment on function public.rate_limit_check(text, text, integer) is
  'Service role only: takes cost calls from a named limit for subject; {allowed, limit, remaining, reset, retry_after}.';

-- ---------------------------------------------------------------------------------------------
-- The caller's address
-- ---------------------------------------------------------------------------------------------
/** Loopback, private, link-local, shared, benchmarking, multicast, reserved or documentation space. */
create function private.is_non_public_address(addr inet)
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
grant execute on function private.is_non_public_address(inet) to anon, authenticated, service_role;
comment on function private.is_non_public_address(inet) is 'True for private, loopback, link-local, CGNAT, multicast and documentation addresses.';

create function private.client_address()
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
revoke execute on function private.client_address() from public;
grant execute on function private.client_address() to anon, authenticated, service_role;
comment on function private.client_address() is 'The client''s address from the trusted request header (right-most public entry that is not a trusted proxy), or null.';

create function private.client_address_key()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_headers text := coalesce(current_setting('request.headers', true), '');
  v_key text;
begin
  if current_setting('scamcheck.client_address_headers', true) = v_headers then
    return nullif(current_setting('scamcheck.client_address_key', true), '');
  end if;
  v_key := private.address_key(private.client_address());
  perform set_config('scamcheck.client_address_headers', v_headers, true),
          set_config('scamcheck.client_address_key', coalesce(v_key, ''), true);
  return v_key;
end
$$;
revoke execute on function private.client_address_key() from public;
grant execute on function private.client_address_key() to anon, authenticated, service_role;
comment on function private.client_address_key() is 'Salted hash of the client''s address as a rate-limit subject (''ip:<hex>''), null when there is no address.';

/** The request's JWT role (Data API requests), or null. */
create function private.request_role()
returns text
language plpgsql
stable
set search_path = ''
as $$
begin
  return nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role';
end
$$;
grant execute on function private.request_role() to anon, authenticated, service_role;
comment on function private.request_role() is 'The API caller''s role from request.jwt.claims, null outside API requests.';

create function private.address_key(addr inet)
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
  select 'ip:' || left(encode(sha256(convert_to(
           s.value || host(case when family(addr) = 6 then network(set_masklen(addr, 64)) else addr end),
           'UTF8')), 'hex'), 32)
    into v_key
    from private.rate_limit_settings s
    where s.name = 'address_salt';
  return v_key;
end
$$;
revoke execute on function private.address_key(inet) from public, anon, authenticated;
comment on function private.address_key(inet) is
  'Salted hash of an address as a rate-limit subject (''ip:<hex>''): an IPv4 address, or the /64 of an IPv6 one; null for null.';

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
revoke execute on function private.forwarded_client_address(text) from public, anon, authenticated;
grant execute on function private.forwarded_client_address(text) to service_role;
comment on function private.forwarded_client_address(text) is 'The client''s address in an X-Forwarded-For value (right-most public entry that is not a trusted proxy), or null.';

-- ---------------------------------------------------------------------------------------------
-- Data API writes: a cap per request (pre-request) and per row written (write triggers)
-- ---------------------------------------------------------------------------------------------
/**
 * Runs before every Data API request (PostgREST's db-pre-request, set on the authenticator role below).
 * Reads are left alone (they run read-only and are cheap); every POST, PATCH, PUT and DELETE by anon or
 * a signed-in user counts against rest_write.ip (per address) and rest_write.user (per user). The
 * row-level limits of each write path (private.limit_writes) are stricter; this one catches whatever else
 * a client could loop over.
 */
create function private.rest_pre_request()
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_role text := private.request_role();
  v_key text;
  v_uid uuid := (select auth.uid());
begin
  if current_setting('request.method', true) in ('GET', 'HEAD', 'OPTIONS', '')
     or current_setting('transaction_read_only', true) = 'on'
     or v_role is null or v_role not in ('anon', 'authenticated') then
    return;
  end if;
  v_key := private.client_address_key();
  if v_key is not null then
    perform private.rate_limit('rest_write.ip', v_key);
  end if;
  if v_uid is not null then
    perform private.rate_limit('rest_write.user', 'user:' || v_uid);
  end if;
end
$$;
revoke execute on function private.rest_pre_request() from public;
grant execute on function private.rest_pre_request() to anon, authenticated, service_role;
comment on function private.rest_pre_request() is 'PostgREST db-pre-request: limits Data API write requests per address and per user (rest_write.ip, rest_write.user).';

-- PostgREST reads its in-database configuration from the authenticator role's settings and reloads it
-- on NOTIFY pgrst, 'reload config' (on hosted Supabase as on the local stack).
alter role authenticator set pgrst.db_pre_request = 'private.rest_pre_request';
notify pgrst, 'reload config';

/**
 * Before insert: takes one call from '<kind>.user' (the signed-in caller) and '<kind>.ip' (the client
 * address, when the request has one), kind being the trigger's argument; raises 429 past either.
 */
create function private.limit_writes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_kind text := tg_argv[0];
  v_uid uuid;
  v_key text;
begin
  if coalesce(private.request_role(), '') not in ('anon', 'authenticated')
     or coalesce(current_setting('request.method', true), '') = '' then
    return new;
  end if;
  v_uid := (select auth.uid());
  if v_uid is not null then
    perform private.rate_limit(v_kind || '.user', 'user:' || v_uid);
  end if;
  v_key := private.client_address_key();
  if v_key is not null then
    perform private.rate_limit(v_kind || '.ip', v_key);
  end if;
  return new;
end
$$;
revoke execute on function private.limit_writes() from public;
comment on function private.limit_writes() is
  'Trigger: limits inserts per signed-in user (<kind>.user) and per client address (<kind>.ip); kind is the trigger argument.';

/** Takes `cost` calls from '<kind>.user' and '<kind>.ip' for a caller an edge function verified and located. */
create function private.limit_verified_caller(kind text, caller uuid, client_address inet, cost integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if caller is not null then
    perform private.rate_limit(kind || '.user', 'user:' || caller, cost);
  end if;
  if client_address is not null and not private.is_non_public_address(client_address) then
    perform private.rate_limit(kind || '.ip', private.address_key(client_address), cost);
  end if;
end
$$;
revoke execute on function private.limit_verified_caller(text, uuid, inet, integer) from public, anon, authenticated;
comment on function private.limit_verified_caller(text, uuid, inet, integer) is
  'Limits a service-role entry point per verified user and per client address (kind.user, kind.ip); raises 429 past either.';
