-- Rollups kept current by triggers (site counters, per-user counts by incident type and month, reports
-- per identifier), in-app notifications, and the SQL entry points the app calls: search_reports,
-- report_details, user_report_stats, admin_app_stats, set_report_status.
-- Counters come from these rollups, never from count(*) over the big tables, so stats stay fast at
-- millions of reports.

-- ---------------------------------------------------------------------------------------------
-- Rollup tables
-- ---------------------------------------------------------------------------------------------
create table private.site_counters (
  name text not null primary key check (name in ('users', 'reports', 'verified_reports', 'contact_messages', 'searches', 'visitors')),
  value bigint not null default 0
);
comment on table private.site_counters is 'Site-wide counters for the admin overview, kept by triggers.';
insert into private.site_counters (name)
values ('users'), ('reports'), ('verified_reports'), ('contact_messages'), ('searches'), ('visitors');

create table private.user_report_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  incident_type public.incident_type not null,
  report_count bigint not null default 0,
  primary key (user_id, incident_type)
);
comment on table private.user_report_counts is 'Reports per reporter and incident type (stats cards), kept by triggers.';

create table private.user_monthly_report_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  month date not null,
  report_count bigint not null default 0,
  primary key (user_id, month)
);
comment on table private.user_monthly_report_counts is 'Reports per reporter and month of filing (UTC), kept by triggers.';

-- Private tables are not exposed through the API; RLS on without policies keeps them closed anyway.
alter table private.site_counters enable row level security;
alter table private.user_report_counts enable row level security;
alter table private.user_monthly_report_counts enable row level security;

create table public.identifier_report_counts (
  identifier_canonical text not null primary key,
  report_count bigint not null default 0,
  verified_count bigint not null default 0
);
comment on table public.identifier_report_counts is 'Visible (pending or verified) reports per canonical identifier: the "N reported case" badge. Public, holds no personal data.';
alter table public.identifier_report_counts enable row level security;
revoke all on public.identifier_report_counts from anon, authenticated;
grant select on public.identifier_report_counts to anon, authenticated;
create policy "Anyone can read report counts per identifier" on public.identifier_report_counts
  for select to anon, authenticated
  using (true);
grant all on public.identifier_report_counts to service_role;

/** Adds delta to a site counter. */
create function private.bump_site_counter(counter text, delta bigint)
returns void
language sql
security definer
set search_path = ''
as $$
  update private.site_counters set value = value + delta where name = counter
$$;
comment on function private.bump_site_counter(text, bigint) is 'Adds delta to private.site_counters.';
revoke execute on function private.bump_site_counter(text, bigint) from public, anon, authenticated;

/** Applies one report (added with +1, taken away with -1) to every rollup. */
create function private.apply_report_to_rollups(r public.reports, delta integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_site_counter('reports', delta);
  if r.status = 'verified' then
    perform private.bump_site_counter('verified_reports', delta);
  end if;
  if r.reporter_id is not null then
    insert into private.user_report_counts as c (user_id, incident_type, report_count)
    values (r.reporter_id, r.incident_type, delta)
    on conflict (user_id, incident_type) do update set report_count = c.report_count + excluded.report_count;
    insert into private.user_monthly_report_counts as c (user_id, month, report_count)
    values (r.reporter_id, date_trunc('month', r.created_at at time zone 'UTC')::date, delta)
    on conflict (user_id, month) do update set report_count = c.report_count + excluded.report_count;
  end if;
  if r.status in ('pending', 'verified') then
    insert into public.identifier_report_counts as c (identifier_canonical, report_count, verified_count)
    values (r.reported_account_canonical, delta, case when r.status = 'verified' then delta else 0 end)
    on conflict (identifier_canonical) do update
      set report_count = c.report_count + excluded.report_count,
          verified_count = c.verified_count + excluded.verified_count;
  end if;
end
$$;
comment on function private.apply_report_to_rollups(public.reports, integer) is 'Adds (+1) or removes (-1) one report from every rollup.';
revoke execute on function private.apply_report_to_rollups(public.reports, integer) from public, anon, authenticated;

/** Keeps the rollups current as reports come, change and go. */
create function private.reports_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.apply_report_to_rollups(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.apply_report_to_rollups(new, 1);
  end if;
  return null;
end
$$;
comment on function private.reports_after_write() is 'Trigger: keeps rollups current for inserted, updated and deleted reports.';
revoke execute on function private.reports_after_write() from public, anon, authenticated;
create trigger reports_rollups_insert_delete after insert or delete on public.reports
  for each row execute function private.reports_after_write();
create trigger reports_rollups_update after update on public.reports
  for each row
  when ((old.status, old.reporter_id, old.incident_type, old.reported_account_canonical, old.created_at)
        is distinct from (new.status, new.reporter_id, new.incident_type, new.reported_account_canonical, new.created_at))
  execute function private.reports_after_write();

/** Counts rows of a logged table into its site counter ('users', 'contact_messages', 'searches', 'visitors'). */
create function private.count_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_site_counter(tg_argv[0], case when tg_op = 'INSERT' then 1 else -1 end);
  return null;
end
$$;
comment on function private.count_rows() is 'Trigger: adds or removes one row from the site counter named by the trigger argument.';
revoke execute on function private.count_rows() from public, anon, authenticated;
create trigger profiles_count after insert or delete on public.profiles
  for each row execute function private.count_rows('users');
create trigger contact_messages_count after insert or delete on public.contact_messages
  for each row execute function private.count_rows('contact_messages');
create trigger search_log_count after insert or delete on public.search_log
  for each row execute function private.count_rows('searches');
create trigger visitor_log_count after insert or delete on public.visitor_log
  for each row execute function private.count_rows('visitors');

/** Recomputes every rollup from the tables (after bulk loads with triggers off, or to repair drift). */
create function private.rebuild_rollups()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.site_counters c set value = v.value
  from (
    select 'users' as name, (select count(*) from public.profiles) as value
    union all select 'reports', (select count(*) from public.reports)
    union all select 'verified_reports', (select count(*) from public.reports where status = 'verified')
    union all select 'contact_messages', (select count(*) from public.contact_messages)
    union all select 'searches', (select count(*) from public.search_log)
    union all select 'visitors', (select count(*) from public.visitor_log)
  ) v
  where c.name = v.name;
  truncate private.user_report_counts, private.user_monthly_report_counts, public.identifier_report_counts;
  insert into private.user_report_counts (user_id, incident_type, report_count)
  select reporter_id, incident_type, count(*) from public.reports where reporter_id is not null group by 1, 2;
  insert into private.user_monthly_report_counts (user_id, month, report_count)
  select reporter_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)
  from public.reports where reporter_id is not null group by 1, 2;
  insert into public.identifier_report_counts (identifier_canonical, report_count, verified_count)
  select reported_account_canonical, count(*), count(*) filter (where status = 'verified')
  from public.reports where status in ('pending', 'verified') group by 1;
end
$$;
comment on function private.rebuild_rollups() is 'Recomputes all rollups from the base tables; operators only.';
revoke execute on function private.rebuild_rollups() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Notifications
-- ---------------------------------------------------------------------------------------------
/** Notifies users who registered an identifier when it is reported, and reporters when an admin decides. */
create function private.reports_notify()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status not in ('pending', 'verified') then
    return null;
  end if;
  if tg_op = 'INSERT' or new.reported_account_canonical is distinct from old.reported_account_canonical then
    insert into public.notifications (user_id, kind, report_id, identifier)
    select nr.user_id, 'identifier_reported', new.id, new.reported_account_canonical
    from public.notify_registrations nr
    where nr.identifier_canonical = new.reported_account_canonical
      and nr.user_id is distinct from new.reporter_id;
  end if;
  return null;
end
$$;
comment on function private.reports_notify() is 'Trigger: creates notifications for users who registered the reported identifier.';
revoke execute on function private.reports_notify() from public, anon, authenticated;
create trigger reports_notify after insert or update of reported_account_type, reported_account on public.reports
  for each row execute function private.reports_notify();

/** Tells the reporter that a removal of their report was requested. */
create function private.removal_requests_notify()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, report_id, identifier)
  select r.reporter_id, 'removal_requested', r.id, r.reported_account_canonical
  from public.reports r
  where r.id = new.report_id and r.reporter_id is not null;
  return null;
end
$$;
comment on function private.removal_requests_notify() is 'Trigger: notifies the reporter of a new removal request.';
revoke execute on function private.removal_requests_notify() from public, anon, authenticated;
create trigger removal_requests_notify after insert on public.removal_requests
  for each row execute function private.removal_requests_notify();

-- ---------------------------------------------------------------------------------------------
-- Search
-- ---------------------------------------------------------------------------------------------
/**
 * The one search entry point (anon and authenticated). Risk level, 0-100:
 *   weight  = sum over visible reports of w(status) * 0.5 ^ (age in days / 180)
 *             with w(verified) = 1 and w(pending) = 0.2 (unreviewed reports count a little)
 *   risk    = round(100 * (1 - exp(-weight / 2)))
 *   label   = 'high' from 60, 'medium' from 25, else 'low'
 * So one fresh verified report is medium (39), two are high (63); a verified report a year old is
 * low (12); pending reports alone stay low until there are many.
 */
create function public.search_reports(search_string text, visitor jsonb default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_kind text;
  v_key text;
  v_signed_in boolean := (select auth.uid()) is not null;
  v_count integer;
  v_weight float8;
  v_risk integer;
  v_amount numeric;
  v_country text;
  v_reports jsonb;
  v_points jsonb;
begin
  if search_string is null or char_length(btrim(search_string)) = 0 or char_length(search_string) > 256 then
    raise exception 'search_string must be 1 to 256 characters' using errcode = '22023';
  end if;
  v_kind := public.detect_identifier_kind(search_string);
  v_key := public.canonical_identifier(v_kind, search_string);

  -- One pass over the identifier's visible reports (index range on reported_account_canonical).
  -- Float arithmetic: numeric power() costs ~10 us a row.
  select count(*)::int,
         coalesce(sum(case when r.status = 'verified' then 1.0::float8 else 0.2::float8 end
                      * power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0))), 0),
         coalesce(sum(r.amount_lost) filter (where r.status = 'verified'), 0),
         (array_agg(r.country order by r.created_at desc) filter (where r.country is not null))[1]
  into v_count, v_weight, v_amount, v_country
  from public.reports r
  where r.reported_account_canonical = v_key and r.status in ('pending', 'verified');
  v_risk := round(100 * (1 - exp(-v_weight / 2)))::int;

  -- The latest 10, read in index order (reported_account_canonical, created_at desc).
  select coalesce(jsonb_agg(
           jsonb_build_object(
             'reported_date', l.created_at::date,
             'incident_date', l.incident_date,
             'incident_type', l.incident_type,
             'reported_account_type', l.reported_account_type,
             'location', l.location,
             'status', case when l.status = 'verified' then 'verified' else 'not-verified' end
           ) || case when v_signed_in then jsonb_build_object(
             'id', l.id,
             'reported_account', l.reported_account,
             'country', l.country,
             'incident_description', l.incident_description,
             'amount_lost', l.amount_lost
           ) else '{}'::jsonb end
           order by l.created_at desc), '[]'::jsonb)
  into v_reports
  from (
    select * from public.reports r
    where r.reported_account_canonical = v_key and r.status in ('pending', 'verified')
    order by r.created_at desc
    limit 10
  ) l;

  -- Heatmap points of the newest 1000 reports that have a location.
  select coalesce(jsonb_agg(jsonb_build_array(split_part(p.loc, ',', 1)::float8, split_part(p.loc, ',', 2)::float8)), '[]'::jsonb)
  into v_points
  from (
    select r.loc from public.reports r
    where r.reported_account_canonical = v_key and r.status in ('pending', 'verified') and r.loc is not null
    order by r.created_at desc
    limit 1000
  ) p;

  insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                 city, region, country, loc, org, postal, ip_hash)
  values (
    left(search_string, 256), v_kind, v_key, v_count, (select auth.uid()),
    left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
    case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
    left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
    case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
  );
  return jsonb_build_object(
    'count', v_count,
    'reports', v_reports,
    'summary', jsonb_build_object(
      'count', v_count,
      'last_victim_country', v_country,
      'risk_level', v_risk,
      'risk_label', case when v_risk >= 60 then 'high' when v_risk >= 25 then 'medium' else 'low' end,
      'estimated_amount_lost', v_amount
    ),
    'points', v_points
  );
end
$$;
comment on function public.search_reports(text, jsonb) is
  'Search reports by any identifier: {count, reports (latest 10), summary {count, last_victim_country, risk_level 0-100, risk_label, estimated_amount_lost}, points [[lat,lng]]}. Anonymous callers get limited columns. Logs the search (visitor: optional {city, region, country, loc, org, postal, ip_hash}).';
revoke execute on function public.search_reports(text, jsonb) from public;
grant execute on function public.search_reports(text, jsonb) to anon, authenticated, service_role;

/** One visible report in full (without its reporter), for 'View full report'; signed-in users only. */
create function public.report_details(report_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', r.id,
    'reported_date', r.created_at::date,
    'incident_date', r.incident_date,
    'incident_type', r.incident_type,
    'reported_account_type', r.reported_account_type,
    'reported_account', r.reported_account,
    'location', r.location,
    'country', r.country,
    'incident_description', r.incident_description,
    'amount_lost', r.amount_lost,
    'source', r.source,
    'status', case when r.status = 'verified' then 'verified' else 'not-verified' end,
    'reported_case_count', coalesce(c.report_count, 0)
  )
  from public.reports r
  left join public.identifier_report_counts c on c.identifier_canonical = r.reported_account_canonical
  where r.id = report_details.report_id
    and r.status in ('pending', 'verified')
    and (select auth.uid()) is not null
$$;
comment on function public.report_details(uuid) is 'A visible report in full except its reporter, for signed-in users; null when hidden or unknown.';
revoke execute on function public.report_details(uuid) from public, anon;
grant execute on function public.report_details(uuid) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Stats
-- ---------------------------------------------------------------------------------------------
/** The caller's stats page: counts by incident type and reports per month (last 12 months with data). */
create function public.user_report_stats()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'defaultStats', jsonb_build_object(
      'scam', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'scam'), 0),
      'hacked', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'hacked'), 0),
      'spam', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'spam'), 0)
    ),
    'monthlyApplications', coalesce((
      select jsonb_agg(jsonb_build_object('date', to_char(m.month, 'YYYY-MM'), 'count', m.report_count) order by m.month)
      from (
        select month, report_count from private.user_monthly_report_counts
        where user_id = (select auth.uid()) and report_count > 0
        order by month desc limit 12
      ) m), '[]'::jsonb)
  )
$$;
comment on function public.user_report_stats() is 'Stats of the caller''s own reports: {defaultStats {scam, hacked, spam}, monthlyApplications [{date YYYY-MM, count}]} from rollups.';
revoke execute on function public.user_report_stats() from public, anon;
grant execute on function public.user_report_stats() to authenticated, service_role;

/** Site-wide counters for the admin overview; admins only. */
create function public.admin_app_stats()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read site statistics' using errcode = '42501';
  end if;
  return (
    select jsonb_build_object(
      'contact', max(value) filter (where name = 'contact_messages'),
      'verifiedReports', max(value) filter (where name = 'verified_reports'),
      'users', max(value) filter (where name = 'users'),
      'reports', max(value) filter (where name = 'reports'),
      'search', max(value) filter (where name = 'searches'),
      'visitor', max(value) filter (where name = 'visitors')
    )
    from private.site_counters
  );
end
$$;
comment on function public.admin_app_stats() is 'Admin overview counters {contact, verifiedReports, users, reports, search, visitor} from rollups; admins only.';
revoke execute on function public.admin_app_stats() from public, anon;
grant execute on function public.admin_app_stats() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Moderation
-- ---------------------------------------------------------------------------------------------
/** Verifies, rejects or removes a report; admins only. Tells the reporter. */
create function public.set_report_status(report_id uuid, status public.report_status)
returns public.reports
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_report public.reports;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can change the status of a report' using errcode = '42501';
  end if;
  update public.reports r set status = set_report_status.status
  where r.id = set_report_status.report_id
  returning r.* into v_report;
  if v_report.id is null then
    raise exception 'report % not found', report_id using errcode = 'P0002';
  end if;
  if v_report.reporter_id is not null then
    insert into public.notifications (user_id, kind, report_id, identifier)
    values (v_report.reporter_id, 'report_status_changed', v_report.id, v_report.reported_account_canonical);
  end if;
  if set_report_status.status = 'removed' then
    update public.removal_requests rr set status = 'report_removed'
    where rr.report_id = v_report.id and rr.status = 'open';
  end if;
  return v_report;
end
$$;
comment on function public.set_report_status(uuid, public.report_status) is 'Admins set a report''s moderation status (pending, verified, rejected, removed); the reporter is notified.';
revoke execute on function public.set_report_status(uuid, public.report_status) from public, anon;
grant execute on function public.set_report_status(uuid, public.report_status) to authenticated, service_role;

/**
 * The 1-week removal policy: reports with an open removal request older than 7 days that the reporter
 * did not answer are removed. Run daily by the scheduled edge function (service role).
 */
create function public.expire_removal_requests()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_removed integer;
begin
  with expired as (
    update public.removal_requests rr
    set status = 'report_removed', resolved_at = now()
    where rr.status = 'open' and rr.reporter_response is null and rr.created_at < now() - interval '7 days'
    returning rr.report_id
  )
  update public.reports r set status = 'removed'
  where r.id in (select report_id from expired) and r.status <> 'removed';
  get diagnostics v_removed = row_count;
  return v_removed;
end
$$;
comment on function public.expire_removal_requests() is 'Removes reports whose removal request went unanswered for 7 days; returns how many. Service role only.';
revoke execute on function public.expire_removal_requests() from public, anon, authenticated;
grant execute on function public.expire_removal_requests() to service_role;

-- ---------------------------------------------------------------------------------------------
-- Views
-- ---------------------------------------------------------------------------------------------
create view public.report_cards
with (security_invoker = true)
as
select r.*, coalesce(c.report_count, 0) as reported_case_count
from public.reports r
left join public.identifier_report_counts c on c.identifier_canonical = r.reported_account_canonical;
comment on view public.report_cards is 'Reports the caller may read (their own; admins all) with the real "N reported case" count for the card.';
revoke all on public.report_cards from anon, authenticated;
grant select on public.report_cards to authenticated, service_role;
