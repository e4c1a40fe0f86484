-- Issue 37, second part: the weekly series from one row per week. stats_weekly held a row per week,
-- incident type, account type and status (about 20 per week, 1,600 at 548 days), and every call of
-- public_statistics summed them into the twelve figures of each week with a filtered sum each: about
-- 20,000 aggregate steps, the largest part of the all-time answer once it was written as text
-- (20261201040000). stats_weekly_series keeps those twelve figures per week as columns, kept by the same
-- trigger with one upsert instead of the old one (the write costs the same), sharded and folded like the
-- other rollups; the series sums one row per week and shard. stats_weekly had no other reader and goes.

create table private.stats_weekly_series (
  week date not null,
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
  primary key (week, shard)
);
alter table private.stats_weekly_series enable row level security;
revoke all on private.stats_weekly_series from public, anon, authenticated;
comment on table private.stats_weekly_series is
  'Visible reports per ISO week (Monday) of filing: the total, by incident type, by account type and by status; kept by a trigger.';
comment on column private.stats_weekly_series.shard is
  'One of up to 16 rows per week (pg_backend_pid() % 16 of the session that added to it, 0 once folded); each figure is their sum.';

-- The figures so far, from the rollup they replace (the enums compared as text: a build of every
-- migration in one transaction may not use a value added in it, such as 'social').
insert into private.stats_weekly_series (week, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social,
                                         verified, pending)
select week, sum(report_count),
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
from private.stats_weekly
group by week;

/** As 20261122000700_search_statistics.sql's last definition, with the week's figures in stats_weekly_series. */
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
  insert into private.stats_weekly_series as s (week, shard, total, scam, hacked, spam, mobile, email, ewallet, crypto,
                                                website, social, verified, pending)
  values (date_trunc('week', v_day)::date, v_shard, delta,
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
  on conflict (week, shard) do update
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

/** As 20261122000700_search_statistics.sql's last definition, folding stats_weekly_series in stats_weekly's place. */
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
    delete from private.stats_weekly_series where shard <> 0
    returning week, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social, verified, pending
  ), folded as (
    insert into private.stats_weekly_series as s (week, shard, total, scam, hacked, spam, mobile, email, ewallet, crypto,
                                                  website, social, verified, pending)
    select week, 0, sum(total), sum(scam), sum(hacked), sum(spam), sum(mobile), sum(email), sum(ewallet), sum(crypto),
           sum(website), sum(social), sum(verified), sum(pending)
    from moved group by 1
    on conflict (week, shard) do update
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

/** As 20261122000700_search_statistics.sql's last definition, filling stats_weekly_series in stats_weekly's place. */
create or replace function private.rebuild_public_statistics()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  truncate private.stats_daily, private.stats_weekly_series, private.stats_monthly, private.stats_monthly_amounts,
           private.stats_region_daily, private.stats_region_monthly, private.stats_recent_identifiers,
           private.stats_monthly_medians, private.stats_top_identifiers;
  create temporary table pg_temp.visible on commit drop as
  select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type, r.status,
         case when r.amount_lost > 0 then r.amount_lost end as amount, r.loc, r.country, r.reported_account_canonical
  from public.reports r where r.status in ('pending', 'verified');
  insert into private.stats_daily
  select day, incident_type, reported_account_type, status, count(*), coalesce(sum(amount), 0) from pg_temp.visible group by 1, 2, 3, 4;
  insert into private.stats_weekly_series (week, total, scam, hacked, spam, mobile, email, ewallet, crypto, website, social,
                                           verified, pending)
  select date_trunc('week', day)::date, sum(report_count),
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
  from private.stats_daily group by 1;
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

drop table private.stats_weekly;

/**
 * As 20261201040000_public_statistics_built_as_text.sql's, the weeks summed from stats_weekly_series (one
 * row per week once folded) and the months from stats_monthly as before.
 */
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
  with a as materialized (
    select w.week as period, sum(w.total) as total, sum(w.scam) as scam, sum(w.hacked) as hacked,
           sum(w.spam) as spam, sum(w.mobile) as mobile, sum(w.email) as email, sum(w.ewallet) as ewallet,
           sum(w.crypto) as crypto, sum(w.website) as website, sum(w.social) as social,
           sum(w.verified) as verified, sum(w.pending) as pending
    from private.stats_weekly_series w
    where unit = 'week' and w.week between v_first and v_last
    group by w.week
    union all
    select m.month,
           sum(m.report_count),
           sum(m.report_count) filter (where m.incident_type = 'scam'),
           sum(m.report_count) filter (where m.incident_type = 'hacked'),
           sum(m.report_count) filter (where m.incident_type = 'spam'),
           sum(m.report_count) filter (where m.reported_account_type = 'mobile'),
           sum(m.report_count) filter (where m.reported_account_type = 'email'),
           sum(m.report_count) filter (where m.reported_account_type = 'ewallet'),
           sum(m.report_count) filter (where m.reported_account_type = 'crypto'),
           sum(m.report_count) filter (where m.reported_account_type = 'website'),
           sum(m.report_count) filter (where m.reported_account_type = 'social'),
           sum(m.report_count) filter (where m.status = 'verified'),
           sum(m.report_count) filter (where m.status = 'pending')
    from private.stats_monthly m
    where unit = 'month' and m.month between v_first and v_last
    group by m.month
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
