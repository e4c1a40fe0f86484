-- search_reports' own cost (issue 12, Postgres CPU per request under `npm run check:load`): about 70 % of the
-- searches in the load mix, and most real ones, are for identifiers nobody reported. For those the count
-- pass finds no visible report, and the risk weight, the latest ten and the heatmap points read the same
-- index range again only to find nothing. They are skipped when the count is 0; the answer is the same
-- (weight 0, risk 0 low, empty lists). Otherwise the body is 20261123213853_distinct_reporters.sql's.

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
  -- Most searches are for identifiers nobody reported: no visible report means no weight, no list and no
  -- points, so the three other reads of the same index range are skipped (same answer).
  v_weight := case when v_count = 0 then 0 else private.identifier_weight(v_key) end;
  v_risk := round(100 * (1 - exp(-v_weight / 2)))::int;

  if v_count = 0 then
    v_reports := '[]'::jsonb;
    v_points := '[]'::jsonb;
  else
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
  end if;

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
