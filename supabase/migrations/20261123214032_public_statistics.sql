-- Public statistics (issue 14): rollups of visible reports (pending and verified) kept by a trigger on
-- public.reports, two tables a scheduled job derives from those rollups (monthly median amounts, the
-- most-reported identifiers of the last 30 days), and ONE entry point anon may call,
-- public.public_statistics(period), which returns aggregates only. No statistic reads public.reports.
--
-- Periods are UTC days, ISO weeks (starting Monday) and months. Regions are the 18 regions of the
-- Philippines; a report's region is the region of the nearest of a few towns per region to its
-- approximate location (loc, from the reporter's IP address), for reports located in the Philippines.
-- Small counts: a region's count under 5 and a month's median from fewer than 5 amounts are returned
-- as null with "fewer_than_5": true, so no figure can point at one person.

-- ---------------------------------------------------------------------------------------------
-- Regions
-- ---------------------------------------------------------------------------------------------
create table private.ph_regions (
  code text not null primary key,
  name text not null,
  sort_order integer not null,
  lat double precision not null,
  lng double precision not null
);
comment on table private.ph_regions is 'The 18 regions of the Philippines with a map point (the mean of their anchor towns).';

create table private.ph_region_anchors (
  region_code text not null references private.ph_regions (code),
  lat double precision not null,
  lng double precision not null
);
comment on table private.ph_region_anchors is 'Towns and cities per region; a location belongs to the region of its nearest anchor.';
create index ph_region_anchors_region_code_idx on private.ph_region_anchors (region_code);
alter table private.ph_regions enable row level security;
alter table private.ph_region_anchors enable row level security;

insert into private.ph_regions (code, name, sort_order, lat, lng) values
  ('NCR', 'National Capital Region', 1, 14.6003, 121.0117),
  ('CAR', 'Cordillera Administrative Region', 2, 17.2175, 120.9904),
  ('I', 'Ilocos Region', 3, 16.7248, 120.4080),
  ('II', 'Cagayan Valley', 4, 17.5588, 121.6865),
  ('III', 'Central Luzon', 5, 15.1755, 120.6685),
  ('IV-A', 'Calabarzon', 6, 14.1286, 121.3856),
  ('IV-B', 'Mimaropa', 7, 11.6415, 120.3312),
  ('V', 'Bicol Region', 8, 13.2997, 123.6250),
  ('VI', 'Western Visayas', 9, 11.0912, 122.5362),
  ('NIR', 'Negros Island Region', 10, 9.9439, 123.1427),
  ('VII', 'Central Visayas', 11, 10.2751, 123.8921),
  ('VIII', 'Eastern Visayas', 12, 11.4038, 124.8296),
  ('IX', 'Zamboanga Peninsula', 13, 7.7798, 122.8607),
  ('X', 'Northern Mindanao', 14, 8.4136, 124.6034),
  ('XI', 'Davao Region', 15, 7.1889, 125.7606),
  ('XII', 'Soccsksargen', 16, 6.4713, 125.0006),
  ('XIII', 'Caraga', 17, 9.1061, 125.8394),
  ('BARMM', 'Bangsamoro (BARMM)', 18, 6.6476, 122.9533);

insert into private.ph_region_anchors (region_code, lat, lng) values
  ('NCR', 14.5995, 120.9842), ('NCR', 14.676, 121.0437), ('NCR', 14.6507, 120.9676), ('NCR', 14.5764, 121.0851),
  ('NCR', 14.4445, 120.9939), ('NCR', 14.7, 120.983), ('NCR', 14.5547, 121.0244), ('CAR', 16.4023, 120.596),
  ('CAR', 17.4189, 121.4443), ('CAR', 17.5958, 120.6186), ('CAR', 16.8, 121.1167), ('CAR', 17.088, 120.977),
  ('CAR', 18.0, 121.19), ('I', 18.1978, 120.5936), ('I', 17.5747, 120.3869), ('I', 16.6159, 120.3166),
  ('I', 16.0433, 120.3333), ('I', 16.0212, 120.2315), ('I', 15.896, 120.586), ('II', 17.6132, 121.727),
  ('II', 17.1485, 121.8893), ('II', 16.6879, 121.5487), ('II', 16.4833, 121.15), ('II', 20.4487, 121.9702),
  ('II', 18.26, 121.99), ('II', 16.27, 121.53), ('III', 15.0286, 120.6898), ('III', 15.145, 120.5887),
  ('III', 15.4755, 120.5963), ('III', 15.4865, 120.9667), ('III', 14.8527, 120.816), ('III', 14.8292, 120.2828),
  ('III', 14.676, 120.536), ('III', 15.327, 119.978), ('III', 15.759, 121.562), ('IV-A', 14.2117, 121.1653),
  ('IV-A', 14.586, 121.176), ('IV-A', 13.7565, 121.0583), ('IV-A', 13.9373, 121.617), ('IV-A', 14.3294, 120.9367),
  ('IV-A', 14.1153, 120.9621), ('IV-A', 14.7425, 121.6492), ('IV-A', 13.35, 122.52), ('IV-B', 13.4116, 121.1803),
  ('IV-B', 9.7392, 118.7353), ('IV-B', 12.3528, 121.0676), ('IV-B', 13.447, 121.843), ('IV-B', 12.575, 122.269),
  ('IV-B', 11.9986, 120.2043), ('IV-B', 10.825, 119.517), ('IV-B', 8.783, 117.833), ('V', 13.1391, 123.7438),
  ('V', 13.6218, 123.1948), ('V', 14.1122, 122.9553), ('V', 12.9742, 124.0058), ('V', 12.37, 123.62),
  ('V', 13.581, 124.23), ('VI', 10.7202, 122.5621), ('VI', 11.5853, 122.7511), ('VI', 11.7077, 122.367),
  ('VI', 10.7447, 121.941), ('VI', 10.659, 122.596), ('VI', 11.13, 123.0), ('NIR', 10.6765, 122.9509),
  ('NIR', 9.3068, 123.3054), ('NIR', 9.99, 122.814), ('NIR', 9.199, 123.595), ('NIR', 9.591, 123.121),
  ('NIR', 10.9, 123.07), ('VII', 10.3157, 123.8854), ('VII', 9.65, 123.85), ('VII', 10.3773, 123.6386),
  ('VII', 11.0517, 124.0055), ('VII', 10.106, 123.64), ('VII', 10.15, 124.333), ('VIII', 11.244, 125.004),
  ('VIII', 11.0064, 124.6075), ('VIII', 11.775, 124.886), ('VIII', 11.608, 125.431), ('VIII', 12.499, 124.638),
  ('VIII', 10.133, 124.845), ('VIII', 11.561, 124.396), ('IX', 6.9214, 122.079), ('IX', 7.8257, 123.437),
  ('IX', 8.5883, 123.3409), ('IX', 7.784, 122.586), ('X', 8.4542, 124.6319), ('X', 8.228, 124.2452),
  ('X', 8.1575, 125.1278), ('X', 8.4859, 123.8048), ('X', 9.25, 124.717), ('X', 7.906, 125.094),
  ('XI', 7.1907, 125.4553), ('XI', 7.4478, 125.8078), ('XI', 6.7497, 125.3572), ('XI', 6.9551, 126.2166),
  ('XI', 7.601, 125.966), ('XII', 6.1164, 125.1716), ('XII', 6.5008, 124.8469), ('XII', 7.0083, 125.0894),
  ('XII', 6.629, 124.605), ('XII', 6.102, 125.29), ('XIII', 8.9475, 125.5406), ('XIII', 9.789, 125.495),
  ('XIII', 9.078, 126.199), ('XIII', 8.21, 126.316), ('XIII', 10.006, 125.571), ('XIII', 8.606, 125.915),
  ('BARMM', 7.2236, 124.2464), ('BARMM', 7.9986, 124.2928), ('BARMM', 6.052, 121.002), ('BARMM', 5.029, 119.773),
  ('BARMM', 6.65, 122.133), ('BARMM', 6.715, 124.786), ('BARMM', 6.865, 124.44);

/** The region code of a report's location, or null when it is not located in the Philippines. */
create function private.ph_region(loc text, country text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select a.region_code
  from private.ph_region_anchors a,
       lateral (select split_part(ph_region.loc, ',', 1)::float8 as lat, split_part(ph_region.loc, ',', 2)::float8 as lng) p
  where ph_region.country = 'PH'
    and ph_region.loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'
    and p.lat between 4 and 22 and p.lng between 116 and 127.5
  -- Equirectangular distance: at these latitudes a degree of longitude is ~0.97 of one of latitude.
  order by (a.lat - p.lat) ^ 2 + ((a.lng - p.lng) * cos(radians(p.lat))) ^ 2
  limit 1
$$;
comment on function private.ph_region(text, text) is 'Region code (private.ph_regions) of a "lat,lng" location in the Philippines, else null.';
revoke execute on function private.ph_region(text, text) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Rollups kept by the trigger
-- ---------------------------------------------------------------------------------------------
create table private.stats_daily (
  day date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  amount_total numeric not null default 0,
  primary key (day, incident_type, reported_account_type, status)
);
comment on table private.stats_daily is 'Visible reports per UTC day of filing, incident type, account type and status, with the amount lost; kept by a trigger.';

create table private.stats_weekly (
  week date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  primary key (week, incident_type, reported_account_type, status)
);
comment on table private.stats_weekly is 'Visible reports per ISO week (Monday) of filing, incident type, account type and status; kept by a trigger.';

create table private.stats_monthly (
  month date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  amount_total numeric not null default 0,
  amount_reports bigint not null default 0,
  primary key (month, incident_type, reported_account_type, status)
);
comment on table private.stats_monthly is 'Visible reports per month of filing, incident type, account type and status, the amount lost and how many reports gave one (> 0); kept by a trigger.';

create table private.stats_monthly_amounts (
  month date not null,
  amount numeric(14, 2) not null,
  report_count bigint not null default 0,
  primary key (month, amount)
);
comment on table private.stats_monthly_amounts is 'How many visible reports of a month gave each amount lost (> 0): the distribution the monthly median is read from; kept by a trigger.';

create table private.stats_region_daily (
  day date not null,
  region_code text not null references private.ph_regions (code),
  report_count bigint not null default 0,
  primary key (day, region_code)
);
comment on table private.stats_region_daily is 'Visible reports per UTC day and region of the Philippines; kept by a trigger.';

create table private.stats_region_monthly (
  month date not null,
  region_code text not null references private.ph_regions (code),
  report_count bigint not null default 0,
  primary key (month, region_code)
);
comment on table private.stats_region_monthly is 'Visible reports per month and region of the Philippines; kept by a trigger.';

create table private.stats_recent_identifiers (
  day date not null,
  identifier_canonical text not null,
  reported_account_type public.reported_account_type not null,
  verified_count bigint not null default 0,
  primary key (day, identifier_canonical, reported_account_type)
);
comment on table private.stats_recent_identifiers is 'Verified reports per day and identifier for the last 31 days (older days are pruned by the scheduled job).';

-- Derived by the scheduled job (public.refresh_public_statistics) from the rollups above.
create table private.stats_monthly_medians (
  month date not null primary key,
  median_amount numeric(14, 2),
  amount_reports bigint not null,
  amount_total numeric not null
);
comment on table private.stats_monthly_medians is 'Median amount lost per month, computed by the scheduled job from stats_monthly_amounts when a month''s amounts changed.';

create table private.stats_top_identifiers (
  rank integer not null primary key,
  -- An opaque handle for the search link: masked identifiers must not travel in full to the page.
  ref uuid not null default gen_random_uuid() unique,
  identifier_canonical text not null,
  reported_account_type public.reported_account_type not null,
  verified_count bigint not null,
  refreshed_at timestamptz not null default now()
);
comment on table private.stats_top_identifiers is 'The 10 identifiers with the most verified reports filed in the last 30 days, as of the last scheduled run.';

alter table private.stats_daily enable row level security;
alter table private.stats_weekly enable row level security;
alter table private.stats_monthly enable row level security;
alter table private.stats_monthly_amounts enable row level security;
alter table private.stats_region_daily enable row level security;
alter table private.stats_region_monthly enable row level security;
alter table private.stats_recent_identifiers enable row level security;
alter table private.stats_monthly_medians enable row level security;
alter table private.stats_top_identifiers enable row level security;

/** Adds (+1) or removes (-1) one report from the public statistics rollups. */
create function private.apply_report_to_public_stats(r public.reports, delta integer)
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
begin
  if r.status not in ('pending', 'verified') then
    return;
  end if;
  v_day := (r.created_at at time zone 'UTC')::date;
  v_month := date_trunc('month', v_day)::date;
  insert into private.stats_daily as s (day, incident_type, reported_account_type, status, report_count, amount_total)
  values (v_day, r.incident_type, r.reported_account_type, r.status, delta, coalesce(v_amount, 0) * delta)
  on conflict (day, incident_type, reported_account_type, status) do update
    set report_count = s.report_count + excluded.report_count, amount_total = s.amount_total + excluded.amount_total;
  insert into private.stats_weekly as s (week, incident_type, reported_account_type, status, report_count)
  values (date_trunc('week', v_day)::date, r.incident_type, r.reported_account_type, r.status, delta)
  on conflict (week, incident_type, reported_account_type, status) do update
    set report_count = s.report_count + excluded.report_count;
  insert into private.stats_monthly as s (month, incident_type, reported_account_type, status, report_count, amount_total, amount_reports)
  values (v_month, r.incident_type, r.reported_account_type, r.status, delta, coalesce(v_amount, 0) * delta,
          case when v_amount is null then 0 else delta end)
  on conflict (month, incident_type, reported_account_type, status) do update
    set report_count = s.report_count + excluded.report_count,
        amount_total = s.amount_total + excluded.amount_total,
        amount_reports = s.amount_reports + excluded.amount_reports;
  if v_amount is not null then
    insert into private.stats_monthly_amounts as s (month, amount, report_count)
    values (v_month, v_amount, delta)
    on conflict (month, amount) do update set report_count = s.report_count + excluded.report_count;
  end if;
  v_region := private.ph_region(r.loc, r.country);
  if v_region is not null then
    insert into private.stats_region_daily as s (day, region_code, report_count)
    values (v_day, v_region, delta)
    on conflict (day, region_code) do update set report_count = s.report_count + excluded.report_count;
    insert into private.stats_region_monthly as s (month, region_code, report_count)
    values (v_month, v_region, delta)
    on conflict (month, region_code) do update set report_count = s.report_count + excluded.report_count;
  end if;
  if r.status = 'verified' and v_day >= (now() at time zone 'UTC')::date - 30 then
    insert into private.stats_recent_identifiers as s (day, identifier_canonical, reported_account_type, verified_count)
    values (v_day, r.reported_account_canonical, r.reported_account_type, delta)
    on conflict (day, identifier_canonical, reported_account_type) do update
      set verified_count = s.verified_count + excluded.verified_count;
  end if;
end
$$;
comment on function private.apply_report_to_public_stats(public.reports, integer) is 'Adds (+1) or removes (-1) one report from the public statistics rollups (visible reports only).';
revoke execute on function private.apply_report_to_public_stats(public.reports, integer) from public, anon, authenticated;

/** Trigger: keeps the public statistics current as reports come, change and go. */
create function private.reports_public_stats()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.apply_report_to_public_stats(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.apply_report_to_public_stats(new, 1);
  end if;
  return null;
end
$$;
comment on function private.reports_public_stats() is 'Trigger: keeps the public statistics rollups current for inserted, updated and deleted reports.';
revoke execute on function private.reports_public_stats() from public, anon, authenticated;
create trigger reports_public_stats_insert_delete after insert or delete on public.reports
  for each row execute function private.reports_public_stats();
create trigger reports_public_stats_update after update on public.reports
  for each row
  when ((old.status, old.incident_type, old.reported_account_type, old.reported_account_canonical, old.created_at,
         old.amount_lost, old.loc, old.country)
        is distinct from (new.status, new.incident_type, new.reported_account_type, new.reported_account_canonical,
                          new.created_at, new.amount_lost, new.loc, new.country))
  execute function private.reports_public_stats();

-- ---------------------------------------------------------------------------------------------
-- The scheduled job's part: medians and the top identifiers, from the rollups
-- ---------------------------------------------------------------------------------------------
/**
 * Recomputes the monthly medians of months whose amounts changed since the last run, prunes the
 * recent-identifier rollup to 31 days and rebuilds the top-10 list. Called by the `open-data`
 * scheduled function with the service role. Returns what it did.
 */
create function public.refresh_public_statistics()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_months integer;
  v_pruned integer;
begin
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
    -- The lower median of the month's distribution: the first amount whose running count reaches half.
    select c.month, c.n, c.total,
           (select d.amount from (
              select a.amount, sum(a.report_count) over (order by a.amount) as running
              from private.stats_monthly_amounts a
              where a.month = c.month and a.report_count > 0
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

  return jsonb_build_object('medians', v_months, 'pruned', v_pruned,
                            'top', (select count(*) from private.stats_top_identifiers));
end
$$;
comment on function public.refresh_public_statistics() is 'Scheduled job: recomputes changed monthly medians, prunes and ranks the last 30 days'' identifiers. Service role only.';
revoke execute on function public.refresh_public_statistics() from public, anon, authenticated;
grant execute on function public.refresh_public_statistics() to service_role;

/** Recomputes the public statistics rollups from public.reports (after bulk loads, or to repair drift). */
create function private.rebuild_public_statistics()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  truncate private.stats_daily, private.stats_weekly, private.stats_monthly, private.stats_monthly_amounts,
           private.stats_region_daily, private.stats_region_monthly, private.stats_recent_identifiers,
           private.stats_monthly_medians, private.stats_top_identifiers;
  create temporary table pg_temp.visible on commit drop as
  select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type, r.status,
         case when r.amount_lost > 0 then r.amount_lost end as amount, r.loc, r.country, r.reported_account_canonical
  from public.reports r where r.status in ('pending', 'verified');
  insert into private.stats_daily
  select day, incident_type, reported_account_type, status, count(*), coalesce(sum(amount), 0) from pg_temp.visible group by 1, 2, 3, 4;
  insert into private.stats_weekly
  select date_trunc('week', day)::date, incident_type, reported_account_type, status, sum(report_count)
  from private.stats_daily group by 1, 2, 3, 4;
  insert into private.stats_monthly
  select date_trunc('month', day)::date, incident_type, reported_account_type, status, count(*), coalesce(sum(amount), 0), count(amount)
  from pg_temp.visible group by 1, 2, 3, 4;
  insert into private.stats_monthly_amounts
  select date_trunc('month', day)::date, amount, count(*) from pg_temp.visible where amount is not null group by 1, 2;
  -- One region lookup per distinct location, not per report.
  insert into private.stats_region_daily
  select v.day, g.region, count(*)
  from pg_temp.visible v
  join (select loc, country, private.ph_region(loc, country) as region
        from (select distinct loc, country from pg_temp.visible where country = 'PH' and loc is not null) d) g
    on g.loc = v.loc and g.country = v.country
  where g.region is not null
  group by 1, 2;
  insert into private.stats_region_monthly
  select date_trunc('month', day)::date, region_code, sum(report_count) from private.stats_region_daily group by 1, 2;
  insert into private.stats_recent_identifiers
  select day, reported_account_canonical, reported_account_type, count(*)
  from pg_temp.visible where status = 'verified' and day >= (now() at time zone 'UTC')::date - 30 group by 1, 2, 3;
end
$$;
comment on function private.rebuild_public_statistics() is 'Recomputes the public statistics rollups from the reports table; operators only (then run public.refresh_public_statistics()).';
revoke execute on function private.rebuild_public_statistics() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- The one public entry point
-- ---------------------------------------------------------------------------------------------
/** An identifier shown in public lists: phone numbers and e-mail addresses partly masked. */
create function private.mask_identifier(kind public.reported_account_type, canonical text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when kind = 'mobile' and char_length(canonical) > 7
      then left(canonical, char_length(canonical) - 7) || repeat('•', 5) || right(canonical, 2)
    when kind = 'mobile' then repeat('•', char_length(canonical))
    when kind = 'email' and position('@' in canonical) > 1
      then left(canonical, 1) || repeat('•', 3) || substring(canonical from position('@' in canonical))
    when kind = 'email' then repeat('•', char_length(canonical))
    else canonical
  end
$$;
comment on function private.mask_identifier(public.reported_account_type, text) is 'Masks the middle of phone numbers (all but the prefix and last 2 digits) and the local part of e-mails (all but its first character).';
revoke execute on function private.mask_identifier(public.reported_account_type, text) from public, anon, authenticated;

/** One time series (unit 'week' or 'month') of visible reports from the rollups, every period present. */
create function private.stats_series(unit text, from_day date, to_day date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_first date := date_trunc(unit, from_day::timestamp)::date;
  v_last date := date_trunc(unit, to_day::timestamp)::date;
  v_out jsonb;
begin
  -- plpgsql, not sql: its plans are cached per connection, and one pass with filtered sums per period
  -- costs a fraction of one aggregation per breakdown.
  with r as (
    select week as period, incident_type, reported_account_type, status, report_count
    from private.stats_weekly
    where unit = 'week' and week between v_first and v_last
    union all
    select month, incident_type, reported_account_type, status, report_count
    from private.stats_monthly
    where unit = 'month' and month between v_first and v_last
  ),
  s as (
    select p::date as period,
           coalesce(sum(r.report_count), 0) as total,
           coalesce(sum(r.report_count) filter (where r.incident_type = 'scam'), 0) as scam,
           coalesce(sum(r.report_count) filter (where r.incident_type = 'hacked'), 0) as hacked,
           coalesce(sum(r.report_count) filter (where r.incident_type = 'spam'), 0) as spam,
           coalesce(sum(r.report_count) filter (where r.reported_account_type = 'mobile'), 0) as mobile,
           coalesce(sum(r.report_count) filter (where r.reported_account_type = 'email'), 0) as email,
           coalesce(sum(r.report_count) filter (where r.reported_account_type = 'ewallet'), 0) as ewallet,
           coalesce(sum(r.report_count) filter (where r.reported_account_type = 'crypto'), 0) as crypto,
           coalesce(sum(r.report_count) filter (where r.reported_account_type = 'website'), 0) as website,
           coalesce(sum(r.report_count) filter (where r.status = 'verified'), 0) as verified,
           coalesce(sum(r.report_count) filter (where r.status = 'pending'), 0) as pending
    from generate_series(v_first::timestamp, v_last::timestamp, ('1 ' || unit)::interval) p
    left join r on r.period = p::date
    group by 1
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'period', s.period, 'total', s.total,
           'by_incident_type', jsonb_build_object('scam', s.scam, 'hacked', s.hacked, 'spam', s.spam),
           'by_account_type', jsonb_build_object('mobile', s.mobile, 'email', s.email, 'ewallet', s.ewallet,
                                                 'crypto', s.crypto, 'website', s.website),
           'by_status', jsonb_build_object('verified', s.verified, 'pending', s.pending))
           order by s.period), '[]'::jsonb)
  into v_out
  from s;
  return v_out;
end
$$;
comment on function private.stats_series(text, date, date) is 'Reports per week or month between two days from the rollups: [{period, total, by_incident_type, by_account_type, by_status}], empty periods as 0.';
revoke execute on function private.stats_series(text, date, date) from public, anon, authenticated;

/**
 * The public statistics for a period ('last_30_days', 'last_12_months' or 'all_time'), read from the
 * rollups only: totals by status, weekly and monthly series by incident type, account type and status
 * (every period that overlaps the range, empty ones as 0), amounts lost per month (total, median),
 * reports per region, and the most-reported identifiers of the last 30 days (verified reports, masked).
 * A region count under 5 and a median from fewer than 5 amounts are null with fewer_than_5 = true.
 */
create function public.public_statistics(period text default 'last_12_months')
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
    v_from := coalesce((select min(month) from private.stats_monthly where report_count > 0),
                       date_trunc('month', v_today::timestamp)::date);
  end if;

  return jsonb_build_object(
    'period', period,
    'from', v_from,
    'to', v_today,
    'generated_at', now(),
    'small_count_threshold', 5,
    'totals', (
      select jsonb_build_object(
        'reports', coalesce(sum(report_count), 0),
        'verified', coalesce(sum(report_count) filter (where status = 'verified'), 0),
        'pending', coalesce(sum(report_count) filter (where status = 'pending'), 0),
        'amount_lost', coalesce(sum(amount_total), 0))
      from private.stats_daily where day between v_from and v_today
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
      left join lateral (
        select sum(s.amount_total) as total, sum(s.amount_reports) as n
        from private.stats_monthly s where s.month = m.month
      ) t on true
      left join private.stats_monthly_medians md on md.month = m.month
    ),
    'regions', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'code', g.code, 'name', g.name, 'lat', g.lat, 'lng', g.lng,
               'count', case when coalesce(c.n, 0) between 1 and 4 then null else coalesce(c.n, 0) end,
               'fewer_than_5', coalesce(c.n, 0) between 1 and 4) order by g.sort_order), '[]'::jsonb)
      from private.ph_regions g
      left join lateral (
        select sum(d.report_count) as n from private.stats_region_daily d
        where period = 'last_30_days' and d.region_code = g.code and d.day between v_from and v_today
        union all
        select sum(m.report_count) from private.stats_region_monthly m
        where period <> 'last_30_days' and m.region_code = g.code and m.month >= v_from
      ) c on c.n is not null
    ),
    'top_identifiers', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'rank', t.rank,
               'identifier', private.mask_identifier(t.reported_account_type, t.identifier_canonical),
               'masked', t.reported_account_type in ('mobile', 'email'),
               -- Masked kinds link through ref (public.search_top_identifier), the others by their value.
               'search', case when t.reported_account_type in ('mobile', 'email') then null else t.identifier_canonical end,
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

/**
 * Searches one of the listed most-reported identifiers by its handle, so that the statistics page can
 * link to the search of a masked phone number or e-mail without sending it in full. The answer is
 * search_reports' (anonymous callers get its limited columns, which do not include the identifier).
 */
create function public.search_top_identifier(ref uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_canonical text;
begin
  select t.identifier_canonical into v_canonical from private.stats_top_identifiers t where t.ref = search_top_identifier.ref;
  if v_canonical is null then
    raise exception 'this list entry has expired; the list is refreshed every hour' using errcode = 'P0002';
  end if;
  return public.search_reports(v_canonical);
end
$$;
comment on function public.search_top_identifier(uuid) is 'Runs search_reports on a most-reported identifier given by its ref from public_statistics (the identifier itself is not returned to anon).';
revoke execute on function public.search_top_identifier(uuid) from public;
grant execute on function public.search_top_identifier(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Open data: the daily export
-- ---------------------------------------------------------------------------------------------
/**
 * The rows of the daily open-data export: one per UTC day of the last `days` days (today included),
 * incident type, account type and status, from the rollups. Service role only (the `open-data`
 * scheduled function writes them to the public `open-data` bucket).
 */
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
  select s.day, s.incident_type, s.reported_account_type, s.status, s.report_count, s.amount_total
  from private.stats_daily s
  where days between 1 and 3660
    and s.day > (now() at time zone 'UTC')::date - days
    and s.report_count > 0
  order by s.day, s.incident_type, s.reported_account_type, s.status
$$;
comment on function public.open_data_daily(integer) is 'Rows of the daily open-data export (last `days` days) from the rollups. Service role only.';
revoke execute on function public.open_data_daily(integer) from public, anon, authenticated;
grant execute on function public.open_data_daily(integer) to service_role;

-- Public bucket: files are served by their public URL to anyone; only the service role writes
-- (it bypasses RLS), so no policy is needed and none would let anyone list or write.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('open-data', 'open-data', true, 20000000, array['text/csv', 'application/json'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
