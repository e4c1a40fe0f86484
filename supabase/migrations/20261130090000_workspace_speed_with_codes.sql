-- The review workspace's speed (20261130010100_reporter_counts.sql, 20261130010200_review_queue_batch.sql)
-- and the refusal codes (20261130040000_refusal_codes.sql) were written side by side; the codes' file
-- runs later and re-created public.admin_users and public.admin_review_queue from their older bodies,
-- dropping the rollup, the per-page batching and plan_cache_mode. This file defines both once more with
-- the workspace's bodies and every refusal code (admin_only, search_too_long).

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
 set plan_cache_mode to 'force_custom_plan'
as $function$
declare
  v_pattern text;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can list users' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if role is not null and role not in ('admin', 'user') then
    raise exception 'role is admin or user' using errcode = '22023';
  end if;
  if char_length(search) > 200 then
    raise exception 'search is at most 200 characters' using errcode = '22023', hint = jsonb_build_object('code', 'search_too_long', 'max', 200)::text;
  end if;
  v_pattern := '%' || replace(replace(replace(btrim(coalesce(search, '')), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query
  with page as (
    select u.id, u.created_at, u.last_sign_in_at, u.banned_until, u.email::text as auth_email, p.name,
           p.email as profile_email
    from auth.users u
    left join public.profiles p on p.id = u.id
    where (coalesce(btrim(search), '') = ''
           or p.name ilike v_pattern or coalesce(p.email, u.email::text) ilike v_pattern
           or u.id::text = lower(btrim(search)))
      and (admin_users.role is null
           or (admin_users.role = 'admin') = exists (
                select 1 from public.user_roles ur where ur.user_id = u.id and ur.role = 'admin'))
      and (admin_users.suspended is null or admin_users.suspended = coalesce(u.banned_until > now(), false))
      and (min_reports is null or coalesce((select sum(c.n) from private.reporter_report_counts c
                                            where c.user_id = u.id), 0) >= min_reports)
      and (before_created_at is null or (u.created_at, u.id) < (before_created_at, coalesce(before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
      and u.deleted_at is null
    order by u.created_at desc, u.id desc
    limit least(greatest(coalesce(max_rows, 50), 1), 200)
  )
  select pg.id, pg.name, coalesce(pg.profile_email, pg.auth_email), pg.created_at, pg.last_sign_in_at,
         exists (select 1 from public.user_roles ur where ur.user_id = pg.id and ur.role = 'admin'),
         coalesce(c.filed, 0)::bigint, coalesce(c.verified, 0)::bigint, coalesce(c.rejected, 0)::bigint,
         coalesce(c.removed, 0)::bigint,
         case when pg.banned_until > now() then pg.banned_until end,
         case when pg.banned_until > now() then (
           select s.reason from public.account_suspensions s
           where s.user_id = pg.id and s.action = 'suspend' order by s.id desc limit 1) end
  from page pg
  left join lateral (
    select sum(rc.n) as filed,
           sum(rc.n) filter (where rc.status = 'verified') as verified,
           sum(rc.n) filter (where rc.status = 'rejected') as rejected,
           sum(rc.n) filter (where rc.status = 'removed') as removed
    from private.reporter_report_counts rc where rc.user_id = pg.id) c on true
  order by pg.created_at desc, pg.id desc;
end
$function$;

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
 set plan_cache_mode to 'force_custom_plan'
as $function$
declare
  v_result jsonb;
  v_search text := nullif(lower(btrim(search)), '');
  v_region text := nullif(lower(btrim(region)), '');
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the review queue' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if sort not in ('oldest', 'most_reported') then
    raise exception 'sort is oldest or most_reported' using errcode = '22023';
  end if;
  max_groups := least(greatest(coalesce(max_groups, 25), 1), 100);

  with candidates as (
    -- The oldest pending reports that pass the filters (bounded, through the pending index).
    select r.id, r.reported_account_canonical, r.created_at
    from public.reports r
    where r.status = 'pending'
      and (v_search is null or r.reported_account_canonical like '%' || v_search || '%'
           or lower(r.reported_account) like '%' || v_search || '%')
      and (admin_review_queue.incident_type is null or r.incident_type = admin_review_queue.incident_type)
      and (account_type is null or r.reported_account_type = account_type)
      and (min_age_days is null or r.created_at <= now() - make_interval(days => min_age_days))
      and (has_evidence is null or (r.evidence_path is not null) = has_evidence)
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
  ), shown as materialized (
    -- The reports the page shows: the candidates of its groups.
    select r.id, r.reporter_id, r.reported_account_canonical, r.created_at, r.incident_date, r.incident_type,
           r.reported_account_type, r.reported_account, r.incident_description, r.amount_lost, r.location,
           r.country, r.evidence_path, r.source
    from candidates c
    join public.reports r on r.id = c.id
    where c.reported_account_canonical in (select g.identifier from groups g)
  ), signals as materialized (
    -- Issue 27's signals for all of them at once (report_signals takes up to 200 reports a call).
    select sg.report_id, sg.young_account, sg.shared_network_reporters
    from (select array_agg(n.id) as ids
          from (select s.id, (row_number() over (order by s.id) - 1) / 200 as chunk from shown s) n
          group by n.chunk) b
    cross join lateral public.report_signals(b.ids) sg
  ), reporters as materialized (
    -- Each reporter's history once, however many of their reports the page shows.
    select d.reporter_id, private.reporter_history(d.reporter_id) as history
    from (select distinct s.reporter_id from shown s where s.reporter_id is not null) d
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
          'id', s.id, 'created_at', s.created_at, 'incident_date', s.incident_date,
          'incident_type', s.incident_type, 'reported_account_type', s.reported_account_type,
          'reported_account', s.reported_account, 'incident_description', s.incident_description,
          'amount_lost', s.amount_lost, 'location', s.location, 'country', s.country,
          'evidence_path', s.evidence_path, 'source', s.source,
          'reporter', rp.history,
          'signal', case when sg.report_id is not null then
                      jsonb_build_object('young_account', sg.young_account,
                                         'shared_network_reporters', sg.shared_network_reporters) end)
          order by s.created_at)
        from shown s
        left join reporters rp on rp.reporter_id = s.reporter_id
        left join signals sg on sg.report_id = s.id
        where s.reported_account_canonical = g.identifier),
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
alter function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) owner to postgres;
comment on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) is 'Admins: pending reports grouped by identifier (the oldest 1000 that pass the filters), each group with its latest verified reports and each report with its reporter''s history; sorted by oldest or most reported.';
revoke execute on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) from public, anon;
grant execute on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) to authenticated, service_role;

