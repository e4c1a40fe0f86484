-- Admin lists that work (issue 31 item 4), users: search and filters (role, suspended, report count),
-- each user's reports and their outcomes, and suspending/unsuspending an account with a reason.
--
-- A suspension is Auth's own ban (auth.users.banned_until, which GoTrue checks at sign-in and at every
-- token refresh, as the Admin API's ban_duration sets it), and the account's sessions are ended, so its
-- refresh tokens stop working at once. An access token already issued lives until it expires (one hour
-- at most), so a suspended account is also refused filing reports and removal requests in the database.
-- Every suspend and unsuspend is kept in public.account_suspensions, append-only like the moderation
-- log: admins read it, nobody changes or deletes a row through the API.

create table public.account_suspensions (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null check (action in ('suspend', 'unsuspend')),
  reason text not null check (char_length(reason) between 3 and 500),
  suspended_until timestamptz,
  created_at timestamptz not null default now()
);
alter table public.account_suspensions owner to postgres;
alter table public.account_suspensions enable row level security;
revoke all on table public.account_suspensions from anon, authenticated, service_role;
grant select on table public.account_suspensions to authenticated, service_role;
create index account_suspensions_user_id_idx on public.account_suspensions (user_id, id desc);
create index account_suspensions_actor_id_idx on public.account_suspensions (actor_id);
comment on table public.account_suspensions is
  'Every suspension and unsuspension of an account by an admin (who, when, why, until when); append-only, read by admins.';

create policy "Admins can read account suspensions" on public.account_suspensions for select to authenticated
  using ((select private.is_admin()));

create function private.account_suspensions_append_only()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  raise exception 'the suspension log is append-only: rows cannot be changed or deleted' using errcode = '42501';
end
$function$;
alter function private.account_suspensions_append_only() owner to postgres;
comment on function private.account_suspensions_append_only() is 'Trigger: refuses every update and delete of public.account_suspensions.';

create trigger account_suspensions_append_only before update or delete on public.account_suspensions
  for each row execute function private.account_suspensions_append_only();
create trigger account_suspensions_no_truncate before truncate on public.account_suspensions
  for each statement execute function private.account_suspensions_append_only();

/** True when the calling account is suspended (Auth's ban is in force). */
create function private.caller_is_suspended()
 returns boolean
 language sql
 stable
 security definer
 set search_path to ''
as $function$
  select coalesce((select u.banned_until > now() from auth.users u where u.id = (select auth.uid())), false)
$function$;
alter function private.caller_is_suspended() owner to postgres;
revoke execute on function private.caller_is_suspended() from public, anon;
grant execute on function private.caller_is_suspended() to authenticated, service_role;
comment on function private.caller_is_suspended() is 'True when auth.uid()''s account is banned (suspended) now.';

create function private.refuse_suspended()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if current_user = 'authenticated' and (select private.caller_is_suspended()) then
    raise exception 'this account is suspended' using errcode = '42501';
  end if;
  return new;
end
$function$;
alter function private.refuse_suspended() owner to postgres;
grant execute on function private.refuse_suspended() to authenticated, service_role;
comment on function private.refuse_suspended() is
  'Trigger: a suspended account (whose access token has not expired yet) cannot file reports or removal requests.';

create trigger refuse_suspended before insert on public.reports
  for each row execute function private.refuse_suspended();
create trigger refuse_suspended before insert on public.removal_requests
  for each row execute function private.refuse_suspended();

/**
 * Admins' user list, newest accounts first, 50 a page (keyset: pass the last row's created_at and id):
 * name, e-mail, joined, admin or not, reports filed and their outcomes, and the suspension in force with
 * its reason. Filters: search (part of the name or e-mail, or the whole user id), role ('admin' or
 * 'user'), suspended, and at least min_reports reports filed.
 */
create function public.admin_users(
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
         coalesce(c.filed, 0), coalesce(c.verified, 0), coalesce(c.rejected, 0), coalesce(c.removed, 0),
         case when u.banned_until > now() then u.banned_until end,
         case when u.banned_until > now() then (
           select s.reason from public.account_suspensions s
           where s.user_id = u.id and s.action = 'suspend' order by s.id desc limit 1) end
  from auth.users u
  left join public.profiles p on p.id = u.id
  left join lateral (
    select count(*) as filed,
           count(*) filter (where r.status = 'verified') as verified,
           count(*) filter (where r.status = 'rejected') as rejected,
           count(*) filter (where r.status = 'removed') as removed
    from public.reports r where r.reporter_id = u.id) c on true
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
alter function public.admin_users(text, text, boolean, integer, timestamptz, uuid, integer) owner to postgres;
revoke execute on function public.admin_users(text, text, boolean, integer, timestamptz, uuid, integer) from public, anon;
grant execute on function public.admin_users(text, text, boolean, integer, timestamptz, uuid, integer) to authenticated, service_role;
comment on function public.admin_users(text, text, boolean, integer, timestamptz, uuid, integer) is
  'Admins: users newest first with role, reports filed and their outcomes, and the suspension in force; search by name, e-mail or id, filter by role, suspended and report count; keyset paging.';

/**
 * Suspends (Auth's ban, for `days` days or, without days, until unsuspended) or unsuspends an account,
 * with a reason (3-500 characters) kept in public.account_suspensions. Suspending ends the account's
 * sessions. Admins only; nobody suspends themselves or another admin (revoke the role first).
 */
create function public.admin_set_suspension(user_id uuid, suspend boolean, reason text, days integer default null)
 returns public.account_suspensions
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_reason text := btrim(coalesce(reason, ''));
  v_until timestamptz;
  v_row public.account_suspensions;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can suspend accounts' using errcode = '42501';
  end if;
  if char_length(v_reason) < 3 or char_length(v_reason) > 500 then
    raise exception 'a suspension needs a reason of 3 to 500 characters' using errcode = '22023';
  end if;
  if suspend is null then
    raise exception 'say whether to suspend or unsuspend' using errcode = '22023';
  end if;
  if days is not null and (days < 1 or days > 3650) then
    raise exception 'days is between 1 and 3650' using errcode = '22023';
  end if;
  if admin_set_suspension.user_id = (select auth.uid()) then
    raise exception 'you cannot suspend yourself' using errcode = '42501';
  end if;
  if not exists (select 1 from auth.users u where u.id = admin_set_suspension.user_id and u.deleted_at is null) then
    raise exception 'no such user' using errcode = 'P0002';
  end if;
  if suspend and exists (
      select 1 from public.user_roles ur where ur.user_id = admin_set_suspension.user_id and ur.role = 'admin') then
    raise exception 'an admin cannot be suspended; revoke the role first' using errcode = '42501';
  end if;
  -- Without days: as long as Auth's longest ban (GoTrue's Admin API takes durations in hours; 100 years).
  v_until := case when suspend then now() + coalesce(make_interval(days => days), interval '876000 hours') end;
  update auth.users u set banned_until = v_until, updated_at = now() where u.id = admin_set_suspension.user_id;
  if suspend then
    delete from auth.sessions s where s.user_id = admin_set_suspension.user_id;
  end if;
  insert into public.account_suspensions (user_id, actor_id, action, reason, suspended_until)
  values (admin_set_suspension.user_id, (select auth.uid()), case when suspend then 'suspend' else 'unsuspend' end,
          v_reason, v_until)
  returning * into v_row;
  return v_row;
end
$function$;
alter function public.admin_set_suspension(uuid, boolean, text, integer) owner to postgres;
revoke execute on function public.admin_set_suspension(uuid, boolean, text, integer) from public, anon;
grant execute on function public.admin_set_suspension(uuid, boolean, text, integer) to authenticated, service_role;
comment on function public.admin_set_suspension(uuid, boolean, text, integer) is
  'Admins: suspend (Auth ban for days, or until unsuspended; sessions ended) or unsuspend an account, with a reason logged in public.account_suspensions. Not yourself, not an admin.';

/** Admins: the suspension log, newest first, with the acting admin's and the account's e-mail. */
create function public.admin_suspension_log(for_user uuid default null, max_rows integer default 50)
 returns table (
  id bigint,
  user_id uuid,
  user_email text,
  actor_id uuid,
  actor_email text,
  action text,
  reason text,
  suspended_until timestamptz,
  created_at timestamptz
 )
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the suspension log' using errcode = '42501';
  end if;
  return query
  select s.id, s.user_id, tu.email::text, s.actor_id, au.email::text, s.action, s.reason, s.suspended_until, s.created_at
  from public.account_suspensions s
  left join auth.users tu on tu.id = s.user_id
  left join auth.users au on au.id = s.actor_id
  where for_user is null or s.user_id = for_user
  order by s.id desc
  limit least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;
alter function public.admin_suspension_log(uuid, integer) owner to postgres;
revoke execute on function public.admin_suspension_log(uuid, integer) from public, anon;
grant execute on function public.admin_suspension_log(uuid, integer) to authenticated, service_role;
comment on function public.admin_suspension_log(uuid, integer) is 'Admins: suspensions and unsuspensions newest first, with who did it and why.';
