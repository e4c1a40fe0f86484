-- Range lookups answered together, taken as sets (issue 14, section 4: p99 under 20 ms at 50
-- concurrent clients).
--
-- public.range_lookup_limited_many ran private.api_limit_for and private.rate_limit_take once per
-- request. Measured with track_functions in the range bench (50 clients, a key each, 9.6 requests per
-- call): 0.18 ms of Postgres per request, of which 0.13 ms was the limit (key lookup, the limit's row
-- read twice, the bucket's upsert, the state's arithmetic and JSON, each in its own PL/pgSQL call) and
-- 0.04 ms the range itself. Now each step is one statement for the whole call:
--   1. the callers' keys: looked up together; the stale last_used_at of the valid ones updated;
--   2. the callers' buckets: each distinct (limit, subject) inserted, or locked when it exists, in one
--      order; then all of them taken in one update, each by as many of its requests as it admits;
--   3. the ranges of all distinct admitted prefixes, in one index scan (private.range_entries, which
--      public.range_lookup now uses too: 1.5 µs a prefix in one query, against 12 µs a call);
--   4. the answers, in request order.
-- Same answers as before: a request i of n in one bucket gets what the i-th of n calls of its own
-- would get (GCRA, cost 1: admitted while the bucket's time plus i steps stays within the window;
-- a refused request spends nothing, so all requests after the first refused one are refused too),
-- the same JSON for a key that is unknown or revoked, an address without a public address, a
-- disabled limit.
--
-- Deadlocks: rows are taken in one fixed order, api_keys rows (only stale ones, as before) by key hash
-- first, then buckets by (limit name, subject), each inserted or locked in that order by one insert
-- (ON CONFLICT DO UPDATE locks a conflicting row even when its WHERE is false). A single call takes
-- one key row and then one bucket, which fits that order; private.rate_limit_cleanup skips locked rows.

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
comment on function private.range_entries(text[]) is
  'The reported identifiers of each prefix (sha256 of the canonical identifier, 5 lower-case hex), as public.range_lookup answers them; no row for a prefix without any.';
revoke execute on function private.range_entries(text[]) from public, anon, authenticated;
grant execute on function private.range_entries(text[]) to service_role;

create or replace function public.range_lookup(prefix text)
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

create or replace function public.range_lookup_limited_many(requests jsonb)
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
comment on function public.range_lookup_limited_many(jsonb) is
  'Many range lookups in one call ([prefix, key_hash, x_forwarded_for] each): each takes its caller''s limit (keys, then buckets, each set in one fixed order); answers in request order.';
