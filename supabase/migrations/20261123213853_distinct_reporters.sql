-- Issue 11, "one account moves a verdict": risk counts distinct reporters (one reporter's reports on one
-- identifier weigh as one, as much as their strongest report), and a reporter who files the same
-- identifier again within a window is refused with a message that points to their existing report.
-- The weight is computed once, in private.identifier_weight; private.search_reports (the definition of
-- 20261123205845_server_side_visitor_location.sql) and public.check_identifiers (the definition of
-- 20261123202506_check_message.sql) are otherwise unchanged and now call it.

insert into private.rate_limit_settings (name, value) values ('duplicate_report_days', '30');

/**
 * The risk weight of an identifier: the sum over its distinct reporters of the weight of their strongest
 * visible report, w(status) * 0.5 ^ (age in days / 180) with w(verified) = 1 and w(pending) = 0.2. A
 * report whose reporter account is gone counts as a reporter of its own. Float arithmetic: numeric
 * power() costs ~10 us a row. One index range on reported_account_canonical.
 */
create function private.identifier_weight(canonical text)
returns float8
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(p.w), 0)
  from (
    select max(case when r.status = 'verified' then 1.0::float8 else 0.2::float8 end
               * power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0))) as w
    from public.reports r
    where r.reported_account_canonical = identifier_weight.canonical and r.status in ('pending', 'verified')
    group by coalesce(r.reporter_id, r.id)
  ) p
$$;
comment on function private.identifier_weight(text) is
  'Risk weight of a canonical identifier: per distinct reporter their strongest visible report, w(verified 1, pending 0.2) * 0.5^(age days / 180), summed.';
revoke execute on function private.identifier_weight(text) from public, anon, authenticated;

/**
 * The search. Risk level, 0-100:
 *   weight  = sum over the identifier's distinct reporters of the weight of their strongest visible
 *             report, w(status) * 0.5 ^ (age in days / 180), with w(verified) = 1 and w(pending) = 0.2
 *             (private.identifier_weight: one reporter's reports on one identifier weigh as one)
 *   risk    = round(100 * (1 - exp(-weight / 2)))
 *   label   = 'high' from 60, 'medium' from 25, else 'low'
 * So one fresh verified report is medium (39), two are high (63); a verified report a year old is
 * low (12); pending reports alone stay low until there are many.
 * `searcher` is the signed-in user (more columns, and the log's user_id) or null; `visitor` is the
 * location the server resolved ({city, region, country, loc, org, postal, ip_hash}) or null. Only the
 * two public wrappers below call it, and neither lets an API caller choose either argument.
 */
create or replace function private.search_reports(search_string text, searcher uuid, visitor jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_kind text;
  v_key text;
  v_signed_in boolean := searcher is not null;
  v_count integer;
  v_weight float8;
  v_risk integer;
  v_amount numeric;
  v_country text;
  v_reports jsonb;
  v_points jsonb;
begin
  if search_string is null or char_length(btrim(search_string)) = 0 or char_length(search_string) > 256 then
    raise exception 'search_string must be 1 to 256 characters' using errcode = '22023';
  end if;
  v_kind := public.detect_identifier_kind(search_string);
  v_key := public.canonical_identifier(v_kind, search_string);

  -- One pass over the identifier's visible reports (index range on reported_account_canonical).
  -- Float arithmetic: numeric power() costs ~10 us a row.
  select count(*)::int,
         coalesce(sum(r.amount_lost) filter (where r.status = 'verified'), 0),
         (array_agg(r.country order by r.created_at desc) filter (where r.country is not null))[1]
  into v_count, v_amount, v_country
  from public.reports r
  where r.reported_account_canonical = v_key and r.status in ('pending', 'verified');
  v_weight := private.identifier_weight(v_key);
  v_risk := round(100 * (1 - exp(-v_weight / 2)))::int;

  -- The latest 10, read in index order (reported_account_canonical, created_at desc).
  select coalesce(jsonb_agg(
           jsonb_build_object(
             'reported_date', l.created_at::date,
             'incident_date', l.incident_date,
             'incident_type', l.incident_type,
             'reported_account_type', l.reported_account_type,
             'location', l.location,
             'status', case when l.status = 'verified' then 'verified' else 'not-verified' end
           ) || case when v_signed_in then jsonb_build_object(
             'id', l.id,
             'reported_account', l.reported_account,
             'country', l.country,
             'incident_description', l.incident_description,
             'amount_lost', l.amount_lost
           ) else '{}'::jsonb end
           order by l.created_at desc), '[]'::jsonb)
  into v_reports
  from (
    select * from public.reports r
    where r.reported_account_canonical = v_key and r.status in ('pending', 'verified')
    order by r.created_at desc
    limit 10
  ) l;

  -- Heatmap points of the newest 1000 reports that have a location.
  select coalesce(jsonb_agg(jsonb_build_array(split_part(p.loc, ',', 1)::float8, split_part(p.loc, ',', 2)::float8)), '[]'::jsonb)
  into v_points
  from (
    select r.loc from public.reports r
    where r.reported_account_canonical = v_key and r.status in ('pending', 'verified') and r.loc is not null
    order by r.created_at desc
    limit 1000
  ) p;

  insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                 city, region, country, loc, org, postal, ip_hash)
  values (
    left(search_string, 256), v_kind, v_key, v_count, searcher,
    left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
    case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
    left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
    case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
  );
  return jsonb_build_object(
    'count', v_count,
    'reports', v_reports,
    'summary', jsonb_build_object(
      'count', v_count,
      'last_victim_country', v_country,
      'risk_level', v_risk,
      'risk_label', case when v_risk >= 60 then 'high' when v_risk >= 25 then 'medium' else 'low' end,
      'estimated_amount_lost', v_amount
    ),
    'points', v_points
  );
end
$$;
comment on function private.search_reports(text, uuid, jsonb) is
  'The body of the search: {count, reports (latest 10), summary {count, last_victim_country, risk_level 0-100, risk_label, estimated_amount_lost}, points [[lat,lng]]}; logs the search with the searcher and the server-resolved visitor location.';
revoke execute on function private.search_reports(text, uuid, jsonb) from public, anon, authenticated;

/**
 * The identifiers of one message ([{type, value}], at most 50) with, for each, its canonical form,
 * the number of visible reports and the risk level computed as public.search_reports does. One call,
 * one statement over the search index; each identifier is logged in search_log as a search is.
 */
create or replace function public.check_identifiers(identifiers jsonb, visitor jsonb default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
  v_key text := private.client_address_key();
  v_uid uuid := (select auth.uid());
begin
  -- sec-abuse's limiter (per address, per user), counted whether or not the input is good
  if v_key is not null then
    perform private.rate_limit('check.ip', v_key);
  end if;
  if v_uid is not null then
    perform private.rate_limit('check.user', 'user:' || v_uid);
  end if;
  if identifiers is null or jsonb_typeof(identifiers) <> 'array' or jsonb_array_length(identifiers) > 50 then
    raise exception 'identifiers must be an array of at most 50 {type, value}' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(identifiers) e
    where jsonb_typeof(e) <> 'object'
       or coalesce(e ->> 'type', '') not in ('mobile', 'email', 'website', 'ewallet', 'crypto')
       or char_length(btrim(coalesce(e ->> 'value', ''))) not between 1 and 256
  ) then
    raise exception 'each identifier needs a type (mobile, email, website, ewallet or crypto) and a value of 1 to 256 characters'
      using errcode = '22023';
  end if;

  with input as (
    select e.ord, e.v ->> 'type' as kind, e.v ->> 'value' as value,
           public.canonical_identifier(e.v ->> 'type', e.v ->> 'value') as canonical
    from jsonb_array_elements(identifiers) with ordinality as e(v, ord)
  ),
  found as (
    select i.ord, i.kind, i.value, i.canonical, s.n, s.w
    from input i
    cross join lateral (
      -- Float arithmetic as in search_reports: numeric power() costs ~10 us a row.
      select count(*)::int as n, private.identifier_weight(i.canonical) as w
      from public.reports r
      where r.reported_account_canonical = i.canonical and r.status in ('pending', 'verified')
    ) s
  ),
  logged as (
    insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                   city, region, country, loc, org, postal, ip_hash)
    select left(f.value, 256), f.kind, f.canonical, f.n, v_uid,
           left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
           case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
           left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
           case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
    from found f
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'type', f.kind,
           'value', f.value,
           'canonical', f.canonical,
           'count', f.n,
           'risk_level', r.risk,
           'risk_label', case when r.risk >= 60 then 'high' when r.risk >= 25 then 'medium' else 'low' end
         ) order by f.ord), '[]'::jsonb)
  into v_result
  from found f
  cross join lateral (select round(100 * (1 - exp(-f.w / 2)))::int as risk) r;
  return v_result;
end
$$;
comment on function public.check_identifiers(jsonb, jsonb) is
  'Looks up the identifiers of one message ([{type, value}], at most 50) in one call: [{type, value, canonical, count, risk_level 0-100, risk_label}] in input order, risk as search_reports computes it. Logs each as a search (visitor as for search_reports). Limited by check.ip and check.user.';
revoke execute on function public.check_identifiers(jsonb, jsonb) from public;
grant execute on function public.check_identifiers(jsonb, jsonb) to anon, authenticated, service_role;

/**
 * Before insert (or a change of identifier) through the Data API: a reporter who already has a visible
 * report on the same identifier filed within duplicate_report_days (private.rate_limit_settings) is
 * refused with HTTP 409 (code PT409) naming the existing report, which they can edit instead.
 */
create function private.reports_refuse_duplicates()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_days integer;
  v_existing public.reports;
begin
  if coalesce(private.request_role(), '') <> 'authenticated'
     or coalesce(current_setting('request.method', true), '') = ''
     or new.reporter_id is null
     or (tg_op = 'UPDATE' and new.reported_account_canonical is not distinct from old.reported_account_canonical) then
    return new;
  end if;
  select coalesce(max(value::int), 30) into v_days from private.rate_limit_settings where name = 'duplicate_report_days';
  select * into v_existing from public.reports r
  where r.reporter_id = new.reporter_id
    and r.reported_account_canonical = new.reported_account_canonical
    and r.id <> new.id
    and r.status in ('pending', 'verified')
    and r.created_at > now() - make_interval(days => v_days)
  order by r.created_at desc
  limit 1;
  if v_existing.id is null then
    return new;
  end if;
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT409',
      'message', format('You already reported %s on %s. Edit that report to add what happened instead of filing a new one.',
                        v_existing.reported_account, to_char(v_existing.created_at at time zone 'UTC', 'FMMonth FMDD, YYYY')),
      'details', format('existing_report_id=%s', v_existing.id),
      'hint', format('Open /dashboard/edit-report/%s to edit it.', v_existing.id))::text,
    detail = json_build_object('status', 409, 'headers', json_build_object())::text;
end
$$;
comment on function private.reports_refuse_duplicates() is
  'Trigger: refuses a second report by the same reporter on the same identifier within duplicate_report_days (409, PT409, details existing_report_id=<id>).';
revoke execute on function private.reports_refuse_duplicates() from public;

-- Fires after reports_before_write (triggers run in name order), which computes the canonical identifier.
create trigger reports_refuse_duplicates before insert or update of reported_account_type, reported_account on public.reports
  for each row execute function private.reports_refuse_duplicates();
