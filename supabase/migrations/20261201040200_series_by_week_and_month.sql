-- Issue 37, third part: the monthly series from the same small table as the weekly one. The months were
-- still summed from stats_monthly (about 20 rows per month, a filtered sum per figure: 0.6-0.9 ms of a
-- 3 ms all-time answer on the loaded machine). stats_periods replaces stats_weekly_series
-- (20261201040100) with one row per part of an ISO week within one month: a week across two months has
-- two rows, so the weekly series sums a week's parts and the monthly series a month's, both without
-- filters (about 100 rows for 548 days). The trigger still writes one row in its place (the write costs
-- the same); it is sharded and folded like the other rollups. stats_monthly stays for the totals, the
-- amounts and the medians. public_statistics is given again as in 20261201040000 with the refusal code
-- that 20261201000000_every_refusal_coded.sql gave its period check (its later definition had lost it).

create table private.stats_periods (
  week date not null,
  month date not null,
  shard smallint not null default 0 check (shard between 0 and 15),
  total bigint not null default 0,
  scam bigint not null default 0,
  hacked bigint not null default 0,
  spam bigint not null default 0,
  mobile bigint not null default 0,
  email bigint not null default 0,
  ewallet bigint not null default 0,
  crypto bigint not null default 0,
  website bigint not null default 0,
  social bigint not null default 0,
  verified bigint not null default 0,
  pending bigint not null default 0,
  primary key (week, month, shard)
);
alter table private.stats_periods enable row level security;
revoke all on private.stats_periods from public, anon, authenticated;
comment on table private.stats_periods is
  'Visible reports per part of an ISO week (Monday) within one month of filing: the total, by incident type, by account type and by status; kept by a trigger. The weekly series sums a week''s parts, the monthly series a month''s.';
comment on column private.stats_periods.shard is
  'One of up to 16 rows per part (pg_backend_pid() % 16 of the session that added to it, 0 once folded); each figure is their sum.';

-- The figures so far, from the daily rollup (the enums compared as text: a build of every migration in
-- one transaction may not use a value added in it, such as 'social').
insert into private.stats_periods (week, month, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social,
                                   verified, pending)
select date_trunc('week', day)::date, date_trunc('month', day)::date, sum(report_count),
       coalesce(sum(report_count) filter (where incident_type::text = 'scam'), 0),
       coalesce(sum(report_count) filter (where incident_type::text = 'hacked'), 0),
       coalesce(sum(report_count) filter (where incident_type::text = 'spam'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'mobile'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'email'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'ewallet'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'crypto'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'website'), 0),
       coalesce(sum(report_count) filter (where reported_account_type::text = 'social'), 0),
       coalesce(sum(report_count) filter (where status::text = 'verified'), 0),
       coalesce(sum(report_count) filter (where status::text = 'pending'), 0)
from private.stats_daily
group by 1, 2;

/** As 20261201040100_weekly_series_rollup.sql's, the week's figures in stats_periods by week and month. */
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
  -- Always in this order (daily, weekly and monthly parts, monthly, amounts, region daily, region monthly), as the fold
  -- takes them, so that a fold and a report never wait for each other in a circle.
  insert into private.stats_daily as s (day, incident_type, reported_account_type, status, shard, report_count, amount_total)
  values (v_day, r.incident_type, r.reported_account_type, r.status, v_shard, delta, coalesce(v_amount, 0) * delta)
  on conflict (day, incident_type, reported_account_type, status, shard) do update
    set report_count = s.report_count + excluded.report_count, amount_total = s.amount_total + excluded.amount_total;
  insert into private.stats_periods as s (week, month, shard, total, scam, hacked, spam, mobile, email, ewallet, crypto,
                                          website, social, verified, pending)
  values (date_trunc('week', v_day)::date, v_month, v_shard, delta,
          case when r.incident_type = 'scam' then delta else 0 end,
          case when r.incident_type = 'hacked' then delta else 0 end,
          case when r.incident_type = 'spam' then delta else 0 end,
          case when r.reported_account_type = 'mobile' then delta else 0 end,
          case when r.reported_account_type = 'email' then delta else 0 end,
          case when r.reported_account_type = 'ewallet' then delta else 0 end,
          case when r.reported_account_type = 'crypto' then delta else 0 end,
          case when r.reported_account_type = 'website' then delta else 0 end,
          case when r.reported_account_type = 'social' then delta else 0 end,
          case when r.status = 'verified' then delta else 0 end,
          case when r.status = 'pending' then delta else 0 end)
  on conflict (week, month, shard) do update
    set total = s.total + excluded.total, scam = s.scam + excluded.scam, hacked = s.hacked + excluded.hacked,
        spam = s.spam + excluded.spam, mobile = s.mobile + excluded.mobile, email = s.email + excluded.email,
        ewallet = s.ewallet + excluded.ewallet, crypto = s.crypto + excluded.crypto,
        website = s.website + excluded.website, social = s.social + excluded.social,
        verified = s.verified + excluded.verified, pending = s.pending + excluded.pending;
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

/** As 20261201040100_weekly_series_rollup.sql's, folding stats_periods in stats_weekly_series' place. */
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
    delete from private.stats_periods where shard <> 0
    returning week, month, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social, verified, pending
  ), folded as (
    insert into private.stats_periods as s (week, month, shard, total, scam, hacked, spam, mobile, email, ewallet, crypto,
                                            website, social, verified, pending)
    select week, month, 0, sum(total), sum(scam), sum(hacked), sum(spam), sum(mobile), sum(email), sum(ewallet), sum(crypto),
           sum(website), sum(social), sum(verified), sum(pending)
    from moved group by 1, 2
    on conflict (week, month, shard) do update
      set total = s.total + excluded.total, scam = s.scam + excluded.scam, hacked = s.hacked + excluded.hacked,
          spam = s.spam + excluded.spam, mobile = s.mobile + excluded.mobile, email = s.email + excluded.email,
          ewallet = s.ewallet + excluded.ewallet, crypto = s.crypto + excluded.crypto,
          website = s.website + excluded.website, social = s.social + excluded.social,
          verified = s.verified + excluded.verified, pending = s.pending + excluded.pending
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

/** As 20261201040100_weekly_series_rollup.sql's, filling stats_periods in stats_weekly_series' place. */
create or replace function private.rebuild_public_statistics()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  truncate private.stats_daily, private.stats_periods, private.stats_monthly, private.stats_monthly_amounts,
           private.stats_region_daily, private.stats_region_monthly, private.stats_recent_identifiers,
           private.stats_monthly_medians, private.stats_top_identifiers;
  create temporary table pg_temp.visible on commit drop as
  select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type, r.status,
         case when r.amount_lost > 0 then r.amount_lost end as amount, r.loc, r.country, r.reported_account_canonical
  from public.reports r where r.status in ('pending', 'verified');
  insert into private.stats_daily
  select day, incident_type, reported_account_type, status, count(*), coalesce(sum(amount), 0) from pg_temp.visible group by 1, 2, 3, 4;
  insert into private.stats_periods (week, month, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social,
                                     verified, pending)
  select date_trunc('week', day)::date, date_trunc('month', day)::date, sum(report_count),
         coalesce(sum(report_count) filter (where incident_type = 'scam'), 0),
         coalesce(sum(report_count) filter (where incident_type = 'hacked'), 0),
         coalesce(sum(report_count) filter (where incident_type = 'spam'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'mobile'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'email'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'ewallet'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'crypto'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'website'), 0),
         coalesce(sum(report_count) filter (where reported_account_type = 'social'), 0),
         coalesce(sum(report_count) filter (where status = 'verified'), 0),
         coalesce(sum(report_count) filter (where status = 'pending'), 0)
  from private.stats_daily group by 1, 2;
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

/** As 20261201040100_weekly_series_rollup.sql's, weeks and months both summed from stats_periods. */
create or replace function private.stats_series_text(unit text, from_day date, to_day date)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_first date := date_trunc(unit, from_day::timestamp)::date;
  v_last date := date_trunc(unit, to_day::timestamp)::date;
  v_out text;
begin
  -- Aggregated once per period first (materialized), then joined to the list of periods: joining the
  -- periods to the raw rollup rows let the planner rescan them once per period.
  -- One row per part of a week within a month (a week across two months has two), so a week sums its
  -- parts and a month its weeks' parts; aggregated once per period first (materialized), then joined to
  -- the list of periods.
  with a as materialized (
    select case when unit = 'week' then p.week else p.month end as period,
           sum(p.total) as total, sum(p.scam) as scam, sum(p.hacked) as hacked, sum(p.spam) as spam,
           sum(p.mobile) as mobile, sum(p.email) as email, sum(p.ewallet) as ewallet, sum(p.crypto) as crypto,
           sum(p.website) as website, sum(p.social) as social, sum(p.verified) as verified, sum(p.pending) as pending
    from private.stats_periods p
    where (unit = 'week' and p.week between v_first and v_last)
       or (unit = 'month' and p.month between v_first and v_last)
    group by 1
  )
  -- Every %s below is a number that is never null (coalesce) or a date written as YYYY-MM-DD, as
  -- jsonb writes dates.
  select '[' || coalesce(string_agg(format(
           '{"period":"%s","total":%s,'
           '"by_incident_type":{"scam":%s,"hacked":%s,"spam":%s},'
           '"by_account_type":{"mobile":%s,"email":%s,"ewallet":%s,"crypto":%s,"website":%s,"social":%s},'
           '"by_status":{"verified":%s,"pending":%s}}',
           to_char(p, 'YYYY-MM-DD'), coalesce(a.total, 0),
           coalesce(a.scam, 0), coalesce(a.hacked, 0), coalesce(a.spam, 0),
           coalesce(a.mobile, 0), coalesce(a.email, 0), coalesce(a.ewallet, 0), coalesce(a.crypto, 0),
           coalesce(a.website, 0), coalesce(a.social, 0),
           coalesce(a.verified, 0), coalesce(a.pending, 0)), ',' order by p), '') || ']'
  into v_out
  from generate_series(v_first::timestamp, v_last::timestamp, ('1 ' || unit)::interval) p
  left join a on a.period = p::date;
  return v_out;
end
$$;

drop table private.stats_weekly_series;

/** As 20261201040000_public_statistics_built_as_text.sql's, its period refusal coded as 20261201000000's. */
create or replace function public.public_statistics(period text default 'last_12_months')
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_from date;
  v_reports numeric;
  v_verified numeric;
  v_pending numeric;
  v_amount_total numeric;
  v_amount_reports numeric;
  v_totals text;
  v_amounts text;
  v_regions text;
  v_top text;
begin
  if period is null or period not in ('last_30_days', 'last_12_months', 'all_time') then
    raise exception 'period must be last_30_days, last_12_months or all_time' using errcode = '22023',
      hint = '{"code": "choice_invalid", "argument": "period", "choices": "last_30_days, last_12_months, all_time"}';
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

  -- The totals and the period's verified amounts (issue 27) in one pass over the rollups. 12 months and all
  -- time start on the first of a month and end today, so whole months of stats_monthly hold the same sums
  -- as their days (about 1/30 of the rows) and carry how many verified reports gave an amount; the last
  -- 30 days start mid-month and are summed by day, and since only "at least 5" matters there, the count
  -- stops at five rows of reports_verified_amount_created_at_idx.
  if period = 'last_30_days' then
    select coalesce(sum(d.report_count), 0),
           coalesce(sum(d.report_count) filter (where d.status = 'verified'), 0),
           coalesce(sum(d.report_count) filter (where d.status = 'pending'), 0),
           coalesce(sum(d.amount_total) filter (where d.status = 'verified'), 0)
      into v_reports, v_verified, v_pending, v_amount_total
      from private.stats_daily d
      where d.day between v_from and v_today;
    select count(*) into v_amount_reports
      from (select 1 from public.reports r
            where r.status = 'verified' and r.amount_lost > 0
              and r.created_at >= v_from::timestamp at time zone 'UTC'
            limit 5) five;
  else
    select coalesce(sum(m.report_count), 0),
           coalesce(sum(m.report_count) filter (where m.status = 'verified'), 0),
           coalesce(sum(m.report_count) filter (where m.status = 'pending'), 0),
           coalesce(sum(m.amount_total) filter (where m.status = 'verified'), 0),
           coalesce(sum(m.amount_reports) filter (where m.status = 'verified'), 0)
      into v_reports, v_verified, v_pending, v_amount_total, v_amount_reports
      from private.stats_monthly m
      where m.month >= v_from and m.month <= v_today;
  end if;

  -- Each part below is JSON text. A %s is a number that is never null, a date as YYYY-MM-DD, or text
  -- already written as JSON (to_json for strings, 'null', 'true' or 'false'): format() alone would write
  -- a null as nothing and a boolean as t or f.

  -- Issue 27: the totals' amount is verified amounts only, and only as the sum of at least 5 of them.
  v_totals := format('{"reports":%s,"verified":%s,"pending":%s,"amount_lost":%s,"amount_fewer_than_5":%s}',
                     v_reports, v_verified, v_pending,
                     case when v_amount_reports >= 5 then v_amount_total::text else 'null' end,
                     case when v_amount_reports < 5 then 'true' else 'false' end);

  -- Issue 27: each month's verified amounts only, shown as a total of at least 5 of them.
  select '[' || coalesce(string_agg(format(
           '{"month":"%s","total":%s,"reports_with_amount":%s,"median":%s,"fewer_than_5":%s}',
           to_char(m, 'YYYY-MM-DD'),
           case when coalesce(t.n, 0) >= 5 then coalesce(t.total::text, 'null') when coalesce(t.n, 0) = 0 then '0' else 'null' end,
           coalesce(t.n, 0),
           case when coalesce(t.n, 0) >= 5 and md.amount_reports >= 5 then coalesce(md.median_amount::text, 'null')
                else 'null' end,
           case when coalesce(t.n, 0) between 1 and 4 then 'true' else 'false' end), ',' order by m), '') || ']'
    into v_amounts
    from generate_series(date_trunc('month', v_from::timestamp), date_trunc('month', v_today::timestamp), interval '1 month') m
    left join (
      select s.month, sum(s.amount_total) as total, sum(s.amount_reports) as n
      from private.stats_monthly s
      where s.month >= date_trunc('month', v_from::timestamp)::date and s.status = 'verified'
      group by s.month
    ) t on t.month = m::date
    left join private.stats_monthly_medians md on md.month = m::date;

  -- Regions with 1 to 4 reports show no count.
  select '[' || coalesce(string_agg(format(
           '{"code":%s,"name":%s,"lat":%s,"lng":%s,"count":%s,"fewer_than_5":%s}',
           to_json(g.code), to_json(g.name), to_json(g.lat), to_json(g.lng),
           case when coalesce(c.n, 0) between 1 and 4 then 'null' else coalesce(c.n, 0)::text end,
           case when coalesce(c.n, 0) between 1 and 4 then 'true' else 'false' end), ',' order by g.sort_order), '') || ']'
    into v_regions
    from private.ph_regions g
    left join (
      select d.region_code, sum(d.report_count) as n from private.stats_region_daily d
      where period = 'last_30_days' and d.day between v_from and v_today
      group by d.region_code
      union all
      select m.region_code, sum(m.report_count) from private.stats_region_monthly m
      where period <> 'last_30_days' and m.month >= v_from
      group by m.region_code
    ) c on c.region_code = g.code;

  -- Masked kinds link through ref (public.search_top_identifier), the others by their value.
  select '[' || coalesce(string_agg(format(
           '{"rank":%s,"identifier":%s,"masked":%s,"search":%s,"ref":%s,"reported_account_type":%s,"verified_reports":%s}',
           t.rank,
           coalesce(to_json(private.mask_identifier(t.reported_account_type, t.identifier_canonical))::text, 'null'),
           case when t.reported_account_type in ('mobile', 'email', 'ewallet') then 'true' else 'false' end,
           case when t.reported_account_type in ('mobile', 'email', 'ewallet') then 'null'
                else coalesce(to_json(t.identifier_canonical)::text, 'null') end,
           to_json(t.ref), to_json(t.reported_account_type), t.verified_count), ',' order by t.rank), '') || ']'
    into v_top
    from private.stats_top_identifiers t;

  return ('{"period":' || to_json(period)::text
          || ',"from":' || to_json(v_from)::text
          || ',"to":' || to_json(v_today)::text
          || ',"generated_at":' || to_json(now())::text
          || ',"small_count_threshold":5'
          || ',"totals":' || v_totals
          || ',"weekly":' || private.stats_series_text('week', v_from, v_today)
          || ',"monthly":' || private.stats_series_text('month', v_from, v_today)
          || ',"amounts":' || v_amounts
          || ',"regions":' || v_regions
          || ',"top_identifiers":' || v_top
          || ',"top_identifiers_refreshed_at":'
          || coalesce(to_json((select max(refreshed_at) from private.stats_top_identifiers))::text, 'null')
          || '}')::json;
end
$$;
