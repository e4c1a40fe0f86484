-- Issue 31: the review workspace's queries stay fast at 1M reports.
--
-- 1. A reporter's history (reports filed and their outcomes) comes from a rollup kept by a trigger,
--    private.reporter_report_counts, instead of counting the reporter's reports on every call: the
--    queue asks it for every report it shows, and the user list for every user of its page (and, to
--    filter by reports filed, for every user). At 1M reports a busy reporter has thousands.
-- 2. public.admin_review_queue plans each call for its own arguments (plan_cache_mode
--    force_custom_plan): a generic plan for "filter is null or ..." cannot walk the pending index in
--    order and sorted every pending report instead.
-- 3. public.admin_users reads the counts from the rollup and fetches the page's users before anything
--    else about them.

create table private.reporter_report_counts (
  user_id uuid not null,
  status public.report_status not null,
  n bigint not null default 0 check (n >= 0),
  primary key (user_id, status)
);
alter table private.reporter_report_counts enable row level security;
comment on table private.reporter_report_counts is
  'Reports per reporter and status (kept by a trigger on public.reports): the reporter''s history in the review queue and the user list.';

create function private.count_reporter_reports()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.reporter_id is not null then
    update private.reporter_report_counts set n = n - 1
    where user_id = old.reporter_id and status = old.status;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.reporter_id is not null then
    insert into private.reporter_report_counts as c (user_id, status, n) values (new.reporter_id, new.status, 1)
    on conflict (user_id, status) do update set n = c.n + 1;
  end if;
  return null;
end
$function$;
revoke execute on function private.count_reporter_reports() from public, anon, authenticated;
comment on function private.count_reporter_reports() is 'Trigger: keeps private.reporter_report_counts.';

create trigger count_reporter_reports after insert or delete on public.reports
  for each row execute function private.count_reporter_reports();
create trigger count_reporter_reports_update after update of status, reporter_id on public.reports
  for each row when (old.status is distinct from new.status or old.reporter_id is distinct from new.reporter_id)
  execute function private.count_reporter_reports();

/** Rebuilds private.reporter_report_counts from public.reports (after a load with triggers off). */
create function private.rebuild_reporter_counts()
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  delete from private.reporter_report_counts;
  insert into private.reporter_report_counts (user_id, status, n)
  select reporter_id, status, count(*) from public.reports where reporter_id is not null group by 1, 2;
$function$;
revoke execute on function private.rebuild_reporter_counts() from public, anon, authenticated;
comment on function private.rebuild_reporter_counts() is
  'Rebuilds private.reporter_report_counts from public.reports (after a bulk load with triggers off).';

select private.rebuild_reporter_counts();

-- The reporter's history: every report they filed (the rollup), no longer the latest 500.
create or replace function private.reporter_history(p_user uuid)
 returns jsonb
 language sql
 stable
 security definer
 set search_path to ''
as $function$
  select case when p_user is null then null else jsonb_build_object(
    'id', p_user,
    'account_created_at', (select u.created_at from auth.users u where u.id = p_user),
    'banned', (select u.banned_until > now() from auth.users u where u.id = p_user),
    'filed', coalesce(sum(c.n), 0),
    'verified', coalesce(sum(c.n) filter (where c.status = 'verified'), 0),
    'rejected', coalesce(sum(c.n) filter (where c.status = 'rejected'), 0),
    'removed', coalesce(sum(c.n) filter (where c.status = 'removed'), 0),
    'pending', coalesce(sum(c.n) filter (where c.status = 'pending'), 0))
  end
  from private.reporter_report_counts c where c.user_id = p_user
$function$;
comment on function private.reporter_history(uuid) is 'Reports filed by a user and their outcomes (private.reporter_report_counts), with the account''s creation time: the reporter''s history in the review queue.';

alter function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer)
  set plan_cache_mode = force_custom_plan;

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
