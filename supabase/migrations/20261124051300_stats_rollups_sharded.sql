-- Public statistics rollups in shards (issue 12, load). Every visible report added one to the same few
-- rows of private.stats_daily/weekly/monthly and the region rollups (one per day, type, account type and
-- status), and held their locks until its transaction committed: under `npm run check:load` the report
-- inserts queued behind each other on those rows. As the site counters before them
-- (20261124030608_site_counters_sharded.sql), each rollup row now has up to 16 shards; the trigger adds to
-- the shard of its session's backend (pg_backend_pid() % 16), and every reader sums the shards. The
-- hourly scheduled job (refresh_public_statistics) and private.rebuild_rollups fold the shards back into
-- shard 0, so readers sum at most 16 rows per key only for what was filed since the last fold.

alter table private.stats_daily add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_daily drop constraint stats_daily_pkey;
alter table private.stats_daily add primary key (day, incident_type, reported_account_type, status, shard);

alter table private.stats_weekly add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_weekly drop constraint stats_weekly_pkey;
alter table private.stats_weekly add primary key (week, incident_type, reported_account_type, status, shard);

alter table private.stats_monthly add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_monthly drop constraint stats_monthly_pkey;
alter table private.stats_monthly add primary key (month, incident_type, reported_account_type, status, shard);

alter table private.stats_monthly_amounts add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_monthly_amounts drop constraint stats_monthly_amounts_pkey;
alter table private.stats_monthly_amounts add primary key (month, amount, shard);

alter table private.stats_region_daily add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_region_daily drop constraint stats_region_daily_pkey;
alter table private.stats_region_daily add primary key (day, region_code, shard);

alter table private.stats_region_monthly add column shard smallint not null default 0 check (shard between 0 and 15);
alter table private.stats_region_monthly drop constraint stats_region_monthly_pkey;
alter table private.stats_region_monthly add primary key (month, region_code, shard);

comment on column private.stats_daily.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on column private.stats_weekly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on column private.stats_monthly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on column private.stats_monthly_amounts.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on column private.stats_region_daily.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on column private.stats_region_monthly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';

/** Adds (+1) or removes (-1) one report from the public statistics rollups, in the session's shard. */
create or replace function private.apply_report_to_public_stats(r public.reports, delta integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_day date;
  v_month date;
  v_amount numeric := case when r.amount_lost > 0 then r.amount_lost else null end;
  v_region text;
  v_shard smallint := pg_backend_pid() % 16;
begin
  if r.status not in ('pending', 'verified') then
    return;
  end if;
  v_day := (r.created_at at time zone 'UTC')::date;
  v_month := date_trunc('month', v_day)::date;
  -- Always in this order (daily, weekly, monthly, amounts, region daily, region monthly), as the fold
  -- takes them, so that a fold and a report never wait for each other in a circle.
  insert into private.stats_daily as s (day, incident_type, reported_account_type, status, shard, report_count, amount_total)
  values (v_day, r.incident_type, r.reported_account_type, r.status, v_shard, delta, coalesce(v_amount, 0) * delta)
  on conflict (day, incident_type, reported_account_type, status, shard) do update
    set report_count = s.report_count + excluded.report_count, amount_total = s.amount_total + excluded.amount_total;
  insert into private.stats_weekly as s (week, incident_type, reported_account_type, status, shard, report_count)
  values (date_trunc('week', v_day)::date, r.incident_type, r.reported_account_type, r.status, v_shard, delta)
  on conflict (week, incident_type, reported_account_type, status, shard) do update
    set report_count = s.report_count + excluded.report_count;
  insert into private.stats_monthly as s (month, incident_type, reported_account_type, status, shard, report_count, amount_total, amount_reports)
  values (v_month, r.incident_type, r.reported_account_type, r.status, v_shard, delta, coalesce(v_amount, 0) * delta,
          case when v_amount is null then 0 else delta end)
  on conflict (month, incident_type, reported_account_type, status, shard) do update
    set report_count = s.report_count + excluded.report_count,
        amount_total = s.amount_total + excluded.amount_total,
        amount_reports = s.amount_reports + excluded.amount_reports;
  if v_amount is not null then
    insert into private.stats_monthly_amounts as s (month, amount, shard, report_count)
    values (v_month, v_amount, v_shard, delta)
    on conflict (month, amount, shard) do update set report_count = s.report_count + excluded.report_count;
  end if;
  v_region := private.ph_region(r.loc, r.country);
  if v_region is not null then
    insert into private.stats_region_daily as s (day, region_code, shard, report_count)
    values (v_day, v_region, v_shard, delta)
    on conflict (day, region_code, shard) do update set report_count = s.report_count + excluded.report_count;
    insert into private.stats_region_monthly as s (month, region_code, shard, report_count)
    values (v_month, v_region, v_shard, delta)
    on conflict (month, region_code, shard) do update set report_count = s.report_count + excluded.report_count;
  end if;
  if r.status = 'verified' and v_day >= (now() at time zone 'UTC')::date - 30 then
    insert into private.stats_recent_identifiers as s (day, identifier_canonical, reported_account_type, verified_count)
    values (v_day, r.reported_account_canonical, r.reported_account_type, delta)
    on conflict (day, identifier_canonical, reported_account_type) do update
      set verified_count = s.verified_count + excluded.verified_count;
  end if;
end
$$;

/**
 * Folds the shards of the public statistics rollups into shard 0 (same sums, fewer rows for readers).
 * Safe beside concurrent reports: a report that adds to a shard row being folded waits for the fold and
 * then adds to a new row of its shard. Returns how many shard rows were folded.
 */
create or replace function private.fold_public_statistics_shards()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_rows integer;
  v_total integer := 0;
begin
  with moved as (
    delete from private.stats_daily where shard <> 0
    returning day, incident_type, reported_account_type, status, report_count, amount_total
  ), folded as (
    insert into private.stats_daily as s (day, incident_type, reported_account_type, status, shard, report_count, amount_total)
    select day, incident_type, reported_account_type, status, 0, sum(report_count), sum(amount_total) from moved group by 1, 2, 3, 4
    on conflict (day, incident_type, reported_account_type, status, shard) do update
      set report_count = s.report_count + excluded.report_count, amount_total = s.amount_total + excluded.amount_total
  )
  select count(*) into v_rows from moved;
  v_total := v_total + v_rows;

  with moved as (
    delete from private.stats_weekly where shard <> 0
    returning week, incident_type, reported_account_type, status, report_count
  ), folded as (
    insert into private.stats_weekly as s (week, incident_type, reported_account_type, status, shard, report_count)
    select week, incident_type, reported_account_type, status, 0, sum(report_count) from moved group by 1, 2, 3, 4
    on conflict (week, incident_type, reported_account_type, status, shard) do update
      set report_count = s.report_count + excluded.report_count
  )
  select count(*) into v_rows from moved;
  v_total := v_total + v_rows;

  with moved as (
    delete from private.stats_monthly where shard <> 0
    returning month, incident_type, reported_account_type, status, report_count, amount_total, amount_reports
  ), folded as (
    insert into private.stats_monthly as s (month, incident_type, reported_account_type, status, shard, report_count, amount_total, amount_reports)
    select month, incident_type, reported_account_type, status, 0, sum(report_count), sum(amount_total), sum(amount_reports)
    from moved group by 1, 2, 3, 4
    on conflict (month, incident_type, reported_account_type, status, shard) do update
      set report_count = s.report_count + excluded.report_count,
          amount_total = s.amount_total + excluded.amount_total,
          amount_reports = s.amount_reports + excluded.amount_reports
  )
  select count(*) into v_rows from moved;
  v_total := v_total + v_rows;

  with moved as (
    delete from private.stats_monthly_amounts where shard <> 0 returning month, amount, report_count
  ), folded as (
    insert into private.stats_monthly_amounts as s (month, amount, shard, report_count)
    select month, amount, 0, sum(report_count) from moved group by 1, 2
    on conflict (month, amount, shard) do update set report_count = s.report_count + excluded.report_count
  )
  select count(*) into v_rows from moved;
  v_total := v_total + v_rows;

  with moved as (
    delete from private.stats_region_daily where shard <> 0 returning day, region_code, report_count
  ), folded as (
    insert into private.stats_region_daily as s (day, region_code, shard, report_count)
    select day, region_code, 0, sum(report_count) from moved group by 1, 2
    on conflict (day, region_code, shard) do update set report_count = s.report_count + excluded.report_count
  )
  select count(*) into v_rows from moved;
  v_total := v_total + v_rows;

  with moved as (
    delete from private.stats_region_monthly where shard <> 0 returning month, region_code, report_count
  ), folded as (
    insert into private.stats_region_monthly as s (month, region_code, shard, report_count)
    select month, region_code, 0, sum(report_count) from moved group by 1, 2
    on conflict (month, region_code, shard) do update set report_count = s.report_count + excluded.report_count
  )
  select count(*) into v_rows from moved;
  return v_total + v_rows;
end
$$;
comment on function private.fold_public_statistics_shards() is 'Folds the shards of the public statistics rollups into shard 0 (same sums); run by refresh_public_statistics and rebuild_rollups.';
revoke execute on function private.fold_public_statistics_shards() from public, anon, authenticated;

/**
 * Folds the rollups' shards, recomputes the monthly medians of months whose amounts changed since the
 * last run, prunes the recent-identifier rollup to 31 days and rebuilds the top-10 list. Called by the
 * `open-data` scheduled function with the service role. Returns what it did.
 */
create or replace function public.refresh_public_statistics()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_folded integer;
  v_months integer;
  v_pruned integer;
begin
  v_folded := private.fold_public_statistics_shards();

  with totals as (
    select month, sum(amount_reports)::bigint as n, sum(amount_total) as total
    from private.stats_monthly group by month
  ),
  changed as (
    select t.month, t.n, t.total from totals t
    left join private.stats_monthly_medians m on m.month = t.month
    where m.month is null or m.amount_reports <> t.n or m.amount_total <> t.total
  ),
  medians as (
    -- The lower median of the month's distribution: the first amount whose running count reaches half
    -- (each amount's count summed over its shards first).
    select c.month, c.n, c.total,
           (select d.amount from (
              select a.amount, sum(sum(a.report_count)) over (order by a.amount) as running
              from private.stats_monthly_amounts a
              where a.month = c.month
              group by a.amount
              having sum(a.report_count) > 0
            ) d where d.running * 2 >= c.n order by d.amount limit 1) as median
    from changed c
  ),
  upserted as (
    insert into private.stats_monthly_medians as m (month, median_amount, amount_reports, amount_total)
    select month, median, n, total from medians
    on conflict (month) do update
      set median_amount = excluded.median_amount, amount_reports = excluded.amount_reports, amount_total = excluded.amount_total
    returning 1
  )
  select count(*) into v_months from upserted;

  delete from private.stats_recent_identifiers where day < (now() at time zone 'UTC')::date - 30;
  get diagnostics v_pruned = row_count;

  -- An identifier that stays on the list keeps its ref, so links to it keep working.
  drop table if exists pg_temp.previous_top;
  create temporary table pg_temp.previous_top on commit drop as
  select identifier_canonical, reported_account_type, ref from private.stats_top_identifiers;
  delete from private.stats_top_identifiers where true;
  insert into private.stats_top_identifiers (rank, identifier_canonical, reported_account_type, verified_count, ref)
  select row_number() over (order by t.n desc, t.identifier_canonical), t.identifier_canonical, t.reported_account_type, t.n,
         coalesce(o.ref, gen_random_uuid())
  from (
    select identifier_canonical, reported_account_type, sum(verified_count)::bigint as n
    from private.stats_recent_identifiers
    where day >= (now() at time zone 'UTC')::date - 29
    group by 1, 2
    having sum(verified_count) > 0
    order by n desc, identifier_canonical
    limit 10
  ) t
  left join pg_temp.previous_top o
    on o.identifier_canonical = t.identifier_canonical and o.reported_account_type = t.reported_account_type;

  return jsonb_build_object('folded', v_folded, 'medians', v_months, 'pruned', v_pruned,
                            'top', (select count(*) from private.stats_top_identifiers));
end
$$;
comment on function public.refresh_public_statistics() is 'Scheduled job: folds the rollups'' shards, recomputes changed monthly medians, prunes and ranks the last 30 days'' identifiers. Service role only.';

/** The rows of the daily open-data export (last `days` days), each the sum of its shards. */
create or replace function public.open_data_daily(days integer default 365)
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
  -- The public statistics have their own rebuild (private.rebuild_public_statistics, a full pass over
  -- the reports); here their shards are only folded.
  perform private.fold_public_statistics_shards();
end
$$;

/**
 * The public statistics for a period ('last_30_days', 'last_12_months' or 'all_time'), read from the
 * rollups only: totals by status, weekly and monthly series by incident type, account type and status
 * (every period that overlaps the range, empty ones as 0), amounts lost per month (total, median),
 * reports per region, and the most-reported identifiers of the last 30 days (verified reports, masked).
 * A region count under 5 and a median from fewer than 5 amounts are null with fewer_than_5 = true.
 */
create or replace function public.public_statistics(period text default 'last_12_months')
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_from date;
begin
  if period is null or period not in ('last_30_days', 'last_12_months', 'all_time') then
    raise exception 'period must be last_30_days, last_12_months or all_time' using errcode = '22023';
  end if;
  if period = 'last_30_days' then
    v_from := v_today - 29;
  elsif period = 'last_12_months' then
    v_from := (date_trunc('month', v_today::timestamp) - interval '11 months')::date;
  else
    -- The first month with reports: its shards summed (one shard may hold a report's removal and
    -- another its filing).
    v_from := coalesce((select min(m.month) from (
                          select month from private.stats_monthly group by month having sum(report_count) > 0
                        ) m),
                       date_trunc('month', v_today::timestamp)::date);
  end if;

  return jsonb_build_object(
    'period', period,
    'from', v_from,
    'to', v_today,
    'generated_at', now(),
    'small_count_threshold', 5,
    'totals', (
      -- 12 months and all time start on the first of a month and end today, so whole months of
      -- stats_monthly hold the same sums as their days (about 1/30 of the rows); the last 30 days
      -- start mid-month and are summed by day.
      select jsonb_build_object(
        'reports', coalesce(sum(t.report_count), 0),
        'verified', coalesce(sum(t.report_count) filter (where t.status = 'verified'), 0),
        'pending', coalesce(sum(t.report_count) filter (where t.status = 'pending'), 0),
        'amount_lost', coalesce(sum(t.amount_total), 0))
      from (
        select d.status, d.report_count, d.amount_total from private.stats_daily d
        where period = 'last_30_days' and d.day between v_from and v_today
        union all
        select m.status, m.report_count, m.amount_total from private.stats_monthly m
        where period <> 'last_30_days' and m.month >= v_from and m.month <= v_today
      ) t
    ),
    'weekly', private.stats_series('week', v_from, v_today),
    'monthly', private.stats_series('month', v_from, v_today),
    'amounts', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'month', m.month,
               'total', coalesce(t.total, 0),
               'reports_with_amount', coalesce(t.n, 0),
               'median', case when coalesce(t.n, 0) >= 5 and md.amount_reports >= 5 then md.median_amount end,
               'fewer_than_5', coalesce(t.n, 0) between 1 and 4) order by m.month), '[]'::jsonb)
      from generate_series(date_trunc('month', v_from::timestamp), date_trunc('month', v_today::timestamp), interval '1 month') m0
      cross join lateral (select m0::date as month) m
      left join (
        select s.month, sum(s.amount_total) as total, sum(s.amount_reports) as n
        from private.stats_monthly s
        where s.month >= date_trunc('month', v_from::timestamp)::date
        group by s.month
      ) t on t.month = m.month
      left join private.stats_monthly_medians md on md.month = m.month
    ),
    'regions', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'code', g.code, 'name', g.name, 'lat', g.lat, 'lng', g.lng,
               'count', case when coalesce(c.n, 0) between 1 and 4 then null else coalesce(c.n, 0) end,
               'fewer_than_5', coalesce(c.n, 0) between 1 and 4) order by g.sort_order), '[]'::jsonb)
      from private.ph_regions g
      left join (
        select d.region_code, sum(d.report_count) as n from private.stats_region_daily d
        where period = 'last_30_days' and d.day between v_from and v_today
        group by d.region_code
        union all
        select m.region_code, sum(m.report_count) from private.stats_region_monthly m
        where period <> 'last_30_days' and m.month >= v_from
        group by m.region_code
      ) c on c.region_code = g.code
    ),
    'top_identifiers', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'rank', t.rank,
               'identifier', private.mask_identifier(t.reported_account_type, t.identifier_canonical),
               'masked', t.reported_account_type in ('mobile', 'email', 'ewallet'),
               -- Masked kinds link through ref (public.search_top_identifier), the others by their value.
               'search', case when t.reported_account_type in ('mobile', 'email', 'ewallet') then null else t.identifier_canonical end,
               'ref', t.ref,
               'reported_account_type', t.reported_account_type,
               'verified_reports', t.verified_count) order by t.rank), '[]'::jsonb)
      from private.stats_top_identifiers t
    ),
    'top_identifiers_refreshed_at', (select max(refreshed_at) from private.stats_top_identifiers)
  );
end
$$;
comment on function public.public_statistics(text) is
  'Public statistics from rollups for last_30_days, last_12_months or all_time: {period, from, to, totals, weekly, monthly, amounts, regions, top_identifiers}; aggregates only, small counts suppressed.';
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
