-- Issue 27, item 5 ("unverified amounts are not summed into public figures"): the monthly median amount
-- lost was read from private.stats_monthly_amounts, which the trigger and the rebuild filled with every
-- visible report's amount, pending ones too, and refresh_public_statistics counted pending amounts in the
-- median's n. Now only verified reports' amounts enter the distribution, its count and its total; the
-- other public amounts (totals, monthly totals, open_data_daily, search summaries) were verified-only
-- already. The functions are given again from their latest definitions (20261201040200 and
-- 20261122000700) with only that change; the distribution and the medians are then rebuilt once.

/** As 20261201040200_series_by_week_and_month.sql's, adding to stats_monthly_amounts for verified reports only. */
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
  -- Issue 27: the distribution the monthly median is read from holds verified amounts only. A status change
  -- removes the old row (-1) and adds the new one (+1), so an amount enters it on verification and leaves
  -- it on rejection, removal, undo, edit or delete.
  if v_amount is not null and r.status = 'verified' then
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

/** As 20261201040200_series_by_week_and_month.sql's, filling stats_monthly_amounts from verified reports only. */
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
  select date_trunc('month', day)::date, amount, count(*) from pg_temp.visible
  where amount is not null and status = 'verified' group by 1, 2;
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

/** As 20261122000700_search_statistics.sql's, the medians' count and total of verified amounts only. */
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

  -- Issue 27: the median, its count and its total are of verified amounts only. Every month with rows
  -- stays in, so a month whose last verified amount left gets its figures back to 0 and no median.
  with totals as (
    select month, coalesce(sum(amount_reports) filter (where status = 'verified'), 0)::bigint as n,
           coalesce(sum(amount_total) filter (where status = 'verified'), 0) as total
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

comment on table private.stats_monthly_amounts is 'How many verified reports of a month gave each amount lost (> 0): the distribution the monthly median is read from; kept by a trigger.';
comment on table private.stats_monthly_medians is 'Median of the verified amounts lost per month (with their count and total), computed by the scheduled job from stats_monthly_amounts when a month''s verified amounts changed.';

-- The distribution as it now is defined, from the reports table: locked so that no report is counted
-- twice or missed meanwhile. The medians are recomputed from it by the next refresh (all months differ
-- from an empty table).
lock table private.stats_monthly_amounts in exclusive mode;
delete from private.stats_monthly_amounts where true;
insert into private.stats_monthly_amounts (month, amount, shard, report_count)
select date_trunc('month', (r.created_at at time zone 'UTC')::date)::date, r.amount_lost, 0, count(*)
from public.reports r
where r.status = 'verified' and r.amount_lost > 0
group by 1, 2;
delete from private.stats_monthly_medians where true;
