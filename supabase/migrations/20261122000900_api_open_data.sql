-- The API (/api/v1) and open data: API keys and keyed limits, the range lookup, open data exports.
--
-- API keys: 'sck_' and 64 hex characters (32 random bytes), shown once; the database keeps only its
-- SHA-256 (private.api_key_hashes, which no API role can read) and the visible prefix. The api function
-- hashes the key a caller sends and asks public.api_limit (service role only) for the caller's bucket:
-- api.key per key, else api.anon per hashed client address. A revoked or unknown key is refused on
-- every request; nothing caches a key's state.
--
-- Range lookup (as Have I Been Pwned's Pwned Passwords range API): a client sends the first 5 hex
-- characters of the SHA-256 of an identifier's canonical form and gets every reported identifier whose
-- hash starts with them (the rest of the hash, its count and risk). Nothing is logged. Requests that
-- arrive together go to the database as one call of public.range_lookup_limited_many, each still taking
-- its own caller's limit, as sets: keys looked up together, buckets inserted or locked in one fixed
-- order (keys by hash, then buckets by limit and subject, so two calls cannot deadlock) and taken in one
-- update, ranges of all admitted prefixes in one index scan (private.range_entries).

-- ---------------------------------------------------------------------------------------------
-- API keys and keyed limits
-- ---------------------------------------------------------------------------------------------
create table public.api_keys (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 60 and name = btrim(name)),
  prefix text not null check (prefix ~ '^sck_[0-9a-f]{8}$'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null
);
alter table public.api_keys enable row level security;
revoke all on public.api_keys from anon, authenticated;
grant select on public.api_keys to authenticated;
grant all on public.api_keys to service_role;
comment on column public.api_keys.prefix is 'The first 12 characters of the key (sck_ and 8 hex), shown in lists to tell keys apart.';
comment on column public.api_keys.last_used_at is 'When the key last made a request, to the minute (updated at most once a minute).';
comment on table public.api_keys is 'API keys for /api/v1 (issue 14): name, visible prefix and state. The key itself is never stored; its hash is in private.api_key_hashes. Owners read their own, admins all; written only through create_api_key and revoke_api_key.';

create index api_keys_user_id_idx on public.api_keys (user_id, created_at desc);

create index api_keys_revoked_by_idx on public.api_keys (revoked_by);

create policy "Owners read their own API keys, admins all" on public.api_keys
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create table private.api_key_hashes (
  key_id uuid not null primary key references public.api_keys (id) on delete cascade,
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$')
);
alter table private.api_key_hashes enable row level security;
comment on table private.api_key_hashes is 'SHA-256 (hex) of each API key; looked up by public.api_limit only.';

/**
 * Makes an API key for the signed-in caller and returns it once: {id, name, prefix, key, created_at}.
 * At most api_keys_per_user (private.rate_limit_settings) keys that are not revoked, and api_key.create
 * a user an hour.
 */
create function public.create_api_key(name text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_name text := btrim(coalesce(create_api_key.name, ''));
  v_key text;
  v_max integer;
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to make an API key' using errcode = '42501';
  end if;
  if char_length(v_name) not between 1 and 60 then
    raise exception 'An API key''s name is 1 to 60 characters' using errcode = '22023';
  end if;
  perform private.rate_limit('api_key.create', 'user:' || v_uid);
  select coalesce(max(value::int), 10) into v_max from private.rate_limit_settings where rate_limit_settings.name = 'api_keys_per_user';
  -- One caller at a time, so parallel requests cannot overshoot the count.
  perform pg_advisory_xact_lock(hashtextextended('api_keys:' || v_uid, 0));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null) >= v_max then
    raise sqlstate 'PT409' using
      message = format('You already have %s API keys; revoke one before making another', v_max);
  end if;
  v_key := 'sck_' || encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.api_keys (user_id, name, prefix)
  values (v_uid, v_name, left(v_key, 12))
  returning * into v_row;
  insert into private.api_key_hashes (key_id, key_hash)
  values (v_row.id, encode(sha256(convert_to(v_key, 'UTF8')), 'hex'));
  return jsonb_build_object('id', v_row.id, 'name', v_row.name, 'prefix', v_row.prefix, 'key', v_key,
                            'created_at', v_row.created_at);
end
$$;
revoke execute on function public.create_api_key(text) from public, anon;
grant execute on function public.create_api_key(text) to authenticated, service_role;
comment on function public.create_api_key(text) is
  'Signed-in users: makes an API key named name and returns it once ({id, name, prefix, key, created_at}); only its hash is kept.';

/** Revokes a key: its owner or an admin. Revoking a revoked key changes nothing. Returns the key's row. */
create function public.revoke_api_key(key_id uuid)
returns public.api_keys
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to revoke an API key' using errcode = '42501';
  end if;
  select * into v_row from public.api_keys k where k.id = revoke_api_key.key_id for update;
  -- Someone else's key is "not found" to a non-admin, as RLS hides it from them.
  if v_row.id is null or (v_row.user_id <> v_uid and not private.is_admin()) then
    raise sqlstate 'PT404' using message = 'No such API key';
  end if;
  if v_row.revoked_at is null then
    update public.api_keys k set revoked_at = now(), revoked_by = v_uid
    where k.id = v_row.id
    returning * into v_row;
  end if;
  return v_row;
end
$$;
revoke execute on function public.revoke_api_key(uuid) from public, anon;
grant execute on function public.revoke_api_key(uuid) to authenticated, service_role;
comment on function public.revoke_api_key(uuid) is 'The key''s owner or an admin: revokes the key at once (every later request with it gets 401).';

create function public.api_limit(key_hash text default null, cost integer default 1)
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
revoke execute on function public.api_limit(text, integer) from public, anon, authenticated;
grant execute on function public.api_limit(text, integer) to service_role;
comment on function public.api_limit(text, integer) is
  'Service role only (the api function): checks the API key by its SHA-256 and takes cost calls from api.key (per key) or api.anon (per hashed address).';

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
revoke execute on function private.api_limit_for(text, integer, inet) from public, anon, authenticated;
grant execute on function private.api_limit_for(text, integer, inet) to service_role;
comment on function private.api_limit_for(text, integer, inet) is
  'public.api_limit with the anonymous caller''s address given: checks the API key by its SHA-256 and takes cost calls from api.key (per key) or api.anon (per hashed addr).';

-- ---------------------------------------------------------------------------------------------
-- Range lookup
-- ---------------------------------------------------------------------------------------------
create function public.range_lookup(prefix text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if prefix is null or prefix !~ '^[0-9a-fA-F]{5}$' then
    raise exception 'prefix must be 5 hex characters' using errcode = '22023';
  end if;
  return coalesce((select e.entries from private.range_entries(array[lower(range_lookup.prefix)]) e), '[]'::jsonb);
end
$$;
revoke execute on function public.range_lookup(text) from public, anon, authenticated;
grant execute on function public.range_lookup(text) to service_role;
comment on function public.range_lookup(text) is
  'Service role only (GET /api/v1/range/{prefix}): reported identifiers whose sha256 starts with prefix, as [{suffix, count, risk_level, risk_label}].';

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
revoke execute on function public.range_lookup_limited(text, text, integer, text) from public, anon, authenticated;
grant execute on function public.range_lookup_limited(text, text, integer, text) to service_role;
comment on function public.range_lookup_limited(text, text, integer, text) is
  'Service role only (GET /api/v1/range/{prefix}): takes the caller''s API limit as public.api_limit does (forwarded_for: the caller''s X-Forwarded-For, for the per-address limit) and, when allowed, answers the range as public.range_lookup does: {limit, entries}; entries is absent when refused.';

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
revoke execute on function private.range_lookup_limited_for(text, text, integer, inet) from public, anon, authenticated;
grant execute on function private.range_lookup_limited_for(text, text, integer, inet) to service_role;
comment on function private.range_lookup_limited_for(text, text, integer, inet) is
  'public.range_lookup_limited with the anonymous caller''s address given: takes the limit, then answers the range when admitted.';

create function public.range_lookup_limited_many(requests jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
  v_now timestamptz := clock_timestamp();
  v_kind text[];
  v_subject text[];
  v_revoked timestamptz[];
  v_answers jsonb;
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
  if v_count = 0 then
    return '[]'::jsonb;
  end if;

  -- 1. Who each caller is: 'key' (its bucket 'key:<id>'), 'unknown', 'revoked', or 'anon' (its
  -- bucket the salted hash of its address, null without a public one).
  select array_agg(q.kind order by q.ord), array_agg(q.subject order by q.ord),
         array_agg(q.revoked_at order by q.ord)
    into v_kind, v_subject, v_revoked
  from (
    select e.ord,
           case
             when e.value ->> 1 is null then 'anon'
             when k.id is null then 'unknown'
             when k.revoked_at is not null then 'revoked'
             else 'key'
           end as kind,
           case
             when e.value ->> 1 is not null then
               case when k.revoked_at is null then 'key:' || k.id end
             else private.address_key(
               case
                 when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
                 else private.client_address()
               end)
           end as subject,
           k.revoked_at
    from jsonb_array_elements(requests) with ordinality e(value, ord)
    left join private.api_key_hashes h on h.key_hash = lower(e.value ->> 1)
    left join public.api_keys k on k.id = h.key_id
  ) q;

  -- A valid key's last use, at most once a minute (as private.api_limit_for), its row locked in key
  -- hash order.
  update public.api_keys k set last_used_at = now()
  from (
    select k2.id
    from private.api_key_hashes h
    join public.api_keys k2 on k2.id = h.key_id
    where h.key_hash in (select distinct lower(e.value ->> 1) from jsonb_array_elements(requests) e(value))
      and k2.revoked_at is null
      and (k2.last_used_at is null or k2.last_used_at < now() - interval '1 minute')
    order by h.key_hash
    for update of k2
  ) stale
  where k.id = stale.id;

  -- 2. Every bucket of an enabled limit, inserted empty or locked as it is, in (name, subject) order.
  insert into private.rate_limit_buckets as b (name, subject, tat)
  select r.name, r.subject, v_now
  from (
    select distinct case when s.kind = 'key' then 'api.key' else 'api.anon' end as name, s.subject
    from unnest(v_kind, v_subject) s(kind, subject)
    where s.subject is not null
  ) r
  join private.rate_limits l on l.name = r.name and l.enabled
  order by r.name, r.subject
  on conflict on constraint rate_limit_buckets_pkey do update set tat = b.tat where false;
  -- Now, read once the buckets are ours: the insert above may have waited for another call that took
  -- the same bucket, and a time from before that wait would make this call's state older than that
  -- call's (one call fewer remaining, or a refusal where calls one after another would be admitted),
  -- as private.rate_limit_take's clock, read after its own wait, is not. A new bucket's empty time
  -- above needs only to be no later than this.
  v_now := clock_timestamp();

  with req as (
    select s.ord, e.value ->> 0 as prefix, s.kind, s.subject, s.revoked_at,
           case when s.kind = 'key' then 'api.key' else 'api.anon' end as name
    from unnest(v_kind, v_subject, v_revoked) with ordinality s(kind, subject, revoked_at, ord)
    join jsonb_array_elements(requests) with ordinality e(value, ord) on e.ord = s.ord
  ),
  -- Each limited request's place in its bucket (1 for the first of them in request order).
  placed as (
    select r.ord, r.name, r.subject,
           row_number() over (partition by r.name, r.subject order by r.ord) as place
    from req r
    where r.kind in ('key', 'anon') and r.subject is not null
  ),
  -- Each bucket as it was (locked above), its limit, and how many of its requests it admits.
  bucket as (
    select b.name, b.subject, l.per_seconds,
           l.per_seconds::float8 / l.max_calls as step_s,
           greatest(b.tat, v_now) as base,
           (select count(*) from placed p
            where p.name = b.name and p.subject = b.subject
              and greatest(b.tat, v_now) + make_interval(secs => l.per_seconds::float8 / l.max_calls * p.place)
                  <= v_now + make_interval(secs => l.per_seconds)) as admitted
    from private.rate_limit_buckets b
    join private.rate_limits l on l.name = b.name and l.enabled
    where (b.name, b.subject) in (select p.name, p.subject from placed p)
  ),
  taken as (
    update private.rate_limit_buckets b
    set tat = t.base + make_interval(secs => t.step_s * t.admitted)
    from bucket t
    where b.name = t.name and b.subject = t.subject and t.admitted > 0
  ),
  -- Each limited request's state, as private.rate_limit_take computes it from its bucket's time once it
  -- is taken (admitted) or as the admitted ones left it (refused).
  state as (
    select p.ord, a.allowed,
           greatest(0, floor((t.per_seconds - extract(epoch from (a.tat - v_now))) / t.step_s))::int as remaining,
           greatest(0, ceil(extract(epoch from (a.tat - v_now))))::int as reset,
           case
             when a.allowed then 0
             else greatest(1, ceil(extract(epoch from (
               a.tat + make_interval(secs => t.step_s) - make_interval(secs => t.per_seconds) - v_now))))::int
           end as retry_after
    from placed p
    join bucket t on t.name = p.name and t.subject = p.subject
    cross join lateral (
      select p.place <= t.admitted as allowed,
             t.base + make_interval(secs => t.step_s * least(p.place, t.admitted)) as tat
    ) a
  ),
  -- A request without a state has a disabled limit: always allowed, nothing spent.
  limit_state as (
    select r.ord,
           case
             when r.kind = 'unknown' then jsonb_build_object('status', 'unknown')
             when r.kind = 'revoked' then jsonb_build_object('status', 'revoked', 'revoked_at', r.revoked_at)
             when r.subject is null then jsonb_build_object('status', 'ok', 'allowed', true, 'subject_kind', 'none')
             else jsonb_build_object(
               'status', 'ok', 'allowed', coalesce(s.allowed, true), 'limit', l.max_calls,
               'remaining', coalesce(s.remaining, l.max_calls),
               'reset', coalesce(s.reset, 0),
               'retry_after', coalesce(s.retry_after, 0),
               'window', l.per_seconds,
               'subject_kind', case when r.kind = 'key' then 'key' else 'address' end,
               'message', case when not s.allowed then
                 format('%s: at most %s per %s. Please try again in %s.', l.description, l.max_calls,
                        private.rate_limit_duration(l.per_seconds), private.rate_limit_duration(s.retry_after))
               end)
           end as lim,
           r.kind in ('key', 'anon') and (r.subject is null or coalesce(s.allowed, true)) as served,
           r.prefix
    from req r
    left join state s on s.ord = r.ord
    left join private.rate_limits l on l.name = r.name
  ),
  -- 3. The ranges of the admitted prefixes, in one scan.
  ranges as (
    select e.prefix, e.entries
    from private.range_entries(array(select distinct x.prefix from limit_state x where x.served)) e
  )
  -- 4. The answers in request order.
  select jsonb_agg(
           case when x.served then jsonb_build_object('limit', x.lim, 'entries', coalesce(g.entries, '[]'::jsonb))
                else jsonb_build_object('limit', x.lim) end
           order by x.ord)
    into v_answers
  from limit_state x
  left join ranges g on g.prefix = x.prefix;

  -- Now and then, clear a batch of expired buckets (as each private.rate_limit_take call may).
  if random() < 1 - power(0.998, v_count) then
    perform private.rate_limit_cleanup(1000);
  end if;
  return v_answers;
end
$$;
revoke execute on function public.range_lookup_limited_many(jsonb) from public, anon, authenticated;
grant execute on function public.range_lookup_limited_many(jsonb) to service_role;
comment on function public.range_lookup_limited_many(jsonb) is
  'Many range lookups in one call ([prefix, key_hash, x_forwarded_for] each): each takes its caller''s limit (keys, then buckets, each set in one fixed order); answers in request order.';

/**
 * The reported identifiers of each of `prefixes` (5 lower-case hex characters each), as
 * [{suffix, count, risk_level, risk_label}] sorted by suffix; a prefix without any has no row.
 */
create function private.range_entries(prefixes text[])
returns table (prefix text, entries jsonb)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
begin
  -- PL/pgSQL, not SQL: a SQL function that cannot be inlined (security definer) is planned again on
  -- every call (0.3 ms); PL/pgSQL keeps the plan. Its generic plan (the index scan for any array) is
  -- the only one worth having, and the planner's estimate for `= any ($1)` would have it plan each
  -- call anew (80 µs, against 12 µs a call with the plan kept).
  return query
  select left(h.hash, 5),
         jsonb_agg(jsonb_build_object(
           'suffix', substr(h.hash, 6),
           'count', c.report_count,
           'risk_level', r.risk,
           'risk_label', case when r.risk >= 60 then 'high' when r.risk >= 25 then 'medium' else 'low' end)
         order by h.hash)
  from public.identifier_report_counts c
  cross join lateral (select encode(sha256(convert_to(c.identifier_canonical, 'UTF8')), 'hex') as hash) h
  cross join lateral (
    select round(100 * (1 - exp(-private.identifier_weight(c.identifier_canonical) / 2)))::int as risk
  ) r
  where private.identifier_hash_prefix(c.identifier_canonical) = any (range_entries.prefixes)
    and c.report_count > 0
  group by left(h.hash, 5);
end
$$;
revoke execute on function private.range_entries(text[]) from public, anon, authenticated;
grant execute on function private.range_entries(text[]) to service_role;
comment on function private.range_entries(text[]) is
  'The reported identifiers of each prefix (sha256 of the canonical identifier, 5 lower-case hex), as public.range_lookup answers them; no row for a prefix without any.';

-- ---------------------------------------------------------------------------------------------
-- Open data
-- ---------------------------------------------------------------------------------------------
/** The rows of the daily open-data export (last `days` days), each the sum of its shards. */
create function public.open_data_daily(days integer default 365)
returns table (
  date date,
  incident_type public.incident_type,
  reported_account_type public.reported_account_type,
  status public.report_status,
  reports bigint,
  amount_lost_php numeric
)
language sql
stable
security definer
set search_path = ''
as $$
  select s.day, s.incident_type, s.reported_account_type, s.status, sum(s.report_count)::bigint, sum(s.amount_total)
  from private.stats_daily s
  where days between 1 and 3660
    and s.day > (now() at time zone 'UTC')::date - days
  group by 1, 2, 3, 4
  having sum(s.report_count) > 0
  order by 1, 2, 3, 4
$$;
revoke execute on function public.open_data_daily(integer) from public, anon, authenticated;
grant execute on function public.open_data_daily(integer) to service_role;
comment on function public.open_data_daily(integer) is 'Rows of the daily open-data export (last `days` days) from the rollups. Service role only.';
