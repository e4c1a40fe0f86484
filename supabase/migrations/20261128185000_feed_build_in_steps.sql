-- Issue 34: the feeds' hourly build in steps that each fit hosted Edge Functions' 2 s of CPU per
-- request (docs/feeds.md, "How it is built").
--
-- Before, one request of the open-data job read every verified identifier, classified all of them,
-- sent the whole list back to feed_sync, read it again and built every file in Deno: about 6 s of
-- Deno CPU an hour at 100,000 identifiers, 25 s for a first build. Now:
--   * the aggregation of verified reports is taken once per build into private.feed_candidate_rows
--     (public.feed_build_begin), in Postgres;
--   * only identifiers never classified (or classified under other rules) go to Deno, in batches
--     (public.feed_classify_next / feed_classify_store), and the result is kept in
--     private.feed_classes, so an hourly run classifies only what is new;
--   * the sync is done in Postgres from the snapshot and the classes (public.feed_sync_classified,
--     which hands public.feed_sync its list without a round trip through Deno);
--   * each item's CSV line, JSON row, MISP attribute and STIX indicator are rendered by Deno (the
--     formats stay in _shared/feeds/formats.ts) only when its version changes, in batches
--     (public.feed_render_next / feed_render_store), and kept in private.feed_renders;
--   * Postgres assembles each file from those fragments (string_agg) with its SHA-256
--     (public.feed_file_body), so the function only passes the bytes on to Storage;
--   * private.feed_build remembers which step a build is at, so a request that has used its CPU
--     budget stops and the next request (queued by the job through pg_net) goes on from there.

-- ---------------------------------------------------------------------------------------------
-- State of the build
-- ---------------------------------------------------------------------------------------------
create table private.feed_build (
  id integer primary key default 1 check (id = 1),
  step text not null default 'idle' check (step in ('idle', 'classify', 'sync', 'render', 'publish')),
  started_at timestamptz,
  updated_at timestamptz not null default now(),
  synced_at timestamptz,
  requests integer not null default 0
);
comment on table private.feed_build is
  'The feeds build''s progress (one row): the step it is at (idle, classify, sync, render, publish), when it started, when it synced (its new items carry that version time) and how many requests it took. The open-data job moves it on.';
alter table private.feed_build enable row level security;
insert into private.feed_build (id) values (1);

create unlogged table private.feed_candidate_rows (
  kind text not null,
  canonical text not null,
  written text not null,
  first_reported timestamptz not null,
  last_reported timestamptz not null,
  reports integer not null,
  reporters integer not null,
  scam_type text not null,
  primary key (kind, canonical)
);
comment on table private.feed_candidate_rows is
  'The verified identifiers of the build under way (public.feed_candidates, taken once at its start by public.feed_build_begin). Unlogged: rebuilt by every build.';
alter table private.feed_candidate_rows enable row level security;

create table private.feed_classes (
  kind text not null,
  canonical text not null,
  listed boolean not null,
  tlp text check (tlp in ('clear', 'amber')),
  indicator_type text check (indicator_type ~ '^[a-z][a-z0-9-]{0,19}$'),
  value text check (char_length(value) between 1 and 2100),
  brand text,
  rules_key text not null,
  classified_at timestamptz not null default now(),
  primary key (kind, canonical),
  check (not listed or (tlp is not null and indicator_type is not null and value is not null))
);
comment on table private.feed_classes is
  'How the open-data job classified each verified identifier (_shared/feeds/classify.ts): listed or left out, its TLP, indicator type, value and the brand it imitates (worked out once). rules_key names the classifier''s rules (shared hosts, hosting roots); an identifier classified under other rules is classified again, its brand kept.';
alter table private.feed_classes enable row level security;

create table private.feed_renders (
  item_id bigint primary key references private.feed_items (id) on delete cascade,
  version_at timestamptz not null,
  format_key text not null,
  csv text not null,
  json text not null,
  misp text not null,
  stix text not null
);
comment on table private.feed_renders is
  'Each feed item''s CSV line, JSON row, MISP attribute and STIX indicator as _shared/feeds/formats.ts renders them, for the version (version_at) and format (format_key: FEED_FORMAT and the site address) they were rendered for. public.feed_file_body assembles the files from them.';
alter table private.feed_renders enable row level security;
-- public.feed_file_body reads a day's or a month's listed items of a TLP.
create index feed_items_listed_day_idx on private.feed_items (tlp, event_day, id) where withdrawn_at is null;

-- ---------------------------------------------------------------------------------------------
-- Steps
-- ---------------------------------------------------------------------------------------------
/**
 * Where the build is: {step, started_at, synced_at, requests, updated_at}. Counts the request
 * (requests + 1) when count is true. Service role only.
 */
create function public.feed_build_state(count boolean default false)
returns jsonb
language sql
volatile
security definer
set search_path = ''
as $$
  update private.feed_build b
  set requests = b.requests + case when feed_build_state.count and b.step <> 'idle' then 1 else 0 end
  where b.id = 1
  returning jsonb_build_object('step', b.step, 'started_at', b.started_at, 'synced_at', b.synced_at,
                               'requests', b.requests, 'updated_at', b.updated_at)
$$;
revoke execute on function public.feed_build_state(boolean) from public, anon, authenticated;
grant execute on function public.feed_build_state(boolean) to service_role;

/** Moves the build to a step (and records the sync time when given). Service role only. */
create function public.feed_build_step(step text, synced_at timestamptz default null)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update private.feed_build b
  set step = feed_build_step.step, updated_at = now(),
      synced_at = coalesce(feed_build_step.synced_at, b.synced_at)
  where b.id = 1
$$;
revoke execute on function public.feed_build_step(text, timestamptz) from public, anon, authenticated;
grant execute on function public.feed_build_step(text, timestamptz) to service_role;

/**
 * Starts a build: takes the verified identifiers (public.feed_candidates) into
 * private.feed_candidate_rows and moves to the classify step. Answers the number of candidates.
 * Service role only.
 */
create function public.feed_build_begin()
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  truncate private.feed_candidate_rows;
  insert into private.feed_candidate_rows
  select c.kind, c.canonical, c.written, c.first_reported, c.last_reported, c.reports, c.reporters, c.scam_type
  from public.feed_candidates() c;
  get diagnostics v_count = row_count;
  analyze private.feed_candidate_rows;
  update private.feed_build
  set step = 'classify', started_at = now(), updated_at = now(), synced_at = null, requests = 1
  where id = 1;
  return v_count;
end
$$;
revoke execute on function public.feed_build_begin() from public, anon, authenticated;
grant execute on function public.feed_build_begin() to service_role;

/**
 * The next identifiers of the build to classify (never classified, or classified under rules other
 * than rules_key), at most max_items, with the brand already worked out for them (brand_known).
 * Service role only.
 */
create function public.feed_classify_next(rules_key text, max_items integer default 500)
returns table (kind text, canonical text, brand_known boolean, brand text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.kind, c.canonical, k.kind is not null, k.brand
  from private.feed_candidate_rows c
  left join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where k.kind is null or k.rules_key is distinct from feed_classify_next.rules_key
  order by c.kind, c.canonical
  limit least(greatest(coalesce(feed_classify_next.max_items, 500), 1), 5000)
$$;
revoke execute on function public.feed_classify_next(text, integer) from public, anon, authenticated;
grant execute on function public.feed_classify_next(text, integer) to service_role;

/**
 * Stores classifications (classes: [{kind, canonical, listed, tlp, indicator_type, value, brand}])
 * made under rules_key. Answers how many were stored. Service role only.
 */
create function public.feed_classify_store(classes jsonb, rules_key text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  if jsonb_typeof(feed_classify_store.classes) is distinct from 'array' then
    raise exception 'classes must be a JSON array' using errcode = '22023';
  end if;
  if coalesce(feed_classify_store.rules_key, '') = '' then
    raise exception 'rules_key is required' using errcode = '22023';
  end if;
  insert into private.feed_classes (kind, canonical, listed, tlp, indicator_type, value, brand, rules_key, classified_at)
  select x.kind, x.canonical, x.listed, x.tlp, x.indicator_type, x.value, x.brand, feed_classify_store.rules_key, now()
  from jsonb_to_recordset(feed_classify_store.classes)
    as x(kind text, canonical text, listed boolean, tlp text, indicator_type text, value text, brand text)
  on conflict (kind, canonical) do update
    set listed = excluded.listed, tlp = excluded.tlp, indicator_type = excluded.indicator_type,
        value = excluded.value, brand = excluded.brand, rules_key = excluded.rules_key,
        classified_at = excluded.classified_at;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
revoke execute on function public.feed_classify_store(jsonb, text) from public, anon, authenticated;
grant execute on function public.feed_classify_store(jsonb, text) to service_role;

/**
 * The sync of the build: every listed identifier of private.feed_candidate_rows with its class, handed
 * to public.feed_sync (which versions, adds and withdraws). Answers feed_sync's answer with synced_at
 * (the version time of what it added) and left_out (identifiers classified as not listed), and moves
 * the build to the render step. Service role only.
 */
create function public.feed_sync_classified()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_items jsonb;
  v_sync jsonb;
  v_left_out integer;
  v_listed jsonb;
begin
  if exists (select 1 from private.feed_candidate_rows c
             where not exists (select 1 from private.feed_classes k where k.kind = c.kind and k.canonical = c.canonical)) then
    raise exception 'some identifiers of the build are not classified yet' using errcode = '55000';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object(
           'kind', c.kind, 'canonical', c.canonical, 'tlp', k.tlp, 'indicator_type', k.indicator_type,
           'value', k.value, 'written', c.written, 'first_reported', c.first_reported,
           'last_reported', c.last_reported, 'reports', c.reports, 'reporters', c.reporters,
           'scam_type', c.scam_type, 'brand', k.brand)), '[]'::jsonb)
  into v_items
  from private.feed_candidate_rows c
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where k.listed;
  select count(*) filter (where not k.listed)::int,
         jsonb_build_object('clear', count(*) filter (where k.listed and k.tlp = 'clear'),
                            'amber', count(*) filter (where k.listed and k.tlp = 'amber'))
  into v_left_out, v_listed
  from private.feed_candidate_rows c
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical;
  v_sync := public.feed_sync(v_items);
  update private.feed_build
  set step = 'render', updated_at = now(), synced_at = date_trunc('milliseconds', now())
  where id = 1;
  return v_sync || jsonb_build_object('synced_at', date_trunc('milliseconds', now()), 'left_out', v_left_out,
                                      'listed', v_listed,
                                      'candidates', (select count(*) from private.feed_candidate_rows));
end
$$;
revoke execute on function public.feed_sync_classified() from public, anon, authenticated;
grant execute on function public.feed_sync_classified() to service_role;

/**
 * The next feed items to render for format_key (no fragment yet, or one of an older version or
 * format), withdrawn ones included (TAXII serves them revoked), at most max_items, in id order.
 * Timestamps as ISO strings with milliseconds, as the formats write them. Service role only.
 */
create function public.feed_render_next(format_key text, max_items integer default 1000)
returns table (
  id bigint, kind text, canonical text, tlp text, indicator_type text, value text, written text,
  first_reported text, last_reported text, reports integer, reporters integer, scam_type text,
  brand text, stix_id text, event_day text, added_at text, version_at text, withdrawn_at text
)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, f.kind, f.canonical, f.tlp, f.indicator_type, f.value, f.written,
         to_char(f.first_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         to_char(f.last_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         f.reports, f.reporters, f.scam_type, f.brand, f.stix_id::text, f.event_day::text,
         to_char(f.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         to_char(f.version_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         to_char(f.withdrawn_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  from private.feed_items f
  left join private.feed_renders r on r.item_id = f.id
  where r.item_id is null or r.version_at <> f.version_at or r.format_key <> feed_render_next.format_key
  order by f.id
  limit least(greatest(coalesce(feed_render_next.max_items, 1000), 1), 10000)
$$;
revoke execute on function public.feed_render_next(text, integer) from public, anon, authenticated;
grant execute on function public.feed_render_next(text, integer) to service_role;

/**
 * Stores rendered fragments (renders: [{id, version_at, csv, json, misp, stix}]) for format_key. A
 * fragment of a version that is no longer the item's is not stored. Answers how many were stored.
 * Service role only.
 */
create function public.feed_render_store(renders jsonb, format_key text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  if jsonb_typeof(feed_render_store.renders) is distinct from 'array' then
    raise exception 'renders must be a JSON array' using errcode = '22023';
  end if;
  insert into private.feed_renders (item_id, version_at, format_key, csv, json, misp, stix)
  select x.id, x.version_at, feed_render_store.format_key, x.csv, x.json, x.misp, x.stix
  from jsonb_to_recordset(feed_render_store.renders)
    as x(id bigint, version_at timestamptz, csv text, json text, misp text, stix text)
  join private.feed_items f on f.id = x.id and f.version_at = x.version_at
  on conflict (item_id) do update
    set version_at = excluded.version_at, format_key = excluded.format_key, csv = excluded.csv,
        json = excluded.json, misp = excluded.misp, stix = excluded.stix;
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
revoke execute on function public.feed_render_store(jsonb, text) from public, anon, authenticated;
grant execute on function public.feed_render_store(jsonb, text) to service_role;

/**
 * What the feed files are made of, per TLP and group ('all', 'day' per event day, 'month' per month
 * of the event day): the listed (not withdrawn) items' number, how many the plain list carries, the
 * newest version (ISO, milliseconds) and the sum of their ids modulo 2^48 (formats.ts sourceKey).
 * Service role only.
 */
create function public.feed_file_groups()
returns table (tlp text, grp text, period text, items integer, list_items integer, newest text, id_sum bigint)
language sql
stable
security definer
set search_path = ''
as $$
  with listed as (
    select f.id, f.tlp, f.indicator_type, f.version_at, f.event_day::text as day,
           to_char(f.event_day, 'YYYY-MM') as month,
           (f.tlp <> 'clear' or f.indicator_type in ('url', 'domain', 'ip')) as in_list
    from private.feed_items f
    where f.withdrawn_at is null),
  grouped as (
    select l.tlp, 'all'::text as grp, ''::text as period, l.id, l.in_list, l.version_at from listed l
    union all
    select l.tlp, 'day', l.day, l.id, l.in_list, l.version_at from listed l
    union all
    select l.tlp, 'month', l.month, l.id, l.in_list, l.version_at from listed l)
  select t.tlp, coalesce(g.grp, 'all'), coalesce(g.period, ''), count(g.id)::int,
         (count(g.id) filter (where g.in_list))::int,
         coalesce(to_char(max(g.version_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ''),
         (coalesce(sum(g.id), 0) % 281474976710656)::bigint
  from (values ('clear'), ('amber')) t(tlp)
  left join grouped g on g.tlp = t.tlp
  group by t.tlp, g.grp, g.period
  order by 1, 2, 3
$$;
revoke execute on function public.feed_file_groups() from public, anon, authenticated;
grant execute on function public.feed_file_groups() to service_role;

/**
 * One feed file assembled from the items' rendered fragments (private.feed_renders, which must be of
 * format_key): prefix, the fragments of part ('csv', 'json', 'list', 'misp' or 'stix') of the listed
 * items of the TLP and group (grp 'all', 'day' with period YYYY-MM-DD, 'month' with period YYYY-MM)
 * in id order joined by separator, then suffix. The plain list of the public feed carries links only.
 * Answers the body, its SHA-256 (hex) and its size in bytes, and the number of fragments. Fails when a
 * fragment is missing. Service role only.
 */
create function public.feed_file_body(
  tlp text, part text, grp text, period text, format_key text, prefix text, separator text, suffix text)
returns table (body text, sha256 text, bytes integer, items integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_body text;
  v_items integer;
  v_missing integer;
begin
  if feed_file_body.part not in ('csv', 'json', 'list', 'misp', 'stix') then
    raise exception 'part is csv, json, list, misp or stix' using errcode = '22023';
  end if;
  if feed_file_body.grp not in ('all', 'day', 'month') then
    raise exception 'grp is all, day or month' using errcode = '22023';
  end if;
  select count(*) filter (where r.item_id is null or r.version_at <> f.version_at or r.format_key <> feed_file_body.format_key)::int,
         count(*)::int,
         string_agg(case feed_file_body.part when 'csv' then r.csv when 'json' then r.json when 'list' then f.value
                                             when 'misp' then r.misp else r.stix end,
                    feed_file_body.separator order by f.id)
  into v_missing, v_items, v_body
  from private.feed_items f
  left join private.feed_renders r on r.item_id = f.id
  where f.tlp = feed_file_body.tlp
    and f.withdrawn_at is null
    and (feed_file_body.part <> 'list' or feed_file_body.tlp <> 'clear' or f.indicator_type in ('url', 'domain', 'ip'))
    and (feed_file_body.grp = 'all'
         or (feed_file_body.grp = 'day' and f.event_day = feed_file_body.period::date)
         or (feed_file_body.grp = 'month' and f.event_day >= (feed_file_body.period || '-01')::date
             and f.event_day < (feed_file_body.period || '-01')::date + interval '1 month'));
  if v_missing > 0 and feed_file_body.part <> 'list' then
    raise exception '% items of this file are not rendered for this format', v_missing using errcode = '55000';
  end if;
  v_body := feed_file_body.prefix || coalesce(v_body, '') || feed_file_body.suffix;
  return query select v_body, encode(pg_catalog.sha256(convert_to(v_body, 'UTF8')), 'hex'),
                      octet_length(v_body), v_items;
end
$$;
revoke execute on function public.feed_file_body(text, text, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.feed_file_body(text, text, text, text, text, text, text, text) to service_role;

comment on function public.feed_build_state(boolean) is 'Service role only (the open-data job): the feeds build''s step.';
comment on function public.feed_build_step(text, timestamptz) is 'Service role only (the open-data job): moves the feeds build to a step.';
comment on function public.feed_build_begin() is 'Service role only (the open-data job): starts a feeds build, taking the verified identifiers.';
comment on function public.feed_classify_next(text, integer) is 'Service role only (the open-data job): the next identifiers to classify.';
comment on function public.feed_classify_store(jsonb, text) is 'Service role only (the open-data job): stores classifications.';
comment on function public.feed_sync_classified() is 'Service role only (the open-data job): syncs the feed items from the build''s identifiers and classes.';
comment on function public.feed_render_next(text, integer) is 'Service role only (the open-data job): the next feed items to render.';
comment on function public.feed_render_store(jsonb, text) is 'Service role only (the open-data job): stores rendered fragments.';
comment on function public.feed_file_groups() is 'Service role only (the open-data job): what each feed file is made of.';
comment on function public.feed_file_body(text, text, text, text, text, text, text, text) is 'Service role only (the open-data job): a feed file assembled from its items'' fragments, with its SHA-256.';

/**
 * The newly listed links of a sync (ids: its new_links) still listed and last reported since `since`,
 * at most max_items, oldest first: the takedown report drafts. Service role only.
 */
create function public.feed_new_links(ids bigint[], since timestamptz, max_items integer default 500)
returns table (
  id bigint, kind text, canonical text, tlp text, indicator_type text, value text, written text,
  first_reported text, last_reported text, reports integer, reporters integer, scam_type text,
  brand text, stix_id text, event_day text, added_at text, version_at text
)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, f.kind, f.canonical, f.tlp, f.indicator_type, f.value, f.written,
         to_char(f.first_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         to_char(f.last_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         f.reports, f.reporters, f.scam_type, f.brand, f.stix_id::text, f.event_day::text,
         to_char(f.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         to_char(f.version_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  from private.feed_items f
  where f.id = any (feed_new_links.ids)
    and f.withdrawn_at is null
    and f.tlp = 'clear' and f.indicator_type in ('url', 'domain', 'ip')
    and f.last_reported >= feed_new_links.since
  order by f.id
  limit least(greatest(coalesce(feed_new_links.max_items, 500), 0), 5000)
$$;
comment on function public.feed_new_links(bigint[], timestamptz, integer) is
  'Service role only (the open-data job): the newly listed links that get a takedown report draft.';
revoke execute on function public.feed_new_links(bigint[], timestamptz, integer) from public, anon, authenticated;
grant execute on function public.feed_new_links(bigint[], timestamptz, integer) to service_role;

/**
 * Queues the next request of an unfinished feeds build: the open-data job with {"feeds_continue": true},
 * through pg_net as the scheduled jobs call it (private.call_edge_function). Answers pg_net's request
 * id. Service role only.
 */
create function public.feed_build_continue()
returns bigint
language sql
volatile
security definer
set search_path = ''
as $$
  select private.call_edge_function('open-data', '{"feeds_continue": true}'::jsonb)
$$;
comment on function public.feed_build_continue() is
  'Service role only (the open-data job): queues the next request of an unfinished feeds build.';
revoke execute on function public.feed_build_continue() from public, anon, authenticated;
grant execute on function public.feed_build_continue() to service_role;
