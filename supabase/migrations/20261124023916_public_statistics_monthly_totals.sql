-- Public statistics under 5 ms at every size (issue 14): the totals of the 12-month and all-time
-- periods were summed from the daily rollup (one row per day, incident type, account type and status:
-- 10.5 ms for all time at 1M reports); those periods start on the first of a month and end today, so
-- the monthly rollup gives the same sums from a thirtieth of the rows. Same answers as before
-- (supabase/tests/db/public-statistics.test.ts compares them with the reports table).

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
