-- The one rate limiter of ScamCheck (issue 11): every write path, every e-mail and the keyed API limits
-- take from it, so limits hold across function instances and on hosted Supabase alike (the counters live
-- in Postgres, not in a process).
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
-- Limits are rows of private.rate_limits (defaults below, listed in the README); operators change them
-- with an update, no deploy needed.

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
comment on table private.rate_limits is 'Named limits: at most max_calls per per_seconds for one subject (a user, an address, an API key). Change with an update; disabled limits always allow.';
comment on column private.rate_limits.description is 'What is being limited, as the 429 message names it ("Too many searches from your address").';
alter table private.rate_limits enable row level security;

create table private.rate_limit_settings (
  name text not null primary key,
  value text not null
);
comment on table private.rate_limit_settings is 'How the limiter finds the client''s address: client_address_header (default x-forwarded-for), trusted_proxies (comma-separated CIDRs skipped as proxies), address_salt (secret salt of address hashes).';
alter table private.rate_limit_settings enable row level security;
insert into private.rate_limit_settings (name, value) values
  ('client_address_header', 'x-forwarded-for'),
  ('trusted_proxies', ''),
  ('address_salt', gen_random_uuid()::text || gen_random_uuid()::text);

create table private.rate_limit_buckets (
  name text not null references private.rate_limits (name) on delete cascade on update cascade,
  subject text not null check (char_length(subject) between 1 and 200),
  tat timestamptz not null,
  primary key (name, subject)
);
comment on table private.rate_limit_buckets is 'One token bucket per limit and subject: tat is when the bucket is full again. Rows whose tat passed mean nothing and are deleted by private.rate_limit_cleanup.';
create index rate_limit_buckets_tat_idx on private.rate_limit_buckets (tat);
alter table private.rate_limit_buckets enable row level security;

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
comment on function private.rate_limit_cleanup(integer) is 'Deletes expired rate-limit buckets (at most max_rows); the limiter also calls it now and then.';
revoke execute on function private.rate_limit_cleanup(integer) from public, anon, authenticated;
grant execute on function private.rate_limit_cleanup(integer) to service_role;

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
comment on function private.rate_limit_take(text, text, integer) is
  'Takes cost calls from the (limit name, subject) bucket: (allowed, max_calls, remaining, reset_seconds, retry_after_seconds). Refused calls spend nothing.';
revoke execute on function private.rate_limit_take(text, text, integer) from public;
grant execute on function private.rate_limit_take(text, text, integer) to anon, authenticated, service_role;

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
comment on function private.rate_limit_duration(integer) is 'A duration in seconds as words, for 429 messages.';
grant execute on function private.rate_limit_duration(integer) to anon, authenticated, service_role;

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
comment on function private.rate_limit(text, text, integer) is
  'Enforces the named limit for subject: returns, or raises HTTP 429 (code PT429) with Retry-After and RateLimit-* headers through PostgREST.';
revoke execute on function private.rate_limit(text, text, integer) from public;
grant execute on function private.rate_limit(text, text, integer) to anon, authenticated, service_role;

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
comment on function public.rate_limit_check(text, text, integer) is
  'Service role only: takes cost calls from a named limit for subject; {allowed, limit, remaining, reset, retry_after}.';
revoke execute on function public.rate_limit_check(text, text, integer) from public, anon, authenticated;
grant execute on function public.rate_limit_check(text, text, integer) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The client's address
-- ---------------------------------------------------------------------------------------------
/** True for addresses that identify no client: private, loopback, link-local, CGNAT, multicast, ... */
create function private.is_non_public_address(addr inet)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select addr << any (array[
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12',
    '192.168.0.0/16', '198.18.0.0/15', '224.0.0.0/3',
    '::/128', '::1/128', 'fc00::/7', 'fe80::/10', 'ff00::/8', '2001:db8::/32']::inet[])
    or addr = any (array['::'::inet, '::1'::inet])
$$;
comment on function private.is_non_public_address(inet) is 'True for private, loopback, link-local, CGNAT, multicast and documentation addresses.';
grant execute on function private.is_non_public_address(inet) to anon, authenticated, service_role;

/**
 * The caller's address as the request's trusted header gives it (private.rate_limit_settings):
 * proxies append the address they saw to X-Forwarded-For, so entries are read from the right and the
 * first public one that is not a trusted proxy is the client; entries further left are whatever the
 * client wrote and are never used. Null when the request has none (a direct database session, or only
 * loopback/private hops as on the local stack).
 */
create function private.client_address()
returns inet
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_header text;
  v_trusted inet[];
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
  begin
    v_raw := current_setting('request.headers', true)::json ->> lower(coalesce(v_header, 'x-forwarded-for'));
  exception when others then
    return null;
  end;
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
    begin
      v_addr := v_entry::inet;
    exception when others then
      continue;
    end;
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
comment on function private.client_address() is 'The client''s address from the trusted request header (right-most public entry that is not a trusted proxy), or null.';
revoke execute on function private.client_address() from public;
grant execute on function private.client_address() to anon, authenticated, service_role;

/** 'ip:' and a salted SHA-256 of the client's address (the limiter's subject for per-address limits), or null. */
create function private.client_address_key()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select 'ip:' || left(encode(sha256(convert_to(s.value || host(a.addr), 'UTF8')), 'hex'), 32)
  from (select private.client_address() as addr) a, private.rate_limit_settings s
  where s.name = 'address_salt' and a.addr is not null
$$;
comment on function private.client_address_key() is 'Salted hash of the client''s address as a rate-limit subject (''ip:<hex>''), null when there is no address.';
revoke execute on function private.client_address_key() from public;
grant execute on function private.client_address_key() to anon, authenticated, service_role;

/**
 * The role the API request runs as (from the JWT claims), also inside security definer functions
 * where current_user is the owner. Null outside API requests (seeds, operators, tests as superuser).
 */
create function private.request_role()
returns text
language sql
stable
set search_path = ''
as $$
  select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
$$;
comment on function private.request_role() is 'The API caller''s role from request.jwt.claims, null outside API requests.';
grant execute on function private.request_role() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- PostgREST's db-pre-request: a cap on write requests per address and per user, whatever they write
-- ---------------------------------------------------------------------------------------------
/**
 * Runs before every Data API request (PostgREST's db-pre-request, set on the authenticator role below).
 * Reads are left alone (they run read-only and are cheap); every POST, PATCH, PUT and DELETE by anon or
 * a signed-in user counts against rest_write.ip (per address) and rest_write.user (per user). The
 * row-level limits of each write path (next migration) are stricter; this one catches whatever else
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
comment on function private.rest_pre_request() is 'PostgREST db-pre-request: limits Data API write requests per address and per user (rest_write.ip, rest_write.user).';
revoke execute on function private.rest_pre_request() from public;
grant execute on function private.rest_pre_request() to anon, authenticated, service_role;

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('rest_write.ip', 120, 60, 'Too many changes from your address'),
  ('rest_write.user', 120, 60, 'Too many changes from your account');

-- PostgREST reads its in-database configuration from the authenticator role's settings and reloads it
-- on NOTIFY pgrst, 'reload config' (on hosted Supabase as on the local stack).
alter role authenticator set pgrst.db_pre_request = 'private.rest_pre_request';
notify pgrst, 'reload config';
