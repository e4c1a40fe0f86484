-- Issue 27, "no bulk list of accusations". The range lookup listed every reported identifier, pending-only
-- ones included, with counts and risk, at 1,200 prefixes a minute per key and 10 keys per account: one
-- account walked all 16^5 prefixes in about 90 minutes, and a Philippine mobile number comes back from
-- its SHA-256 by brute force. Now (docs/behaviour.md §12):
--   * the range lists only identifiers with at least one verified report; its count is their verified
--     reports and its risk that of the verified reports alone (pending ones are neither listed nor
--     counted, so an answer never rests on unverified reports);
--   * a keyed caller's budget is per account across all its keys (range.account) and per client address
--     (range.address, shared by every account there); anonymous callers keep api.anon per address;
--   * an account may hold 3 live keys (production, staging, and one to rotate without downtime).
-- Deadlock order as in 20261124150000_range_lookup_many_set_based.sql: keys by hash, then buckets by
-- (name, subject), all inserted or locked by one ordered insert.

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('range.account', 1200, 60, 'Too many range lookups from your account'),
  ('range.address', 1200, 60, 'Too many range lookups from your address')
on conflict (name) do nothing;
update private.rate_limit_settings set value = '3' where name = 'api_keys_per_user';

/**
 * The verified identifiers of each of `prefixes` (5 lower-case hex characters each), as
 * [{suffix, count (verified reports), risk_level, risk_label (of the verified reports alone)}] sorted by
 * suffix; a prefix without any has no row.
 */
create or replace function private.range_entries(prefixes text[])
returns table (prefix text, entries jsonb)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
as $$
begin
  return query
  select left(h.hash, 5),
         jsonb_agg(jsonb_build_object(
           'suffix', substr(h.hash, 6),
           'count', c.verified_count,
           'risk_level', d.verified_risk_level,
           'risk_label', case when d.verified_risk_level >= 60 then 'high'
                              when d.verified_risk_level >= 25 then 'medium' else 'low' end)
         order by h.hash)
  from public.identifier_report_counts c
  cross join lateral (select encode(sha256(convert_to(c.identifier_canonical, 'UTF8')), 'hex') as hash) h
  cross join lateral private.identifier_verdict(c.identifier_canonical) d
  where private.identifier_hash_prefix(c.identifier_canonical) = any (range_entries.prefixes)
    and c.verified_count > 0
  group by left(h.hash, 5);
end
$$;
comment on function private.range_entries(text[]) is
  'The verified identifiers of each prefix (sha256 of the canonical identifier, 5 lower-case hex): count of verified reports and the risk of those alone; no row for a prefix without any. Pending-only identifiers are never listed.';

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
  v_addr text[];
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
         array_agg(q.revoked_at order by q.ord), array_agg(q.addr order by q.ord)
    into v_kind, v_subject, v_revoked, v_addr
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
               case when k.revoked_at is null then 'user:' || k.user_id end
             else private.address_key(
               case
                 when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
                 else private.client_address()
               end)
           end as subject,
           k.revoked_at,
           -- A keyed request's address: its second budget (range.address), shared by every account there.
           case when e.value ->> 1 is not null and k.id is not null and k.revoked_at is null then
             private.address_key(
               case
                 when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
                 else private.client_address()
               end)
           end as addr
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
    select distinct case when s.kind = 'key' then 'range.account' else 'api.anon' end as name, s.subject
    from unnest(v_kind, v_subject) s(kind, subject)
    where s.subject is not null
    union
    select distinct 'range.address', s.addr
    from unnest(v_kind, v_addr) s(kind, addr)
    where s.kind = 'key' and s.addr is not null
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
    select s.ord, e.value ->> 0 as prefix, s.kind, s.subject, s.revoked_at, s.addr,
           case when s.kind = 'key' then 'range.account' else 'api.anon' end as name
    from unnest(v_kind, v_subject, v_revoked, v_addr) with ordinality s(kind, subject, revoked_at, addr, ord)
    join jsonb_array_elements(requests) with ordinality e(value, ord) on e.ord = s.ord
  ),
  -- Each limited request's place in each of its buckets (1 for the first of them in request order): the
  -- caller's own (range.account for a key, api.anon without one) and, for a key, its address's.
  buckets_of as (
    select r.ord, r.name, r.subject, true as primary_bucket from req r
    where r.kind in ('key', 'anon') and r.subject is not null
    union all
    select r.ord, 'range.address', r.addr, false from req r
    where r.kind = 'key' and r.subject is not null and r.addr is not null
  ),
  placed as (
    select b.ord, b.name, b.subject, b.primary_bucket,
           row_number() over (partition by b.name, b.subject order by b.ord) as place
    from buckets_of b
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
  state_each as (
    select p.ord, p.primary_bucket, p.name, a.allowed,
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
  -- A request is served when each of its buckets admits it; its state is that of the bucket that
  -- refused it, else of its own bucket. (A request one bucket admits and the other refuses still spends
  -- from the one that admitted it: the budgets err on the caller's side of strict, never the other.)
  state as (
    select distinct on (s.ord) s.ord, bool_and(s.allowed) over (partition by s.ord) as allowed,
           s.name, s.remaining, s.reset, s.retry_after
    from state_each s
    order by s.ord, s.allowed, s.primary_bucket desc
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
    left join private.rate_limits l on l.name = coalesce(s.name, r.name)
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
  'Many range lookups in one call ([prefix, key_hash, x_forwarded_for] each): a keyed request takes range.account (per account, across its keys) and range.address, an anonymous one api.anon; verified identifiers only (private.range_entries). Answers in request order.';
