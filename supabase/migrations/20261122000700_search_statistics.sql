-- Search and statistics: the search and visitor logs, site counters, the search itself, and the
-- public statistics.
--
-- Search: public.search_reports(search_string) is what anon and signed-in users call through REST (it
-- logs the search with the user, no location); public.search_reports_located is for the service role
-- only (the `search` and `api` functions resolve the caller's address to a location on the server).
-- Both run private.search_reports, the one body of the search. Where a search or a visit comes from is
-- decided on the server: visitor_log takes no inserts from the API roles (public.record_visits, service
-- role only, records what the `visitor` function batches), and both logs keep a location only when
-- the server resolved it.
--
-- Public statistics: rollups of visible reports (pending and verified) kept by a trigger on
-- public.reports, two tables a scheduled job derives from them (monthly median amounts, the
-- most-reported identifiers of the last 30 days), and ONE entry point anon may call,
-- public.public_statistics(period), which returns aggregates only. No statistic reads public.reports.
-- Periods are UTC days, ISO weeks (starting Monday) and months. A report's region is the region of the
-- nearest of a few towns per region (private.ph_region_anchors) to its approximate location. Small
-- counts (a region's count under 5, a month's median from fewer than 5 amounts) are null with
-- "fewer_than_5": true, so no figure can point at one person.
-- Hot rollup rows (site counters, stats_*) have up to 16 shards: a trigger adds to the shard of its
-- session's backend (pg_backend_pid() % 16), readers sum the shards, and the hourly job
-- (refresh_public_statistics) and private.rebuild_rollups fold them back into shard 0.

-- ---------------------------------------------------------------------------------------------
-- Search and visitor logs (no raw IP addresses: at most a salted hash computed by the edge function)
-- ---------------------------------------------------------------------------------------------
create table public.search_log (
  id uuid not null primary key default gen_random_uuid(),
  search_string text not null check (char_length(search_string) <= 256),
  identifier_kind text,
  identifier_canonical text,
  result_count integer not null default 0,
  user_id uuid references auth.users (id) on delete set null,
  city text check (char_length(city) <= 100),
  region text check (char_length(region) <= 100),
  country text check (char_length(country) <= 64),
  loc text check (loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'),
  org text check (char_length(org) <= 200),
  postal text check (char_length(postal) <= 20),
  ip_hash text check (ip_hash ~ '^[0-9a-f]{16,128}$'),
  created_at timestamptz not null default now()
);
alter table public.search_log enable row level security;
revoke all on public.search_log from anon, authenticated;
grant select on public.search_log to authenticated;
comment on table public.search_log is 'Every search (written by search_reports); admins read it (Search History). No raw IP: ip_hash is a salted hash.';

create index search_log_created_at_idx on public.search_log (created_at desc);

create policy "Admins can read the search log" on public.search_log
  for select to authenticated
  using ((select private.is_admin()));

create table public.visitor_log (
  id uuid not null primary key default gen_random_uuid(),
  path text check (char_length(path) <= 300),
  city text check (char_length(city) <= 100),
  region text check (char_length(region) <= 100),
  country text check (char_length(country) <= 64),
  loc text check (loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'),
  org text check (char_length(org) <= 200),
  postal text check (char_length(postal) <= 20),
  ip_hash text check (ip_hash ~ '^[0-9a-f]{16,128}$'),
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
alter table public.visitor_log enable row level security;
revoke all on public.visitor_log from anon, authenticated;
grant insert (path, city, region, country, loc, org, postal, ip_hash) on public.visitor_log to anon, authenticated;
grant select on public.visitor_log to authenticated;
revoke insert on public.visitor_log from anon, authenticated;
comment on table public.visitor_log is 'Visits with their approximate location (Visitor Stats). No raw IP: ip_hash is a salted hash.';

create index visitor_log_created_at_idx on public.visitor_log (created_at desc);

create index visitor_log_user_id_idx on public.visitor_log (user_id);

create policy "Admins can read the visitor log" on public.visitor_log
  for select to authenticated
  using ((select private.is_admin()));

create trigger rate_limit_writes before insert on public.search_log
  for each row execute function private.limit_writes('search');

create trigger rate_limit_writes before insert on public.visitor_log
  for each row execute function private.limit_writes('visit');

-- The search and visit logs keep a location only when the server resolved it (issue 11): a row written
-- during a Data API request by anon or a signed-in user loses any city, region, country, loc, org,
-- postal and ip_hash, whichever entry point wrote it (search_reports, check_identifiers' visitor
-- argument, one added later). The edge functions resolve the location from the caller's address and
-- write through the service role's entry points (search_reports_located, record_visits), which keep it.
create function private.server_side_location_only()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(private.request_role(), '') in ('anon', 'authenticated') then
    new.city := null;
    new.region := null;
    new.country := null;
    new.loc := null;
    new.org := null;
    new.postal := null;
    new.ip_hash := null;
  end if;
  return new;
end
$$;
revoke execute on function private.server_side_location_only() from public, anon, authenticated;
comment on function private.server_side_location_only() is
  'Trigger: drops the location fields of a log row written during an anon or signed-in Data API request (the caller could have chosen them).';

create trigger server_side_location_only before insert on public.search_log
  for each row execute function private.server_side_location_only();

create trigger server_side_location_only before insert on public.visitor_log
  for each row execute function private.server_side_location_only();

create index search_log_user_id_idx on public.search_log (user_id) where user_id is not null;

-- ---------------------------------------------------------------------------------------------
-- Site counters (admin overview)
-- ---------------------------------------------------------------------------------------------
create table private.site_counters (
  name text not null check (name in ('users', 'reports', 'verified_reports', 'contact_messages', 'searches', 'visitors')),
  value bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (name, shard)
);
-- Private tables are not exposed through the API; RLS on without policies keeps them closed anyway.
alter table private.site_counters enable row level security;
comment on column private.site_counters.shard is 'One of up to 16 rows of a counter (pg_backend_pid() % 16 of the session that added to it); the counter is their sum.';
comment on table private.site_counters is 'Site-wide counters for the admin overview, kept by triggers; each counter is the sum of its shards.';

insert into private.site_counters (name)
values ('users'), ('reports'), ('verified_reports'), ('contact_messages'), ('searches'), ('visitors');

/** Adds `delta` to the shard of `counter` this session writes (pg_backend_pid() % 16). */
create function private.bump_site_counter(counter text, delta bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.site_counters as c (name, shard, value)
  values (counter, pg_backend_pid() % 16, delta)
  on conflict (name, shard) do update set value = c.value + excluded.value;
end
$$;
revoke execute on function private.bump_site_counter(text, bigint) from public, anon, authenticated;
comment on function private.bump_site_counter(text, bigint) is 'Adds delta to private.site_counters.';

/** Counts rows of a logged table into its site counter ('users', 'contact_messages', 'searches', 'visitors'). */
create function private.count_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_site_counter(tg_argv[0], case when tg_op = 'INSERT' then 1 else -1 end);
  return null;
end
$$;
revoke execute on function private.count_rows() from public, anon, authenticated;
comment on function private.count_rows() is 'Trigger: adds or removes one row from the site counter named by the trigger argument.';

create trigger profiles_count after insert or delete on public.profiles
  for each row execute function private.count_rows('users');

create trigger contact_messages_count after insert or delete on public.contact_messages
  for each row execute function private.count_rows('contact_messages');

create trigger search_log_count after insert or delete on public.search_log
  for each row execute function private.count_rows('searches');

create trigger visitor_log_count after insert or delete on public.visitor_log
  for each row execute function private.count_rows('visitors');

/** Recomputes every rollup from the tables (after bulk loads with triggers off, or to repair drift). */
create function private.rebuild_rollups()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.site_counters where shard <> 0;
  update private.site_counters c set value = v.value
  from (
    select 'users' as name, (select count(*) from public.profiles) as value
    union all select 'reports', (select count(*) from public.reports)
    union all select 'verified_reports', (select count(*) from public.reports where status = 'verified')
    union all select 'contact_messages', (select count(*) from public.contact_messages)
    union all select 'searches', (select count(*) from public.search_log)
    union all select 'visitors', (select count(*) from public.visitor_log)
  ) v
  where c.name = v.name and c.shard = 0;
  truncate private.user_report_counts, private.user_monthly_report_counts, public.identifier_report_counts;
  insert into private.user_report_counts (user_id, incident_type, report_count)
  select reporter_id, incident_type, count(*) from public.reports where reporter_id is not null group by 1, 2;
  insert into private.user_monthly_report_counts (user_id, month, report_count)
  select reporter_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)
  from public.reports where reporter_id is not null group by 1, 2;
  insert into public.identifier_report_counts (identifier_canonical, report_count, verified_count)
  select reported_account_canonical, count(*), count(*) filter (where status = 'verified')
  from public.reports where status in ('pending', 'verified') group by 1;
  -- The public statistics have their own rebuild (private.rebuild_public_statistics, a full pass over
  -- the reports); here their shards are only folded.
  perform private.fold_public_statistics_shards();
end
$$;
revoke execute on function private.rebuild_rollups() from public, anon, authenticated;
comment on function private.rebuild_rollups() is 'Recomputes all rollups from the base tables; operators only.';

/** Site-wide counters for the admin overview (each the sum of its shards); admins only. */
create function public.admin_app_stats()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read site statistics' using errcode = '42501';
  end if;
  return (
    select jsonb_build_object(
      'contact', coalesce(sum(value) filter (where name = 'contact_messages'), 0)::bigint,
      'verifiedReports', coalesce(sum(value) filter (where name = 'verified_reports'), 0)::bigint,
      'users', coalesce(sum(value) filter (where name = 'users'), 0)::bigint,
      'reports', coalesce(sum(value) filter (where name = 'reports'), 0)::bigint,
      'search', coalesce(sum(value) filter (where name = 'searches'), 0)::bigint,
      'visitor', coalesce(sum(value) filter (where name = 'visitors'), 0)::bigint
    )
    from private.site_counters
  );
end
$$;
revoke execute on function public.admin_app_stats() from public, anon;
grant execute on function public.admin_app_stats() to authenticated, service_role;
comment on function public.admin_app_stats() is 'Admin overview counters {contact, verifiedReports, users, reports, search, visitor} from rollups; admins only.';

-- ---------------------------------------------------------------------------------------------
-- Search
-- ---------------------------------------------------------------------------------------------
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
revoke execute on function private.search_reports(text, uuid, jsonb) from public, anon, authenticated;
revoke execute on function private.search_reports(text, uuid, jsonb) from public, anon, authenticated;
comment on function private.search_reports(text, uuid, jsonb) is
  'The body of the search: {count, reports (latest 10), summary {count, last_victim_country, risk_level 0-100, risk_label, estimated_amount_lost}, points [[lat,lng]]}; logs the search with the searcher and the server-resolved visitor location.';

create function public.search_reports(search_string text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.search_reports(search_string, (select auth.uid()), null);
end
$$;
revoke execute on function public.search_reports(text) from public;
grant execute on function public.search_reports(text) to anon, authenticated, service_role;
comment on function public.search_reports(text) is
  'Search reports by any identifier: {count, reports (latest 10), summary {count, last_victim_country, risk_level 0-100, risk_label, estimated_amount_lost}, points [[lat,lng]]}. Anonymous callers get limited columns. Logs the search without a location; the app searches through the `search` edge function, which adds the one the server resolves.';

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
revoke execute on function public.search_reports_located(text, uuid, jsonb, inet) from public, anon, authenticated;
grant execute on function public.search_reports_located(text, uuid, jsonb, inet) to service_role;
comment on function public.search_reports_located(text, uuid, jsonb, inet) is
  'search_reports for the edge functions (service role only): searcher is the verified user or null, visitor the server-resolved {city, region, country, loc, org, postal, ip_hash}, client_address the caller''s address (limits only, never stored).';

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
revoke execute on function public.record_visits(text[], uuid, jsonb, inet) from public, anon, authenticated;
grant execute on function public.record_visits(text[], uuid, jsonb, inet) to service_role;
comment on function public.record_visits(text[], uuid, jsonb, inet) is
  'Records 1 to 20 page views for the `visitor` edge function (service role only) with the location it resolved on the server.';

create function private.identifier_weight(canonical text)
returns float8
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_weight float8;
begin
  select coalesce(sum(p.w), 0)
    into v_weight
    from (
      select max(case when r.status = 'verified' then 1.0::float8 else 0.2::float8 end
                 * power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0))) as w
      from public.reports r
      where r.reported_account_canonical = identifier_weight.canonical and r.status in ('pending', 'verified')
      group by coalesce(r.reporter_id, r.id)
    ) p;
  return v_weight;
end
$$;
revoke execute on function private.identifier_weight(text) from public, anon, authenticated;
comment on function private.identifier_weight(text) is
  'Risk weight of a canonical identifier: per distinct reporter their strongest visible report, w(verified 1, pending 0.2) * 0.5^(age days / 180), summed.';

-- ---------------------------------------------------------------------------------------------
-- Regions
-- ---------------------------------------------------------------------------------------------
create table private.ph_regions (
  code text not null primary key,
  name text not null,
  sort_order integer not null,
  lat double precision not null,
  lng double precision not null
);
alter table private.ph_regions enable row level security;
comment on table private.ph_regions is 'The 18 regions of the Philippines with a map point (the mean of their anchor towns).';

create table private.ph_region_anchors (
  region_code text not null references private.ph_regions (code),
  lat double precision not null,
  lng double precision not null,
  -- Every table has a primary key (splinter 0004): the region anchors are identified by their position.
  primary key (lat, lng)
);
alter table private.ph_region_anchors enable row level security;
comment on table private.ph_region_anchors is 'Towns and cities per region; a location belongs to the region of its nearest anchor.';

create index ph_region_anchors_region_code_idx on private.ph_region_anchors (region_code);

insert into private.ph_regions (code, name, sort_order, lat, lng) values
  ('NCR', 'National Capital Region', 1, 14.6003, 121.0117),
  ('CAR', 'Cordillera Administrative Region', 2, 17.2175, 120.9904),
  ('I', 'Ilocos Region', 3, 16.7248, 120.4080),
  ('II', 'Cagayan Valley', 4, 17.5588, 121.6865),
  ('III', 'Central Luzon', 5, 15.1755, 120.6685),
  ('IV-A', 'Calabarzon', 6, 14.1286, 121.3856),
  ('IV-B', 'Mimaropa', 7, 11.6415, 120.3312),
  ('V', 'Bicol Region', 8, 13.2997, 123.6250),
  ('VI', 'Western Visayas', 9, 11.0912, 122.5362),
  ('NIR', 'Negros Island Region', 10, 9.9439, 123.1427),
  ('VII', 'Central Visayas', 11, 10.2751, 123.8921),
  ('VIII', 'Eastern Visayas', 12, 11.4038, 124.8296),
  ('IX', 'Zamboanga Peninsula', 13, 7.7798, 122.8607),
  ('X', 'Northern Mindanao', 14, 8.4136, 124.6034),
  ('XI', 'Davao Region', 15, 7.1889, 125.7606),
  ('XII', 'Soccsksargen', 16, 6.4713, 125.0006),
  ('XIII', 'Caraga', 17, 9.1061, 125.8394),
  ('BARMM', 'Bangsamoro (BARMM)', 18, 6.6476, 122.9533);

insert into private.ph_region_anchors (region_code, lat, lng) values
  ('NCR', 14.5995, 120.9842), ('NCR', 14.676, 121.0437), ('NCR', 14.6507, 120.9676), ('NCR', 14.5764, 121.0851),
  ('NCR', 14.4445, 120.9939), ('NCR', 14.7, 120.983), ('NCR', 14.5547, 121.0244), ('CAR', 16.4023, 120.596),
  ('CAR', 17.4189, 121.4443), ('CAR', 17.5958, 120.6186), ('CAR', 16.8, 121.1167), ('CAR', 17.088, 120.977),
  ('CAR', 18.0, 121.19), ('I', 18.1978, 120.5936), ('I', 17.5747, 120.3869), ('I', 16.6159, 120.3166),
  ('I', 16.0433, 120.3333), ('I', 16.0212, 120.2315), ('I', 15.896, 120.586), ('II', 17.6132, 121.727),
  ('II', 17.1485, 121.8893), ('II', 16.6879, 121.5487), ('II', 16.4833, 121.15), ('II', 20.4487, 121.9702),
  ('II', 18.26, 121.99), ('II', 16.27, 121.53), ('III', 15.0286, 120.6898), ('III', 15.145, 120.5887),
  ('III', 15.4755, 120.5963), ('III', 15.4865, 120.9667), ('III', 14.8527, 120.816), ('III', 14.8292, 120.2828),
  ('III', 14.676, 120.536), ('III', 15.327, 119.978), ('III', 15.759, 121.562), ('IV-A', 14.2117, 121.1653),
  ('IV-A', 14.586, 121.176), ('IV-A', 13.7565, 121.0583), ('IV-A', 13.9373, 121.617), ('IV-A', 14.3294, 120.9367),
  ('IV-A', 14.1153, 120.9621), ('IV-A', 14.7425, 121.6492), ('IV-A', 13.35, 122.52), ('IV-B', 13.4116, 121.1803),
  ('IV-B', 9.7392, 118.7353), ('IV-B', 12.3528, 121.0676), ('IV-B', 13.447, 121.843), ('IV-B', 12.575, 122.269),
  ('IV-B', 11.9986, 120.2043), ('IV-B', 10.825, 119.517), ('IV-B', 8.783, 117.833), ('V', 13.1391, 123.7438),
  ('V', 13.6218, 123.1948), ('V', 14.1122, 122.9553), ('V', 12.9742, 124.0058), ('V', 12.37, 123.62),
  ('V', 13.581, 124.23), ('VI', 10.7202, 122.5621), ('VI', 11.5853, 122.7511), ('VI', 11.7077, 122.367),
  ('VI', 10.7447, 121.941), ('VI', 10.659, 122.596), ('VI', 11.13, 123.0), ('NIR', 10.6765, 122.9509),
  ('NIR', 9.3068, 123.3054), ('NIR', 9.99, 122.814), ('NIR', 9.199, 123.595), ('NIR', 9.591, 123.121),
  ('NIR', 10.9, 123.07), ('VII', 10.3157, 123.8854), ('VII', 9.65, 123.85), ('VII', 10.3773, 123.6386),
  ('VII', 11.0517, 124.0055), ('VII', 10.106, 123.64), ('VII', 10.15, 124.333), ('VIII', 11.244, 125.004),
  ('VIII', 11.0064, 124.6075), ('VIII', 11.775, 124.886), ('VIII', 11.608, 125.431), ('VIII', 12.499, 124.638),
  ('VIII', 10.133, 124.845), ('VIII', 11.561, 124.396), ('IX', 6.9214, 122.079), ('IX', 7.8257, 123.437),
  ('IX', 8.5883, 123.3409), ('IX', 7.784, 122.586), ('X', 8.4542, 124.6319), ('X', 8.228, 124.2452),
  ('X', 8.1575, 125.1278), ('X', 8.4859, 123.8048), ('X', 9.25, 124.717), ('X', 7.906, 125.094),
  ('XI', 7.1907, 125.4553), ('XI', 7.4478, 125.8078), ('XI', 6.7497, 125.3572), ('XI', 6.9551, 126.2166),
  ('XI', 7.601, 125.966), ('XII', 6.1164, 125.1716), ('XII', 6.5008, 124.8469), ('XII', 7.0083, 125.0894),
  ('XII', 6.629, 124.605), ('XII', 6.102, 125.29), ('XIII', 8.9475, 125.5406), ('XIII', 9.789, 125.495),
  ('XIII', 9.078, 126.199), ('XIII', 8.21, 126.316), ('XIII', 10.006, 125.571), ('XIII', 8.606, 125.915),
  ('BARMM', 7.2236, 124.2464), ('BARMM', 7.9986, 124.2928), ('BARMM', 6.052, 121.002), ('BARMM', 5.029, 119.773),
  ('BARMM', 6.65, 122.133), ('BARMM', 6.715, 124.786), ('BARMM', 6.865, 124.44);

create function private.ph_region(loc text, country text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_lat float8;
  v_lng float8;
  v_region text;
begin
  if ph_region.country is distinct from 'PH' or ph_region.loc is null
     or ph_region.loc !~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then
    return null;
  end if;
  v_lat := split_part(ph_region.loc, ',', 1)::float8;
  v_lng := split_part(ph_region.loc, ',', 2)::float8;
  if v_lat not between 4 and 22 or v_lng not between 116 and 127.5 then
    return null;
  end if;
  -- Equirectangular distance: at these latitudes a degree of longitude is ~0.97 of one of latitude.
  select a.region_code
    into v_region
    from private.ph_region_anchors a
    order by (a.lat - v_lat) ^ 2 + ((a.lng - v_lng) * cos(radians(v_lat))) ^ 2
    limit 1;
  return v_region;
end
$$;
revoke execute on function private.ph_region(text, text) from public, anon, authenticated;
comment on function private.ph_region(text, text) is 'Region code (private.ph_regions) of a "lat,lng" location in the Philippines, else null.';

-- ---------------------------------------------------------------------------------------------
-- Public statistics
-- ---------------------------------------------------------------------------------------------
create table private.stats_daily (
  day date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  amount_total numeric not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (day, incident_type, reported_account_type, status, shard)
);
alter table private.stats_daily enable row level security;
comment on column private.stats_daily.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_daily is 'Visible reports per UTC day of filing, incident type, account type and status, with the amount lost; kept by a trigger.';

create table private.stats_weekly (
  week date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (week, incident_type, reported_account_type, status, shard)
);
alter table private.stats_weekly enable row level security;
comment on column private.stats_weekly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_weekly is 'Visible reports per ISO week (Monday) of filing, incident type, account type and status; kept by a trigger.';

create table private.stats_monthly (
  month date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  status public.report_status not null,
  report_count bigint not null default 0,
  amount_total numeric not null default 0,
  amount_reports bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (month, incident_type, reported_account_type, status, shard)
);
alter table private.stats_monthly enable row level security;
comment on column private.stats_monthly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_monthly is 'Visible reports per month of filing, incident type, account type and status, the amount lost and how many reports gave one (> 0); kept by a trigger.';

create table private.stats_monthly_amounts (
  month date not null,
  amount numeric(14, 2) not null,
  report_count bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (month, amount, shard)
);
alter table private.stats_monthly_amounts enable row level security;
comment on column private.stats_monthly_amounts.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_monthly_amounts is 'How many visible reports of a month gave each amount lost (> 0): the distribution the monthly median is read from; kept by a trigger.';

create table private.stats_region_daily (
  day date not null,
  region_code text not null references private.ph_regions (code),
  report_count bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (day, region_code, shard)
);
alter table private.stats_region_daily enable row level security;
comment on column private.stats_region_daily.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_region_daily is 'Visible reports per UTC day and region of the Philippines; kept by a trigger.';

create table private.stats_region_monthly (
  month date not null,
  region_code text not null references private.ph_regions (code),
  report_count bigint not null default 0,
  shard smallint not null default 0 check (shard between 0 and 15),
  primary key (month, region_code, shard)
);
alter table private.stats_region_monthly enable row level security;
comment on column private.stats_region_monthly.shard is 'One of up to 16 rows per key (pg_backend_pid() % 16 of the session that added to it, 0 once folded); the figure is their sum.';
comment on table private.stats_region_monthly is 'Visible reports per month and region of the Philippines; kept by a trigger.';

create table private.stats_recent_identifiers (
  day date not null,
  identifier_canonical text not null,
  reported_account_type public.reported_account_type not null,
  verified_count bigint not null default 0,
  primary key (day, identifier_canonical, reported_account_type)
);
alter table private.stats_recent_identifiers enable row level security;
comment on table private.stats_recent_identifiers is 'Verified reports per day and identifier for the last 31 days (older days are pruned by the scheduled job).';

-- Derived by the scheduled job (public.refresh_public_statistics) from the rollups above.
create table private.stats_monthly_medians (
  month date not null primary key,
  median_amount numeric(14, 2),
  amount_reports bigint not null,
  amount_total numeric not null
);
alter table private.stats_monthly_medians enable row level security;
comment on table private.stats_monthly_medians is 'Median amount lost per month, computed by the scheduled job from stats_monthly_amounts when a month''s amounts changed.';

create table private.stats_top_identifiers (
  rank integer not null primary key,
  -- An opaque handle for the search link: masked identifiers must not travel in full to the page.
  ref uuid not null default gen_random_uuid() unique,
  identifier_canonical text not null,
  reported_account_type public.reported_account_type not null,
  verified_count bigint not null,
  refreshed_at timestamptz not null default now()
);
alter table private.stats_top_identifiers enable row level security;
comment on table private.stats_top_identifiers is 'The 10 identifiers with the most verified reports filed in the last 30 days, as of the last scheduled run.';

/** Adds (+1) or removes (-1) one report from the public statistics rollups, in the session's shard. */
create function private.apply_report_to_public_stats(r public.reports, delta integer)
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
  insert into private.stats_weekly as s (week, incident_type, reported_account_type, status, shard, report_count)
  values (date_trunc('week', v_day)::date, r.incident_type, r.reported_account_type, r.status, v_shard, delta)
  on conflict (week, incident_type, reported_account_type, status, shard) do update
    set report_count = s.report_count + excluded.report_count;
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
revoke execute on function private.apply_report_to_public_stats(public.reports, integer) from public, anon, authenticated;
comment on function private.apply_report_to_public_stats(public.reports, integer) is 'Adds (+1) or removes (-1) one report from the public statistics rollups (visible reports only).';

/** Trigger: keeps the public statistics current as reports come, change and go. */
create function private.reports_public_stats()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.apply_report_to_public_stats(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.apply_report_to_public_stats(new, 1);
  end if;
  return null;
end
$$;
revoke execute on function private.reports_public_stats() from public, anon, authenticated;
comment on function private.reports_public_stats() is 'Trigger: keeps the public statistics rollups current for inserted, updated and deleted reports.';

create trigger reports_public_stats_insert_delete after insert or delete on public.reports
  for each row execute function private.reports_public_stats();

create trigger reports_public_stats_update after update on public.reports
  for each row
  when ((old.status, old.incident_type, old.reported_account_type, old.reported_account_canonical, old.created_at,
         old.amount_lost, old.loc, old.country)
        is distinct from (new.status, new.incident_type, new.reported_account_type, new.reported_account_canonical,
                          new.created_at, new.amount_lost, new.loc, new.country))
  execute function private.reports_public_stats();

/**
 * Folds the rollups' shards, recomputes the monthly medians of months whose amounts changed since the
 * last run, prunes the recent-identifier rollup to 31 days and rebuilds the top-10 list. Called by the
 * `open-data` scheduled function with the service role. Returns what it did.
 */
create function public.refresh_public_statistics()
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

  with totals as (
    select month, sum(amount_reports)::bigint as n, sum(amount_total) as total
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
revoke execute on function public.refresh_public_statistics() from public, anon, authenticated;
grant execute on function public.refresh_public_statistics() to service_role;
comment on function public.refresh_public_statistics() is 'Scheduled job: folds the rollups'' shards, recomputes changed monthly medians, prunes and ranks the last 30 days'' identifiers. Service role only.';

/** Recomputes the public statistics rollups from public.reports (after bulk loads, or to repair drift). */
create function private.rebuild_public_statistics()
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  truncate private.stats_daily, private.stats_weekly, private.stats_monthly, private.stats_monthly_amounts,
           private.stats_region_daily, private.stats_region_monthly, private.stats_recent_identifiers,
           private.stats_monthly_medians, private.stats_top_identifiers;
  create temporary table pg_temp.visible on commit drop as
  select (r.created_at at time zone 'UTC')::date as day, r.incident_type, r.reported_account_type, r.status,
         case when r.amount_lost > 0 then r.amount_lost end as amount, r.loc, r.country, r.reported_account_canonical
  from public.reports r where r.status in ('pending', 'verified');
  insert into private.stats_daily
  select day, incident_type, reported_account_type, status, count(*), coalesce(sum(amount), 0) from pg_temp.visible group by 1, 2, 3, 4;
  insert into private.stats_weekly
  select date_trunc('week', day)::date, incident_type, reported_account_type, status, sum(report_count)
  from private.stats_daily group by 1, 2, 3, 4;
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
revoke execute on function private.rebuild_public_statistics() from public, anon, authenticated;
comment on function private.rebuild_public_statistics() is 'Recomputes the public statistics rollups from the reports table; operators only (then run public.refresh_public_statistics()).';

/** An identifier shown in public lists: phone numbers, e-wallet accounts and e-mail addresses partly masked. */
create function private.mask_identifier(kind public.reported_account_type, canonical text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when kind in ('mobile', 'ewallet') and canonical ~ '^\+?[0-9]+$' and char_length(canonical) > 7
      then left(canonical, char_length(canonical) - 7) || repeat('•', 5) || right(canonical, 2)
    when kind in ('email', 'ewallet') and position('@' in canonical) > 1
      then left(canonical, 1) || repeat('•', 3) || substring(canonical from position('@' in canonical))
    when kind = 'ewallet' and char_length(canonical) > 4
      then left(canonical, 2) || repeat('•', 5) || right(canonical, 2)
    when kind in ('mobile', 'email', 'ewallet') then repeat('•', char_length(canonical))
    else canonical
  end
$$;
revoke execute on function private.mask_identifier(public.reported_account_type, text) from public, anon, authenticated;
revoke execute on function private.mask_identifier(public.reported_account_type, text) from public, anon, authenticated;
comment on function private.mask_identifier(public.reported_account_type, text) is 'Masks the middle of phone numbers and phone-number e-wallets (all but the prefix and last 2 digits), the local part of e-mails and e-mail e-wallets (all but its first character), and other e-wallet accounts (all but 2 characters at each end).';

/** One time series (unit 'week' or 'month') of visible reports from the rollups, every period present. */
create function private.stats_series(unit text, from_day date, to_day date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_first date := date_trunc(unit, from_day::timestamp)::date;
  v_last date := date_trunc(unit, to_day::timestamp)::date;
  v_out jsonb;
begin
  -- plpgsql, not sql: its plans are cached per connection, and one pass with filtered sums per period
  -- costs a fraction of one aggregation per breakdown.
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
           sum(r.report_count) filter (where r.status = 'verified') as verified,
           sum(r.report_count) filter (where r.status = 'pending') as pending
    from r
    group by r.period
  ),
  s as (
    select p::date as period,
           coalesce(a.total, 0) as total, coalesce(a.scam, 0) as scam, coalesce(a.hacked, 0) as hacked,
           coalesce(a.spam, 0) as spam, coalesce(a.mobile, 0) as mobile, coalesce(a.email, 0) as email,
           coalesce(a.ewallet, 0) as ewallet, coalesce(a.crypto, 0) as crypto, coalesce(a.website, 0) as website,
           coalesce(a.verified, 0) as verified, coalesce(a.pending, 0) as pending
    from generate_series(v_first::timestamp, v_last::timestamp, ('1 ' || unit)::interval) p
    left join a on a.period = p::date
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'period', s.period, 'total', s.total,
           'by_incident_type', jsonb_build_object('scam', s.scam, 'hacked', s.hacked, 'spam', s.spam),
           'by_account_type', jsonb_build_object('mobile', s.mobile, 'email', s.email, 'ewallet', s.ewallet,
                                                 'crypto', s.crypto, 'website', s.website),
           'by_status', jsonb_build_object('verified', s.verified, 'pending', s.pending))
           order by s.period), '[]'::jsonb)
  into v_out
  from s;
  return v_out;
end
$$;
revoke execute on function private.stats_series(text, date, date) from public, anon, authenticated;
revoke execute on function private.stats_series(text, date, date) from public, anon, authenticated;
revoke execute on function private.stats_series(text, date, date) from public, anon, authenticated;
comment on function private.stats_series(text, date, date) is 'Reports per week or month between two days from the rollups: [{period, total, by_incident_type, by_account_type, by_status}], empty periods as 0.';

/**
 * The public statistics for a period ('last_30_days', 'last_12_months' or 'all_time'), read from the
 * rollups only: totals by status, weekly and monthly series by incident type, account type and status
 * (every period that overlaps the range, empty ones as 0), amounts lost per month (total, median),
 * reports per region, and the most-reported identifiers of the last 30 days (verified reports, masked).
 * A region count under 5 and a median from fewer than 5 amounts are null with fewer_than_5 = true.
 */
create function public.public_statistics(period text default 'last_12_months')
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
    -- The first month with reports: its shards summed (one shard may hold a report's removal and
    -- another its filing).
    v_from := coalesce((select min(m.month) from (
                          select month from private.stats_monthly group by month having sum(report_count) > 0
                        ) m),
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
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
revoke execute on function public.public_statistics(text) from public;
grant execute on function public.public_statistics(text) to anon, authenticated, service_role;
comment on function public.public_statistics(text) is
  'Public statistics from rollups for last_30_days, last_12_months or all_time: {period, from, to, totals, weekly, monthly, amounts, regions, top_identifiers}; aggregates only, small counts suppressed.';

/**
 * Searches one of the listed most-reported identifiers by its handle, so that the statistics page can
 * link to the search of a masked phone number or e-mail without sending it in full. The answer is
 * search_reports' (anonymous callers get its limited columns, which do not include the identifier).
 */
create function public.search_top_identifier(ref uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_canonical text;
begin
  select t.identifier_canonical into v_canonical from private.stats_top_identifiers t where t.ref = search_top_identifier.ref;
  if v_canonical is null then
    raise exception 'this list entry has expired; the list is refreshed every hour' using errcode = 'P0002';
  end if;
  return public.search_reports(v_canonical);
end
$$;
revoke execute on function public.search_top_identifier(uuid) from public;
grant execute on function public.search_top_identifier(uuid) to anon, authenticated, service_role;
comment on function public.search_top_identifier(uuid) is 'Runs search_reports on a most-reported identifier given by its ref from public_statistics (the identifier itself is not returned to anon).';

create index stats_region_daily_region_code_idx on private.stats_region_daily (region_code);

create index stats_region_monthly_region_code_idx on private.stats_region_monthly (region_code);

/**
 * Folds the shards of the public statistics rollups into shard 0 (same sums, fewer rows for readers).
 * Safe beside concurrent reports: a report that adds to a shard row being folded waits for the fold and
 * then adds to a new row of its shard. Returns how many shard rows were folded.
 */
create function private.fold_public_statistics_shards()
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
    delete from private.stats_weekly where shard <> 0
    returning week, incident_type, reported_account_type, status, report_count
  ), folded as (
    insert into private.stats_weekly as s (week, incident_type, reported_account_type, status, shard, report_count)
    select week, incident_type, reported_account_type, status, 0, sum(report_count) from moved group by 1, 2, 3, 4
    on conflict (week, incident_type, reported_account_type, status, shard) do update
      set report_count = s.report_count + excluded.report_count
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
revoke execute on function private.fold_public_statistics_shards() from public, anon, authenticated;
comment on function private.fold_public_statistics_shards() is 'Folds the shards of the public statistics rollups into shard 0 (same sums); run by refresh_public_statistics and rebuild_rollups.';
