-- Issue 37: public_statistics back under 5 ms at 1M and 10M reports. `npm run bench:db` (quiet, 1M) read
-- 10.0 ms all time, 7.2 ms 12 months and 4.4 ms the last 30 days. The rollups it reads are small and do
-- not grow with the reports (1,600 weekly rows, 400 monthly ones at 548 days of history); the time went
-- into building the answer with jsonb_build_object and jsonb_agg, whose every call looks up each
-- argument's type again, serialises each nested object and copies it into its parent: the weekly series
-- alone (80 weeks of four nested objects) was built, copied into its array and copied again into the
-- answer. The functions below write the same JSON as text (one format() per week, month, region and
-- identifier, joined with string_agg) and public_statistics now returns it as json, checked by json's
-- parser but not rebuilt: the same answer key for key and number for number (jsonb only ordered the
-- keys differently and spaced them), which supabase/tests/db/public-statistics.test.ts compares with the
-- jsonb builders' answer and with a recomputation from the reports table. Changing the return type
-- means dropping the function; its grants are given again below.

/**
 * The weekly or monthly series between two days as JSON text: one pass over the rollup rows with a
 * filtered sum per figure, one format() per period, periods without reports as zeros.
 */
create function private.stats_series_text(unit text, from_day date, to_day date)
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
  with r as (
    select w.week as period, w.incident_type, w.reported_account_type, w.status, w.report_count
    from private.stats_weekly w
    where unit = 'week' and w.week between v_first and v_last
    union all
    select m.month, m.incident_type, m.reported_account_type, m.status, m.report_count
    from private.stats_monthly m
    where unit = 'month' and m.month between v_first and v_last
  ),
  -- Aggregated once per period first (materialized), then joined to the list of periods: joining the
  -- periods to the raw rollup rows let the planner rescan them once per period.
  a as materialized (
    select r.period,
           sum(r.report_count) as total,
           sum(r.report_count) filter (where r.incident_type = 'scam') as scam,
           sum(r.report_count) filter (where r.incident_type = 'hacked') as hacked,
           sum(r.report_count) filter (where r.incident_type = 'spam') as spam,
           sum(r.report_count) filter (where r.reported_account_type = 'mobile') as mobile,
           sum(r.report_count) filter (where r.reported_account_type = 'email') as email,
           sum(r.report_count) filter (where r.reported_account_type = 'ewallet') as ewallet,
           sum(r.report_count) filter (where r.reported_account_type = 'crypto') as crypto,
           sum(r.report_count) filter (where r.reported_account_type = 'website') as website,
           sum(r.report_count) filter (where r.reported_account_type = 'social') as social,
           sum(r.report_count) filter (where r.status = 'verified') as verified,
           sum(r.report_count) filter (where r.status = 'pending') as pending
    from r
    group by r.period
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
comment on function private.stats_series_text(text, date, date) is
  'Reports per week or month between two days from the rollups, as JSON text: [{period, total, by_incident_type, by_account_type, by_status}], empty periods as 0.';
revoke execute on function private.stats_series_text(text, date, date) from public;

/** stats_series as jsonb, from the one text builder above. */
create or replace function private.stats_series(unit text, from_day date, to_day date)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select private.stats_series_text(unit, from_day, to_day)::jsonb
$$;

drop function public.public_statistics(text);

/**
 * Public statistics as 20261128184000_public_statistics_amounts_from_rollups.sql, the answer written as
 * JSON text and returned as json (issue 37): same figures from the same rollup rows, same keys.
 */
create function public.public_statistics(period text default 'last_12_months')
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
comment on function public.public_statistics(text) is
  'Public statistics from rollups for last_30_days, last_12_months or all_time: {period, from, to, totals, weekly, monthly, amounts, regions, top_identifiers}; aggregates only, small counts suppressed; amounts are sums of at least 5 verified reports (issue 27).';
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
