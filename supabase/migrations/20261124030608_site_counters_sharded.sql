-- Site counters in shards (issue 12, load). Every search, visit and report added one to a single row per
-- counter ('searches', 'visitors', 'reports'), so concurrent requests queued on that row's lock until its
-- holder committed: under `npm run check:load` most busy database sessions were waiting on
-- Lock:transactionid, not working. Each counter now has up to 16 rows; a session adds to the shard of its
-- backend (two sessions share one only when their pids agree modulo 16), and readers add the shards up.

alter table private.site_counters add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.site_counters drop constraint site_counters_pkey;
alter table private.site_counters add primary key (name, shard);
comment on column private.site_counters.shard is 'One of up to 16 rows of a counter (pg_backend_pid() % 16 of the session that added to it); the counter is their sum.';
comment on table private.site_counters is 'Site-wide counters for the admin overview, kept by triggers; each counter is the sum of its shards.';

/** Adds delta to a site counter, in the calling session's shard. */
create or replace function private.bump_site_counter(counter text, delta bigint)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into private.site_counters as c (name, shard, value)
  values (counter, pg_backend_pid() % 16, delta)
  on conflict (name, shard) do update set value = c.value + excluded.value
$$;

/** Recomputes every rollup from the tables (after bulk loads with triggers off, or to repair drift). */
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

/** Site-wide counters for the admin overview (each the sum of its shards); admins only. */
create or replace function public.admin_app_stats()
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
      'contact', coalesce(sum(value) filter (where name = 'contact_messages'), 0)::bigint,
      'verifiedReports', coalesce(sum(value) filter (where name = 'verified_reports'), 0)::bigint,
      'users', coalesce(sum(value) filter (where name = 'users'), 0)::bigint,
      'reports', coalesce(sum(value) filter (where name = 'reports'), 0)::bigint,
      'search', coalesce(sum(value) filter (where name = 'searches'), 0)::bigint,
      'visitor', coalesce(sum(value) filter (where name = 'visitors'), 0)::bigint
    )
    from private.site_counters
  );
end
$$;
