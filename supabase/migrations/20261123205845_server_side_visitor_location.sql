-- Where a search or a visit comes from is decided on the server, never by the caller (issue 11, issue 19).
--
-- Before: public.search_reports(search_string, visitor jsonb) took the location and IP hash from its
-- caller, and anon/authenticated could insert any city, country, location and hash into visitor_log,
-- so anyone could write what they liked into the admin's Search History and Visitor Stats through REST.
--
-- Now:
--   * public.search_reports(search_string) is what anon and signed-in users call through REST; it logs
--     the search with the user (if any) and no location, because the database cannot know the caller's
--     address.
--   * public.search_reports_located(search_string, searcher, visitor) is for the service role only: the
--     `search` and `api` edge functions call it after verifying the caller's token (searcher) and
--     resolving the caller's address to a location and keyed hash on the server (_shared/geo.ts).
--   * Both run private.search_reports, the one body of the search.
--   * visitor_log takes no inserts from the API roles; public.record_visits (service role only) records
--     the page views the `visitor` edge function batches, with the location it resolved.
--   * Both service-role entry points take the caller's address from the function (never stored: it is
--     hashed into the rate limiter's subject, the same 'ip:<hash>' private.client_address_key() gives a
--     Data API request) and apply the limits 'search.*' and 'visit.*' of the one rate limiter
--     (20261123202500_rate_limiter.sql): per address and per signed-in user. Calls from the service role
--     are not limited by row triggers, so these entry points limit themselves.

-- The limits these entry points take from (other migrations may define the same rows first).
insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('search.ip', 60, 60, 'Too many searches from your address'),
  ('search.user', 60, 60, 'Too many searches from your account'),
  ('visit.ip', 60, 60, 'Too many visits recorded from your address'),
  ('visit.user', 60, 60, 'Too many visits recorded from your account')
on conflict (name) do nothing;

/** The limiter's subject for an address: 'ip:' and its salted hash (what client_address_key() gives). */
create function private.address_key(addr inet)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select 'ip:' || left(encode(sha256(convert_to(s.value || host(addr), 'UTF8')), 'hex'), 32)
  from private.rate_limit_settings s
  where s.name = 'address_salt' and addr is not null
$$;
comment on function private.address_key(inet) is 'Salted hash of an address as a rate-limit subject (''ip:<hex>''), null for null.';
revoke execute on function private.address_key(inet) from public, anon, authenticated;

-- One formula for the subject, whichever way the address arrives.
create or replace function private.client_address_key()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.address_key(private.client_address())
$$;

/** Takes `cost` calls from '<kind>.user' and '<kind>.ip' for a caller an edge function verified and located. */
create function private.limit_verified_caller(kind text, caller uuid, client_address inet, cost integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if caller is not null then
    perform private.rate_limit(kind || '.user', 'user:' || caller, cost);
  end if;
  if client_address is not null and not private.is_non_public_address(client_address) then
    perform private.rate_limit(kind || '.ip', private.address_key(client_address), cost);
  end if;
end
$$;
comment on function private.limit_verified_caller(text, uuid, inet, integer) is
  'Limits a service-role entry point per verified user and per client address (kind.user, kind.ip); raises 429 past either.';
revoke execute on function private.limit_verified_caller(text, uuid, inet, integer) from public, anon, authenticated;

drop function public.search_reports(text, jsonb);

/**
 * The search. Risk level, 0-100:
 *   weight  = sum over visible reports of w(status) * 0.5 ^ (age in days / 180)
 *             with w(verified) = 1 and w(pending) = 0.2 (unreviewed reports count a little)
 *   risk    = round(100 * (1 - exp(-weight / 2)))
 *   label   = 'high' from 60, 'medium' from 25, else 'low'
 * So one fresh verified report is medium (39), two are high (63); a verified report a year old is
 * low (12); pending reports alone stay low until there are many.
 * `searcher` is the signed-in user (more columns, and the log's user_id) or null; `visitor` is the
 * location the server resolved ({city, region, country, loc, org, postal, ip_hash}) or null. Only the
 * two public wrappers below call it, and neither lets an API caller choose either argument.
 */
create function private.search_reports(search_string text, searcher uuid, visitor jsonb)
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
         coalesce(sum(case when r.status = 'verified' then 1.0::float8 else 0.2::float8 end
                      * power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0))), 0),
         coalesce(sum(r.amount_lost) filter (where r.status = 'verified'), 0),
         (array_agg(r.country order by r.created_at desc) filter (where r.country is not null))[1]
  into v_count, v_weight, v_amount, v_country
  from public.reports r
  where r.reported_account_canonical = v_key and r.status in ('pending', 'verified');
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

/** The search anyone calls through REST: as the caller, without a location (the database cannot see one). */
create function public.search_reports(search_string text)
returns jsonb
language sql
volatile
security definer
set search_path = ''
as $$
  select private.search_reports(search_string, (select auth.uid()), null)
$$;
comment on function public.search_reports(text) is
  'Search reports by any identifier: {count, reports (latest 10), summary {count, last_victim_country, risk_level 0-100, risk_label, estimated_amount_lost}, points [[lat,lng]]}. Anonymous callers get limited columns. Logs the search without a location; the app searches through the `search` edge function, which adds the one the server resolves.';
revoke execute on function public.search_reports(text) from public;
grant execute on function public.search_reports(text) to anon, authenticated, service_role;

/**
 * The same search for the edge functions, which verified the caller (searcher: the user's id or null)
 * and resolved the caller's address to a location on the server. Service role only: an API caller
 * cannot name another user or claim a location.
 */
create function public.search_reports_located(search_string text, searcher uuid, visitor jsonb, client_address inet)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  perform private.limit_verified_caller('search', searcher, client_address, 1);
  return private.search_reports(search_string, searcher, visitor);
end
$$;
comment on function public.search_reports_located(text, uuid, jsonb, inet) is
  'search_reports for the edge functions (service role only): searcher is the verified user or null, visitor the server-resolved {city, region, country, loc, org, postal, ip_hash}, client_address the caller''s address (limits only, never stored).';
revoke execute on function public.search_reports_located(text, uuid, jsonb, inet) from public, anon, authenticated;
grant execute on function public.search_reports_located(text, uuid, jsonb, inet) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Visits
-- ---------------------------------------------------------------------------------------------
drop policy "Visitors can record a visit" on public.visitor_log;
drop policy "Signed-in users can record a visit as themselves" on public.visitor_log;
revoke insert on public.visitor_log from anon, authenticated;

/**
 * Records page views (at most 20 a call, as the `visitor` function batches them) for `visitor_id` (the
 * verified user or null) with the location the function resolved ({city, region, country, loc, org,
 * postal, ip_hash}; null when the visitor asked not to be tracked or has no public address). A path
 * that is not a site path ('/...') is kept as null: the visit still counts. Each view takes one call
 * from 'visit.user' and 'visit.ip' (client_address: limits only, never stored). Returns how many rows.
 */
create function public.record_visits(paths text[], visitor_id uuid, visit jsonb, client_address inet)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  if paths is null or cardinality(paths) = 0 or cardinality(paths) > 20 then
    raise exception 'record 1 to 20 visits at a time' using errcode = '22023';
  end if;
  perform private.limit_verified_caller('visit', visitor_id, client_address, cardinality(paths));
  insert into public.visitor_log (path, city, region, country, loc, org, postal, ip_hash, user_id)
  select case when p ~ '^/[^\x01-\x1f\x7f]*$' and char_length(p) <= 300 then p end,
         left(visit ->> 'city', 100), left(visit ->> 'region', 100), left(visit ->> 'country', 64),
         case when visit ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visit ->> 'loc' end,
         left(visit ->> 'org', 200), left(visit ->> 'postal', 20),
         case when visit ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visit ->> 'ip_hash' end,
         visitor_id
  from unnest(paths) as p;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
comment on function public.record_visits(text[], uuid, jsonb, inet) is
  'Records 1 to 20 page views for the `visitor` edge function (service role only) with the location it resolved on the server.';
revoke execute on function public.record_visits(text[], uuid, jsonb, inet) from public, anon, authenticated;
grant execute on function public.record_visits(text[], uuid, jsonb, inet) to service_role;
