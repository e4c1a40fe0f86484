-- Issue 27, "small numbers stay private". The daily export had 164 rows that were a single report, with
-- its amount (unverified amounts included), and any user could file up to 999,999,999,999.99. Now
-- (docs/behaviour.md §14):
--   * an amount lost is at most PHP 100,000,000, whoever writes it (a trigger, with a clear message;
--     rows already above it are left as they are until their amount changes);
--   * public figures (the export, the statistics' totals and monthly amounts, the search summary) show
--     an amount only as the sum of at least 5 verified reports that give one; pending amounts are never
--     summed into them; below 5 the amount is null (and the statistics say fewer_than_5).
-- The search summary's part is in 20261127100000_verdict_weights.sql.

/** Before insert or update of amount_lost: at most PHP 100,000,000. */
create function private.reports_amount_cap()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.amount_lost > 100000000
     and (tg_op = 'INSERT' or new.amount_lost is distinct from old.amount_lost) then
    raise exception 'amount_lost must be at most PHP 100,000,000' using errcode = '22023',
      hint = 'Give the amount in pesos that this one incident cost; larger figures are not accepted.';
  end if;
  return new;
end
$$;
comment on function private.reports_amount_cap() is 'Trigger: refuses an amount_lost above PHP 100,000,000 (22023).';
grant execute on function private.reports_amount_cap() to authenticated, service_role;
create trigger reports_amount_cap before insert or update of amount_lost on public.reports
  for each row execute function private.reports_amount_cap();

-- Verified reports by filing time: the amounts of a period are read from the reports themselves.
create index reports_verified_created_at_idx on public.reports (created_at) where status = 'verified';

/**
 * The rows of the daily export, as before (counts per UTC day, incident type, account type and status,
 * from the rollups), except amount_lost_php: the sum of the amounts of that row's VERIFIED reports when
 * at least 5 of them give one, else null; pending rows never carry an amount.
 */
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
  with counts as (
    select s.day, s.incident_type, s.reported_account_type, s.status, sum(s.report_count)::bigint as n
    from private.stats_daily s
    where days between 1 and 3660
      and s.day > (now() at time zone 'UTC')::date - days
    group by 1, 2, 3, 4
    having sum(s.report_count) > 0
  ),
  amounts as (
    select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type,
           sum(r.amount_lost) as total, count(r.amount_lost) as n
    from public.reports r
    where days between 1 and 3660
      and r.status = 'verified'
      and r.created_at >= ((now() at time zone 'UTC')::date - days + 1)::timestamp at time zone 'UTC'
      and r.amount_lost > 0
    group by 1, 2, 3
  )
  select c.day, c.incident_type, c.reported_account_type, c.status, c.n,
         case when c.status = 'verified' and a.n >= 5 then a.total end
  from counts c
  left join amounts a on a.day = c.day and a.incident_type = c.incident_type
                     and a.reported_account_type = c.reported_account_type
  order by c.day, c.incident_type, c.reported_account_type, c.status
$$;
comment on function public.open_data_daily(integer) is
  'Rows of the daily open-data export: reports per UTC day, incident type, account type and status; amount_lost_php only for verified rows with at least 5 verified amounts (else null). Service role only.';

/**
 * Public statistics as 20261124051300_stats_rollups_sharded.sql, except the amounts (issue 27): totals'
 * amount_lost is the sum over the period's VERIFIED reports that give an amount when there are at least
 * 5 of them, else null (amount_fewer_than_5 true); each month's total likewise (null for 1 to 4
 * verified amounts, fewer_than_5 true). The monthly median is of the month's amounts and shown only when
 * at least 5 verified amounts are behind the month.
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
  v_amounts record;
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

  -- The period's verified amounts, from the verified reports themselves (their partial index): the
  -- rollups' daily rows do not say how many reports gave an amount.
  select sum(r.amount_lost) as total, count(r.amount_lost) as n
    into v_amounts
    from public.reports r
    where r.status = 'verified' and r.amount_lost > 0
      and r.created_at >= v_from::timestamp at time zone 'UTC';

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
        -- Issue 27: verified amounts only, and only as the sum of at least 5 of them.
        'amount_lost', case when v_amounts.n >= 5 then v_amounts.total end,
        'amount_fewer_than_5', coalesce(v_amounts.n, 0) < 5)
      from (
        select d.status, d.report_count from private.stats_daily d
        where period = 'last_30_days' and d.day between v_from and v_today
        union all
        select m.status, m.report_count from private.stats_monthly m
        where period <> 'last_30_days' and m.month >= v_from and m.month <= v_today
      ) t
    ),
    'weekly', private.stats_series('week', v_from, v_today),
    'monthly', private.stats_series('month', v_from, v_today),
    'amounts', (
      -- Issue 27: each month's verified amounts only, shown as a total of at least 5 of them.
      select coalesce(jsonb_agg(jsonb_build_object(
               'month', m.month,
               'total', case when coalesce(t.n, 0) >= 5 then t.total when coalesce(t.n, 0) = 0 then 0 end,
               'reports_with_amount', coalesce(t.n, 0),
               'median', case when coalesce(t.n, 0) >= 5 and md.amount_reports >= 5 then md.median_amount end,
               'fewer_than_5', coalesce(t.n, 0) between 1 and 4) order by m.month), '[]'::jsonb)
      from generate_series(date_trunc('month', v_from::timestamp), date_trunc('month', v_today::timestamp), interval '1 month') m0
      cross join lateral (select m0::date as month) m
      left join (
        select s.month, sum(s.amount_total) as total, sum(s.amount_reports) as n
        from private.stats_monthly s
        where s.month >= date_trunc('month', v_from::timestamp)::date and s.status = 'verified'
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
  'Public statistics from rollups for last_30_days, last_12_months or all_time: {period, from, to, totals, weekly, monthly, amounts, regions, top_identifiers}; aggregates only, small counts suppressed; amounts are sums of at least 5 verified reports (issue 27).';
revoke execute on function public.public_statistics(text) from public;
