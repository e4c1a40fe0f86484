-- Issue 31: the search history's search by identifier under 10 ms at 1M searches for any number.
-- Same arguments, same answers.
--
-- The trigram index cannot single out a number whose trigrams are all common: the bench's numbers
-- are zero-padded (`09000000028`: `090`, `900`, `000`, `002`, `028`), so every part of such a number
-- has trigrams that thousands of searches share, and the index handed back 1,800-5,400 rows to check
-- (28-58 ms at load 5, 162 ms at load 12-14). A row whose text holds the searched text also holds, in its
-- digits alone, the searched text's digits alone, and so every 6-digit run of them: a text with 6
-- digits or more is now looked up in a GIN index of each search's 6-digit runs, which pins a number
-- down by its digits together, and the whole text is checked on the rows found. Of the text's runs
-- the index is asked for the rare ones only (private.search_log_rare_grams: those that ANALYZE did not
-- find in 1 % of the searches or more, by the index's own statistics in pg_stats, which autovacuum keeps
-- current): a run that most searches share (a network's prefix, the bench's zeros) has a posting list
-- as long as a large part of the log, and reading it cost more than all the rest. Texts with fewer
-- digits keep the trigram path.

/**
 * Every run of 6 consecutive digits in the text's digits alone (other characters dropped), as integers
 * (the length is fixed, so leading zeros lose nothing): '0917 555 0199' gives 91755, 917555, 175550,
 * 755501, 555019, 550199. Empty for fewer than 6 digits.
 */
create function private.search_digit_grams(value text)
 returns integer[]
 language plpgsql
 immutable
 strict
 parallel safe
 set search_path to ''
as $function$
declare
  v_digits text := pg_catalog.regexp_replace(value, '[^0-9]+', '', 'g');
  v_grams integer[] := '{}';
begin
  for i in 1 .. pg_catalog.char_length(v_digits) - 5 loop
    v_grams := v_grams || pg_catalog.substr(v_digits, i, 6)::integer;
  end loop;
  return v_grams;
end
$function$;
revoke execute on function private.search_digit_grams(text) from public, anon, authenticated;
-- An index expression runs as the role that writes the row: the service role may insert into the log.
grant execute on function private.search_digit_grams(text) to service_role;
comment on function private.search_digit_grams(text) is
  'Every run of 6 consecutive digits of the text''s digits alone, as integers: the search history''s index for texts with 6 digits or more.';

create index if not exists search_log_digit_grams_idx on public.search_log
  using gin (private.search_digit_grams(search_string));
-- The planner's estimate for `@>` on the new index's expression comes from these statistics.
analyze public.search_log;

/**
 * The runs of `grams` that the search history's digit index is asked for: those that fewer than 1 % of
 * the searches hold (the index expression's most common elements and their shares, from the last
 * ANALYZE; a run not among them is rarer than all of them), or all of them when every one is that
 * common (then all together are the most selective). Any subset keeps every row that holds them all.
 */
create function private.search_log_rare_grams(grams integer[])
 returns integer[]
 language plpgsql
 stable
 parallel safe
 set search_path to ''
as $function$
declare
  v_common integer[];
  v_shares real[];
  v_rare integer[] := '{}';
  v_run integer;
begin
  if grams is null then
    return null;
  end if;
  -- plpgsql keeps this statement's plan for the session (the pg_stats view is costly to plan).
  select s.most_common_elems::text::integer[], s.most_common_elem_freqs into v_common, v_shares
  from pg_catalog.pg_stats s
  where s.schemaname = 'public' and s.tablename = 'search_log_digit_grams_idx';
  foreach v_run in array grams loop
    if coalesce(v_shares[pg_catalog.array_position(v_common, v_run)], 0) < 0.01 then
      v_rare := v_rare || v_run;
    end if;
  end loop;
  return coalesce(nullif(v_rare, '{}'), grams);
end
$function$;
revoke execute on function private.search_log_rare_grams(integer[]) from public, anon, authenticated;
comment on function private.search_log_rare_grams(integer[]) is
  'The 6-digit runs of a search-history search that under 1 % of the searches hold (by pg_stats of search_log_digit_grams_idx), or all of them when none is that rare.';

-- Numbers now take the digit index, so only the e-mail case is left to the trigram index's part.
create or replace function private.search_log_index_part(value text)
 returns text
 language sql
 immutable
 parallel safe
 set search_path to ''
as $function$
  select case
    when position('@' in value) > 3 then split_part(value, '@', 1)
    else value
  end
$function$;
comment on function private.search_log_index_part(text) is
  'The rarer part of a search-history search (with fewer than 6 digits) for the trigram index: an e-mail''s part before the @, otherwise the whole text.';

create or replace function public.admin_search_log(
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
  v_index_pattern text;
  v_canonical text;
  v_grams integer[];
  v_kind text := nullif(btrim(coalesce(kind, '')), '');
  v_country text := upper(nullif(btrim(coalesce(country_code, '')), ''));
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the search history' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_search) > 256 then
    raise exception 'search is at most 256 characters' using errcode = '22023', hint = '{"code": "search_too_long", "max": 256}';
  end if;
  if char_length(v_kind) > 32 or char_length(v_country) > 64 then
    raise exception 'kind or country is too long' using errcode = '22023', hint = '{"code": "filter_too_long"}';
  end if;
  if since is not null and until is not null and until <= since then
    raise exception 'until must be after since' using errcode = '22023', hint = '{"code": "range_reversed"}';
  end if;
  if (before_created_at is null) <> (before_id is null) then
    raise exception 'before_created_at and before_id go together' using errcode = '22023', hint = '{"code": "cursor_incomplete"}';
  end if;
  if v_search is not null then
    v_pattern := private.contains_pattern(v_search);
    v_canonical := public.canonical_identifier_auto(v_search);
    v_index_pattern := private.contains_pattern(private.search_log_index_part(v_search));
    v_grams := private.search_log_rare_grams(nullif(private.search_digit_grams(v_search), '{}'));
  end if;
  -- Only the filters in use are in the statement (dynamic SQL, planned for its values each call), so
  -- every combination gets the plan of its own indexes, never a generic plan for "x is null or ...".
  return query execute
    'select l.id, l.search_string, l.identifier_kind, l.result_count, l.city, l.region, l.country,
            l.user_id is not null, l.created_at
     from public.search_log l where true'
    || case when v_search is null then ''
            -- 6 digits or more: the rows holding the text's rare 6-digit runs ($11, the digit index),
            -- then the whole text is checked on them (coalesce: not an expression an index serves).
            when v_grams is not null and v_canonical is null then
              ' and private.search_digit_grams(l.search_string) @> $11 and coalesce(l.search_string, '''') ilike $1'
            when v_grams is not null then
              ' and ((private.search_digit_grams(l.search_string) @> $11 and coalesce(l.search_string, '''') ilike $1)
                     or l.identifier_canonical = $2)'
            when v_index_pattern = v_pattern and v_canonical is null then ' and l.search_string ilike $1'
            when v_index_pattern = v_pattern then ' and (l.search_string ilike $1 or l.identifier_canonical = $2)'
            -- The trigram index looks for the rarer part ($10); the whole text is checked on the rows
            -- it finds (coalesce: an expression the index does not serve, so it is not looked up).
            when v_canonical is null then ' and l.search_string ilike $10 and coalesce(l.search_string, '''') ilike $1'
            else ' and ((l.search_string ilike $10 and coalesce(l.search_string, '''') ilike $1)
                        or l.identifier_canonical = $2)' end
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
          least(greatest(coalesce(max_rows, 50), 1), 200), v_index_pattern, v_grams;
end
$function$;
