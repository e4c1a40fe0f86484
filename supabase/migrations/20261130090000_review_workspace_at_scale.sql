-- The review workspace at 1M reports (issue 31: each of its queries under 10 ms; `npm run bench:db`).
-- Measured on a 1-2M report bench database in a quiet window before this change: the queue 50 ms
-- (oldest first), 248 ms (search), 219 ms (a filter the pending index cannot serve), the user list
-- 2.5 s. Where the time went, and what replaces it:
--   * a reporter's history counted up to 500 of their reports, per report shown: now a rollup of
--     reports per reporter and status, kept by a trigger (exact counts, not the latest 500), read
--     once for every reporter in view;
--   * the user list counted every user's reports before its limit: now the same rollup;
--   * the signals were asked for one report at a time (a function call each, ~1 ms): now once for
--     every report in the view;
--   * search and the type/evidence filters walked every pending report: now indexes for them
--     (trigram for the search's substring match, partial indexes for the filters).

-- ---------------------------------------------------------------------------------------------
-- Reports per reporter and status
-- ---------------------------------------------------------------------------------------------
create table private.reporter_status_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  status public.report_status not null,
  report_count bigint not null default 0,
  primary key (user_id, status)
);
alter table private.reporter_status_counts enable row level security;
revoke all on table private.reporter_status_counts from anon, authenticated, service_role;
comment on table private.reporter_status_counts is 'Reports per reporter and status, kept by a trigger on public.reports: the reporter''s history in the review workspace and the admins'' user list.';

insert into private.reporter_status_counts (user_id, status, report_count)
select reporter_id, status, count(*) from public.reports where reporter_id is not null group by 1, 2;

create function private.bump_reporter_status_count(p_user uuid, p_status public.report_status, p_delta integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_user is null then
    return;
  end if;
  if p_delta < 0 then
    -- An update, never an insert: the reporter may be the account being deleted (its row goes with it).
    update private.reporter_status_counts c set report_count = c.report_count + p_delta
    where c.user_id = p_user and c.status = p_status;
  else
    insert into private.reporter_status_counts as c (user_id, status, report_count)
    values (p_user, p_status, p_delta)
    on conflict (user_id, status) do update set report_count = c.report_count + excluded.report_count;
  end if;
end
$$;
revoke execute on function private.bump_reporter_status_count(uuid, public.report_status, integer) from public, anon, authenticated;
comment on function private.bump_reporter_status_count(uuid, public.report_status, integer) is 'Adds delta to one reporter''s count of reports in one status.';

create function private.reports_reporter_status_counts()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE' and old.status is not distinct from new.status
     and old.reporter_id is not distinct from new.reporter_id then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.bump_reporter_status_count(old.reporter_id, old.status, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.bump_reporter_status_count(new.reporter_id, new.status, 1);
  end if;
  return null;
end
$$;
revoke execute on function private.reports_reporter_status_counts() from public, anon, authenticated;
comment on function private.reports_reporter_status_counts() is 'Trigger: keeps private.reporter_status_counts for inserted, deleted and re-decided (or re-assigned) reports.';

create trigger reports_reporter_status_counts after insert or delete or update of status, reporter_id on public.reports
  for each row execute function private.reports_reporter_status_counts();

create or replace function private.rebuild_rollups()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.site_counters where shard <> 0;
  update private.site_counters c set value = v.value
  from (
    select 'users' as name, (select count(*) from public.profiles) as value
    union all select 'reports', (select count(*) from public.reports)
    union all select 'verified_reports', (select count(*) from public.reports where status = 'verified')
    union all select 'contact_messages', (select count(*) from public.contact_messages)
    union all select 'searches', (select count(*) from public.search_log)
    union all select 'visitors', (select count(*) from public.visitor_log)
  ) v
  where c.name = v.name and c.shard = 0;
  truncate private.user_report_counts, private.user_monthly_report_counts, public.identifier_report_counts,
           private.reporter_status_counts;
  insert into private.user_report_counts (user_id, incident_type, report_count)
  select reporter_id, incident_type, count(*) from public.reports where reporter_id is not null group by 1, 2;
  insert into private.user_monthly_report_counts (user_id, month, report_count)
  select reporter_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)
  from public.reports where reporter_id is not null group by 1, 2;
  insert into public.identifier_report_counts (identifier_canonical, report_count, verified_count)
  select reported_account_canonical, count(*), count(*) filter (where status = 'verified')
  from public.reports where status in ('pending', 'verified') group by 1;
  insert into private.reporter_status_counts (user_id, status, report_count)
  select reporter_id, status, count(*) from public.reports where reporter_id is not null group by 1, 2;
  -- The public statistics have their own rebuild (private.rebuild_public_statistics, a full pass over
  -- the reports); here their shards are only folded.
  perform private.fold_public_statistics_shards();
end
$$;

drop function private.reporter_history(uuid);
create function private.reporter_histories(p_users uuid[])
returns table (user_id uuid, history jsonb)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, jsonb_build_object(
    'id', u.id,
    'account_created_at', u.created_at,
    'banned', u.banned_until > now(),
    'filed', coalesce(sum(c.report_count), 0),
    'verified', coalesce(sum(c.report_count) filter (where c.status = 'verified'), 0),
    'rejected', coalesce(sum(c.report_count) filter (where c.status = 'rejected'), 0),
    'removed', coalesce(sum(c.report_count) filter (where c.status = 'removed'), 0),
    'pending', coalesce(sum(c.report_count) filter (where c.status = 'pending'), 0))
  from auth.users u
  left join private.reporter_status_counts c on c.user_id = u.id
  where u.id = any (p_users)
  group by u.id, u.created_at, u.banned_until
$$;
revoke execute on function private.reporter_histories(uuid[]) from public, anon, authenticated;
comment on function private.reporter_histories(uuid[]) is 'Reports filed by each of these users and their outcomes (from private.reporter_status_counts), with the account''s creation time and ban: the reporters'' history in the review queue, one query for the whole view.';

-- ---------------------------------------------------------------------------------------------
-- Indexes for the queue's search and filters (pending reports only: the queue reads nothing else)
-- ---------------------------------------------------------------------------------------------
create extension if not exists pg_trgm with schema extensions;
create index reports_pending_account_trgm_idx on public.reports
  using gin (reported_account_canonical extensions.gin_trgm_ops, lower(reported_account) extensions.gin_trgm_ops)
  where status = 'pending';
create index reports_pending_type_created_at_idx on public.reports (incident_type, created_at, id)
  where status = 'pending';
create index reports_pending_account_type_created_at_idx on public.reports (reported_account_type, created_at, id)
  where status = 'pending';
create index reports_pending_no_evidence_created_at_idx on public.reports (created_at, id)
  where status = 'pending' and evidence_path is null;
create index reports_pending_evidence_created_at_idx on public.reports (created_at, id)
  where status = 'pending' and evidence_path is not null;

-- ---------------------------------------------------------------------------------------------
-- The queue: the signals of every report in view at once; filters the indexes above can serve
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_review_queue(
  search text default null,
  incident_type public.incident_type default null,
  account_type public.reported_account_type default null,
  min_age_days integer default null,
  has_evidence boolean default null,
  region text default null,
  sort text default 'oldest',
  max_groups integer default 25)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_result jsonb;
  v_search text := nullif(lower(btrim(search)), '');
  v_region text := nullif(lower(btrim(region)), '');
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the review queue' using errcode = '42501';
  end if;
  if sort not in ('oldest', 'most_reported') then
    raise exception 'sort is oldest or most_reported' using errcode = '22023';
  end if;
  max_groups := least(greatest(coalesce(max_groups, 25), 1), 100);

  with candidates as (
    -- The oldest pending reports that pass the filters (bounded; through the pending indexes).
    select r.id, r.reported_account_canonical, r.created_at
    from public.reports r
    where r.status = 'pending'
      and (v_search is null or r.reported_account_canonical like '%' || v_search || '%'
           or lower(r.reported_account) like '%' || v_search || '%')
      and (admin_review_queue.incident_type is null or r.incident_type = admin_review_queue.incident_type)
      and (account_type is null or r.reported_account_type = account_type)
      and (min_age_days is null or r.created_at <= now() - make_interval(days => min_age_days))
      and (has_evidence is null or (has_evidence and r.evidence_path is not null)
           or (not has_evidence and r.evidence_path is null))
      and (v_region is null or lower(coalesce(r.location, '')) like '%' || v_region || '%'
           or lower(coalesce(r.country, '')) = v_region)
    order by r.created_at, r.id
    limit 1000
  ), groups as (
    select c.reported_account_canonical as identifier, min(c.created_at) as oldest, count(*) as pending_in_view,
           coalesce((select irc.report_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as report_count,
           coalesce((select irc.verified_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as verified_count
    from candidates c
    group by c.reported_account_canonical
    order by case when sort = 'most_reported' then -count(*) end, min(c.created_at)
    limit max_groups
  ), shown as (
    select c.id, row_number() over (order by c.id) as n
    from candidates c
    where c.reported_account_canonical in (select g.identifier from groups g)
  ), signals as materialized (
    -- One call per 200 reports (report_signals' limit), not one per report.
    select s.report_id, s.young_account, s.shared_network_reporters
    from (select array_agg(sh.id) as ids from shown sh group by (sh.n - 1) / 200) chunk
    cross join lateral public.report_signals(chunk.ids) s
  ), histories as materialized (
    select h.user_id, h.history
    from private.reporter_histories(array(
      select distinct r.reporter_id from public.reports r
      where r.id in (select sh.id from shown sh) and r.reporter_id is not null)) h
  )
  select jsonb_build_object(
    'backlog', (select count(*) from candidates),
    'groups', coalesce(jsonb_agg(jsonb_build_object(
      'identifier', g.identifier,
      'oldest', g.oldest,
      'report_count', g.report_count,
      'verified_count', g.verified_count,
      'reports', (
        select jsonb_agg(jsonb_build_object(
          'id', r.id, 'created_at', r.created_at, 'incident_date', r.incident_date,
          'incident_type', r.incident_type, 'reported_account_type', r.reported_account_type,
          'reported_account', r.reported_account, 'incident_description', r.incident_description,
          'amount_lost', r.amount_lost, 'location', r.location, 'country', r.country,
          'evidence_path', r.evidence_path, 'source', r.source,
          'reporter', (select h.history from histories h where h.user_id = r.reporter_id),
          'signal', (select jsonb_build_object('young_account', sg.young_account,
                                               'shared_network_reporters', sg.shared_network_reporters)
                     from signals sg where sg.report_id = r.id)) order by r.created_at)
        from public.reports r
        where r.reported_account_canonical = g.identifier and r.status = 'pending'
          and r.id in (select c.id from candidates c where c.reported_account_canonical = g.identifier)),
      'verified', (
        select coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'created_at', v.created_at,
                                                      'incident_type', v.incident_type,
                                                      'incident_description', left(v.incident_description, 300))
                                  order by v.created_at desc), '[]'::jsonb)
        from (select r.id, r.created_at, r.incident_type, r.incident_description
              from public.reports r
              where r.reported_account_canonical = g.identifier and r.status = 'verified'
              order by r.created_at desc limit 5) v)
    ) order by case when sort = 'most_reported' then -g.pending_in_view end, g.oldest), '[]'::jsonb)
  ) into v_result
  from groups g;
  return v_result;
end
$function$;

-- ---------------------------------------------------------------------------------------------
-- The user list: reports per user from private.reporter_status_counts, not by counting reports
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_users(
  search text default null,
  role text default null,
  suspended boolean default null,
  min_reports integer default null,
  before_created_at timestamptz default null,
  before_id uuid default null,
  max_rows integer default 50
)
 returns table (
  id uuid,
  name text,
  email text,
  created_at timestamptz,
  last_sign_in_at timestamptz,
  is_admin boolean,
  reports_filed bigint,
  reports_verified bigint,
  reports_rejected bigint,
  reports_removed bigint,
  suspended_until timestamptz,
  suspension_reason text
 )
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_pattern text;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can list users' using errcode = '42501';
  end if;
  if role is not null and role not in ('admin', 'user') then
    raise exception 'role is admin or user' using errcode = '22023';
  end if;
  if char_length(search) > 200 then
    raise exception 'search is at most 200 characters' using errcode = '22023';
  end if;
  v_pattern := '%' || replace(replace(replace(btrim(coalesce(search, '')), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query
  select u.id, p.name, coalesce(p.email, u.email::text), u.created_at, u.last_sign_in_at,
         exists (select 1 from public.user_roles ur where ur.user_id = u.id and ur.role = 'admin'),
         coalesce(c.filed, 0)::bigint, coalesce(c.verified, 0)::bigint, coalesce(c.rejected, 0)::bigint,
         coalesce(c.removed, 0)::bigint,
         case when u.banned_until > now() then u.banned_until end,
         case when u.banned_until > now() then (
           select s.reason from public.account_suspensions s
           where s.user_id = u.id and s.action = 'suspend' order by s.id desc limit 1) end
  from auth.users u
  left join public.profiles p on p.id = u.id
  left join lateral (
    select sum(rc.report_count) as filed,
           sum(rc.report_count) filter (where rc.status = 'verified') as verified,
           sum(rc.report_count) filter (where rc.status = 'rejected') as rejected,
           sum(rc.report_count) filter (where rc.status = 'removed') as removed
    from private.reporter_status_counts rc where rc.user_id = u.id) c on true
  where (coalesce(btrim(search), '') = ''
         or p.name ilike v_pattern or coalesce(p.email, u.email::text) ilike v_pattern
         or u.id::text = lower(btrim(search)))
    and (admin_users.role is null
         or (admin_users.role = 'admin') = exists (
              select 1 from public.user_roles ur where ur.user_id = u.id and ur.role = 'admin'))
    and (admin_users.suspended is null or admin_users.suspended = coalesce(u.banned_until > now(), false))
    and (min_reports is null or coalesce(c.filed, 0) >= min_reports)
    and (before_created_at is null or (u.created_at, u.id) < (before_created_at, coalesce(before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
    and u.deleted_at is null
  order by u.created_at desc, u.id desc
  limit least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;
