-- Issue 31: search and filters on the admins' search-history and visitors lists, in the database.
--
-- public.admin_search_log(...) and public.admin_visitor_log(...) (admins only, 42501 otherwise) return
-- one page of the log, newest first, by keyset (the last row's created_at and id), so a page costs the
-- same at 1M rows as at 1k and no page counts the whole table. The filters are served by indexes:
-- trigram indexes for the text searches (part of the searched text, of the page's path, of the city or
-- region), and (column, created_at) indexes for the equality filters, so the newest matches come off an
-- index in order.

create extension if not exists pg_trgm with schema extensions;

-- search_log: the text searched for (any part), the identifier it stands for (its canonical form), its
-- kind, the country, searches that found nothing, and a period.
create index if not exists search_log_search_string_trgm_idx on public.search_log
  using gin (search_string extensions.gin_trgm_ops);
create index if not exists search_log_canonical_created_at_idx on public.search_log (identifier_canonical, created_at desc)
  where identifier_canonical is not null;
create index if not exists search_log_kind_created_at_idx on public.search_log (identifier_kind, created_at desc)
  where identifier_kind is not null;
create index if not exists search_log_country_created_at_idx on public.search_log (country, created_at desc)
  where country is not null;
create index if not exists search_log_no_results_created_at_idx on public.search_log (created_at desc)
  where result_count = 0;

-- visitor_log: the page's path (any part), the place (city or region, any part), the country, a period.
create index if not exists visitor_log_path_trgm_idx on public.visitor_log
  using gin (path extensions.gin_trgm_ops);
create index if not exists visitor_log_place_trgm_idx on public.visitor_log
  using gin ((coalesce(city, '') || ' ' || coalesce(region, '')) extensions.gin_trgm_ops);
create index if not exists visitor_log_country_created_at_idx on public.visitor_log (country, created_at desc)
  where country is not null;

/** LIKE pattern matching `value` anywhere, its wildcards taken as plain characters. */
create function private.contains_pattern(value text)
 returns text
 language sql
 immutable
 parallel safe
 set search_path to ''
as $function$
  select '%' || replace(replace(replace(btrim(value), '\', '\\'), '%', '\%'), '_', '\_') || '%'
$function$;
revoke execute on function private.contains_pattern(text) from public, anon, authenticated;
comment on function private.contains_pattern(text) is
  'LIKE pattern matching the trimmed value anywhere; the value''s own % and _ are plain characters.';

/**
 * Admins' search history, newest first, max_rows a page (keyset: pass the last row's created_at and
 * id). search: part of the text searched for (case-insensitive) or the identifier it stands for (typed
 * any way: 0917 555 0100 finds +639175550100); kind: the detected identifier kind; country_code: the
 * two-letter code; no_results: only searches that found nothing; since/until: created_at in [since,
 * until).
 */
create function public.admin_search_log(
  search text default null,
  kind text default null,
  country_code text default null,
  no_results boolean default null,
  since timestamptz default null,
  until timestamptz default null,
  before_created_at timestamptz default null,
  before_id uuid default null,
  max_rows integer default 50
)
 returns table (
  id uuid,
  search_string text,
  identifier_kind text,
  result_count integer,
  city text,
  region text,
  country text,
  signed_in boolean,
  created_at timestamptz
 )
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_search text := nullif(btrim(coalesce(search, '')), '');
  v_pattern text;
  v_canonical text;
  v_kind text := nullif(btrim(coalesce(kind, '')), '');
  v_country text := upper(nullif(btrim(coalesce(country_code, '')), ''));
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the search history' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_search) > 256 then
    raise exception 'search is at most 256 characters' using errcode = '22023';
  end if;
  if char_length(v_kind) > 32 or char_length(v_country) > 64 then
    raise exception 'kind or country is too long' using errcode = '22023';
  end if;
  if since is not null and until is not null and until <= since then
    raise exception 'until must be after since' using errcode = '22023';
  end if;
  if (before_created_at is null) <> (before_id is null) then
    raise exception 'before_created_at and before_id go together' using errcode = '22023';
  end if;
  if v_search is not null then
    v_pattern := private.contains_pattern(v_search);
    v_canonical := public.canonical_identifier_auto(v_search);
  end if;
  -- Only the filters in use are in the statement (dynamic SQL, planned for its values each call), so
  -- every combination gets the plan of its own indexes, never a generic plan for "x is null or ...".
  return query execute
    'select l.id, l.search_string, l.identifier_kind, l.result_count, l.city, l.region, l.country,
            l.user_id is not null, l.created_at
     from public.search_log l where true'
    || case when v_search is null then ''
            when v_canonical is null then ' and l.search_string ilike $1'
            else ' and (l.search_string ilike $1 or l.identifier_canonical = $2)' end
    || case when v_kind is null then '' else ' and l.identifier_kind = $3' end
    || case when v_country is null then '' else ' and l.country = $4' end
    || case when no_results is null then ''
            when no_results then ' and l.result_count = 0' else ' and l.result_count <> 0' end
    || case when since is null then '' else ' and l.created_at >= $5' end
    || case when until is null then '' else ' and l.created_at < $6' end
    || case when before_created_at is null then ''
            else ' and l.created_at <= $7 and (l.created_at < $7 or l.id < $8)' end
    || ' order by l.created_at desc, l.id desc limit $9'
    using v_pattern, v_canonical, v_kind, v_country, since, until, before_created_at, before_id,
          least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;
alter function public.admin_search_log(text, text, text, boolean, timestamptz, timestamptz, timestamptz, uuid, integer) owner to postgres;
revoke execute on function public.admin_search_log(text, text, text, boolean, timestamptz, timestamptz, timestamptz, uuid, integer) from public, anon;
grant execute on function public.admin_search_log(text, text, text, boolean, timestamptz, timestamptz, timestamptz, uuid, integer) to authenticated, service_role;
comment on function public.admin_search_log(text, text, text, boolean, timestamptz, timestamptz, timestamptz, uuid, integer) is
  'Admins: the search history newest first by keyset; search by part of the text or by the identifier it stands for, filter by kind, country, no results and period.';

/**
 * Admins' visitors, newest first, max_rows a page (keyset as above). search: part of the page's path;
 * place: part of the city or region; country_code: the two-letter code; since/until: created_at in
 * [since, until).
 */
create function public.admin_visitor_log(
  search text default null,
  place text default null,
  country_code text default null,
  since timestamptz default null,
  until timestamptz default null,
  before_created_at timestamptz default null,
  before_id uuid default null,
  max_rows integer default 50
)
 returns table (
  id uuid,
  path text,
  city text,
  region text,
  country text,
  signed_in boolean,
  created_at timestamptz
 )
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_search text := nullif(btrim(coalesce(search, '')), '');
  v_place text := nullif(btrim(coalesce(place, '')), '');
  v_country text := upper(nullif(btrim(coalesce(country_code, '')), ''));
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the visitors' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_search) > 300 or char_length(v_place) > 200 or char_length(v_country) > 64 then
    raise exception 'search, place or country is too long' using errcode = '22023';
  end if;
  if since is not null and until is not null and until <= since then
    raise exception 'until must be after since' using errcode = '22023';
  end if;
  if (before_created_at is null) <> (before_id is null) then
    raise exception 'before_created_at and before_id go together' using errcode = '22023';
  end if;
  return query execute
    'select v.id, v.path, v.city, v.region, v.country, v.user_id is not null, v.created_at
     from public.visitor_log v where true'
    || case when v_search is null then '' else ' and v.path ilike $1' end
    || case when v_place is null then ''
            else ' and (coalesce(v.city, '''') || '' '' || coalesce(v.region, '''')) ilike $2' end
    || case when v_country is null then '' else ' and v.country = $3' end
    || case when since is null then '' else ' and v.created_at >= $4' end
    || case when until is null then '' else ' and v.created_at < $5' end
    || case when before_created_at is null then ''
            else ' and v.created_at <= $6 and (v.created_at < $6 or v.id < $7)' end
    || ' order by v.created_at desc, v.id desc limit $8'
    using private.contains_pattern(v_search), private.contains_pattern(v_place), v_country, since, until,
          before_created_at, before_id, least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;
alter function public.admin_visitor_log(text, text, text, timestamptz, timestamptz, timestamptz, uuid, integer) owner to postgres;
revoke execute on function public.admin_visitor_log(text, text, text, timestamptz, timestamptz, timestamptz, uuid, integer) from public, anon;
grant execute on function public.admin_visitor_log(text, text, text, timestamptz, timestamptz, timestamptz, uuid, integer) to authenticated, service_role;
comment on function public.admin_visitor_log(text, text, text, timestamptz, timestamptz, timestamptz, uuid, integer) is
  'Admins: the visitors newest first by keyset; search by part of the path, filter by place (city or region), country and period.';
