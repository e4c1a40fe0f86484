-- Issue 37: public_statistics at 1M reports took 122 ms (last 30 days), 1.5 s (12 months) and 2.3 s (all
-- time) in `npm run bench:db` (load 17-24), against 3.3-3.5 ms before issue 27: issue 27's amounts
-- (20261127100400_amount_privacy.sql) summed the period's verified reports row by row. The same figures
-- come from the rollups now; the answer is unchanged (supabase/tests/db/public-statistics.test.ts).

-- Verified reports that give an amount, by filing time: the last 30 days' "at least 5" check reads five
-- entries of it, however many reports there are.
create index reports_verified_amount_created_at_idx on public.reports (created_at)
  where status = 'verified' and amount_lost > 0;

/**
 * Public statistics as 20261127100400_amount_privacy.sql, with the verified amounts of the totals read
 * from the rollups: stats_monthly's amount_total and amount_reports for whole months (12 months, all
 * time), stats_daily's amount_total for the last 30 days with at most five reports read to tell whether
 * at least 5 gave an amount. Same answer, rollup-sized work.
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
  v_amount_total numeric;
  v_amount_reports bigint;
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

  -- The period's verified amounts (issue 27), from the rollups instead of the reports themselves: the
  -- sum over every verified report of the period read half a million rows at 1M reports (2.3 s all
  -- time, issue 37). Whole months (12 months, all time) carry how many verified reports gave an amount;
  -- the last 30 days sum the days' amounts, and since only "at least 5" matters there, the count stops
  -- at five rows of the partial index below.
  if period = 'last_30_days' then
    select coalesce(sum(d.amount_total), 0) into v_amount_total
      from private.stats_daily d
      where d.status = 'verified' and d.day between v_from and v_today;
    select count(*) into v_amount_reports
      from (select 1 from public.reports r
            where r.status = 'verified' and r.amount_lost > 0
              and r.created_at >= v_from::timestamp at time zone 'UTC'
            limit 5) five;
  else
    select coalesce(sum(m.amount_total), 0), coalesce(sum(m.amount_reports), 0)
      into v_amount_total, v_amount_reports
      from private.stats_monthly m
      where m.status = 'verified' and m.month >= v_from and m.month <= v_today;
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
        -- Issue 27: verified amounts only, and only as the sum of at least 5 of them.
        'amount_lost', case when v_amount_reports >= 5 then v_amount_total end,
        'amount_fewer_than_5', v_amount_reports < 5)
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
