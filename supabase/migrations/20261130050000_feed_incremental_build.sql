-- Issue 34, speed: the feeds build no longer aggregates every verified report at its start, nor
-- hands public.feed_sync the whole list of identifiers (docs/feeds.md, "How it is built").
--
-- Before, every build ran public.feed_candidates() over all reports (1M in the benchmark) into
-- private.feed_candidate_rows, and public.feed_sync_classified turned all of it into one jsonb for
-- public.feed_sync, which compared every identifier. Now:
--   * triggers on public.reports queue the identifiers whose verified reports changed (a report
--     verified, un-verified, deleted, or a verified one edited) in private.feed_dirty;
--   * public.feed_build_start takes that queue, aggregates only those identifiers again in
--     private.feed_candidate_rows (now kept between builds) and lists them in private.feed_changes,
--     what this build syncs. Once a day (and on the first build, and when the classifier's rules
--     changed) it still aggregates everything, which also catches reports written with triggers off
--     (bulk imports under session_replication_role = replica); then every identifier is a change;
--   * public.feed_classify_changes and public.feed_render_after read the next batch from a cursor
--     (the last key of the batch before) instead of scanning from the start every batch;
--   * public.feed_sync_changes syncs only the changes, in Postgres, with public.feed_sync's rules.
-- The old entry points (feed_build_begin, feed_classify_next, feed_sync_classified,
-- feed_render_next) stay, unchanged, for a job of the previous revision.

-- Kept between builds now: it must survive a crash (an unlogged table comes back empty).
alter table private.feed_candidate_rows set logged;
comment on table private.feed_candidate_rows is
  'The verified identifiers, aggregated (public.feed_candidates'' columns), kept between feeds builds: public.feed_build_start aggregates again only the identifiers queued in private.feed_dirty, and everything once a day.';

alter table private.feed_build add column full_at timestamptz, add column rules_key text;
comment on column private.feed_build.full_at is
  'When a build last aggregated every verified report (public.feed_build_start does so when this is over a day old).';
comment on column private.feed_build.rules_key is
  'The classifier''s rules the last build started under (public.feed_build_start): under others, every identifier is classified and synced again.';

create table private.feed_dirty (
  kind text not null,
  canonical text not null,
  primary key (kind, canonical)
);
comment on table private.feed_dirty is
  'Identifiers whose verified reports changed since the feeds build last took this queue (triggers on public.reports fill it; public.feed_build_start empties it).';
alter table private.feed_dirty enable row level security;

create table private.feed_changes (
  kind text not null,
  canonical text not null,
  primary key (kind, canonical)
);
comment on table private.feed_changes is
  'The identifiers the feeds build under way classifies and syncs (public.feed_build_start fills it: the queued ones, or every one on a full build).';
alter table private.feed_changes enable row level security;

/** Queues the identifier of a report whose verified state changed (trigger on public.reports). */
create function private.feed_mark_dirty()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.status = 'verified' and old.reported_account_canonical is not null then
    insert into private.feed_dirty (kind, canonical)
    values (old.reported_account_type::text, old.reported_account_canonical)
    on conflict do nothing;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status = 'verified' and new.reported_account_canonical is not null then
    insert into private.feed_dirty (kind, canonical)
    values (new.reported_account_type::text, new.reported_account_canonical)
    on conflict do nothing;
  end if;
  return null;
end
$$;
comment on function private.feed_mark_dirty() is
  'Trigger on public.reports: queues the identifier of a verified report written, edited or deleted, or of a report verified or no longer verified, for the next feeds build.';
revoke execute on function private.feed_mark_dirty() from public, anon, authenticated;

create trigger reports_feed_dirty_insert after insert on public.reports
  for each row when (new.status = 'verified') execute function private.feed_mark_dirty();
create trigger reports_feed_dirty_delete after delete on public.reports
  for each row when (old.status = 'verified') execute function private.feed_mark_dirty();
-- The columns public.feed_candidates reads.
create trigger reports_feed_dirty_update after update on public.reports
  for each row when ((old.status = 'verified' or new.status = 'verified')
                     and (old.status, old.reported_account_type, old.reported_account_canonical, old.reported_account,
                          old.created_at, old.incident_type, old.reporter_id)
                         is distinct from
                         (new.status, new.reported_account_type, new.reported_account_canonical, new.reported_account,
                          new.created_at, new.incident_type, new.reporter_id))
  execute function private.feed_mark_dirty();

/**
 * Starts a build. Aggregates again the identifiers queued in private.feed_dirty (taking the queue),
 * or, when the last full aggregation is over a day old (or never was) or the last build started
 * under rules other than rules_key, every verified report (public.feed_candidates). Lists
 * what the build syncs in private.feed_changes (full: every identifier and every listed item) and
 * moves to the classify step. Answers {full, candidates, changes}. Service role only.
 */
create function public.feed_build_start(rules_key text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_full boolean;
  v_changes integer;
begin
  if coalesce(feed_build_start.rules_key, '') = '' then
    raise exception 'rules_key is required' using errcode = '22023';
  end if;
  select b.full_at is null or b.full_at < now() - interval '1 day'
         or b.rules_key is distinct from feed_build_start.rules_key
  into v_full
  from private.feed_build b where b.id = 1;
  truncate private.feed_changes;
  -- The queue is taken before the reports are read (each statement reads what was committed when it
  -- started): an identifier queued meanwhile stays queued for the next build.
  if v_full then
    delete from private.feed_dirty;
    truncate private.feed_candidate_rows;
    insert into private.feed_candidate_rows
    select c.kind, c.canonical, c.written, c.first_reported, c.last_reported, c.reports, c.reporters, c.scam_type
    from public.feed_candidates() c;
    insert into private.feed_changes (kind, canonical)
    select c.kind, c.canonical from private.feed_candidate_rows c;
    insert into private.feed_changes (kind, canonical)
    select f.kind, f.canonical from private.feed_items f where f.withdrawn_at is null
    on conflict do nothing;
  else
    with taken as (delete from private.feed_dirty returning kind, canonical)
    insert into private.feed_changes (kind, canonical)
    select t.kind, t.canonical from taken t
    on conflict do nothing;
    delete from private.feed_candidate_rows c
    using private.feed_changes ch
    where c.kind = ch.kind and c.canonical = ch.canonical;
    -- public.feed_candidates' aggregation, for the changed identifiers only.
    insert into private.feed_candidate_rows
    select r.reported_account_type::text, r.reported_account_canonical,
           (array_agg(r.reported_account order by r.created_at, r.id))[1],
           min(r.created_at), max(r.created_at), count(*)::int, count(distinct r.reporter_id)::int,
           (mode() within group (order by r.incident_type))::text
    from private.feed_changes ch
    join public.reports r
      on r.reported_account_canonical = ch.canonical and r.reported_account_type::text = ch.kind
    where r.status = 'verified'
    group by r.reported_account_type, r.reported_account_canonical;
  end if;
  select count(*)::int into v_changes from private.feed_changes;
  analyze private.feed_changes;
  if v_full then
    analyze private.feed_candidate_rows;
  end if;
  update private.feed_build
  set step = 'classify', started_at = now(), updated_at = now(), synced_at = null, requests = 1,
      full_at = case when v_full then now() else full_at end, rules_key = feed_build_start.rules_key
  where id = 1;
  return jsonb_build_object('full', v_full, 'changes', v_changes,
                            'candidates', (select count(*) from private.feed_candidate_rows));
end
$$;
comment on function public.feed_build_start(text) is
  'Service role only (the open-data job): starts a feeds build from the queue of changed identifiers (or every one, once a day).';
revoke execute on function public.feed_build_start(text) from public, anon, authenticated;
grant execute on function public.feed_build_start(text) to service_role;

/**
 * The next identifiers of the build's changes to classify (never classified, or classified under
 * rules other than rules_key), at most max_items, after the cursor (after_kind, after_canonical: the
 * last of the batch before; empty strings for the first), in key order, with the brand already worked
 * out for them (brand_known). Service role only.
 */
create function public.feed_classify_changes(
  rules_key text, max_items integer default 500, after_kind text default '', after_canonical text default '')
returns table (kind text, canonical text, brand_known boolean, brand text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.kind, c.canonical, k.kind is not null, k.brand
  from private.feed_changes ch
  join private.feed_candidate_rows c on c.kind = ch.kind and c.canonical = ch.canonical
  left join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where (ch.kind, ch.canonical) > (coalesce(feed_classify_changes.after_kind, ''), coalesce(feed_classify_changes.after_canonical, ''))
    and (k.kind is null or k.rules_key is distinct from feed_classify_changes.rules_key)
  order by ch.kind, ch.canonical
  limit least(greatest(coalesce(feed_classify_changes.max_items, 500), 1), 5000)
$$;
comment on function public.feed_classify_changes(text, integer, text, text) is
  'Service role only (the open-data job): the next changed identifiers to classify, after a cursor.';
revoke execute on function public.feed_classify_changes(text, integer, text, text) from public, anon, authenticated;
grant execute on function public.feed_classify_changes(text, integer, text, text) to service_role;

/**
 * The sync of the build's changes (private.feed_changes), with public.feed_sync's rules: a changed
 * identifier that is listed (a verified candidate classified as listed) is added, or updated (a new
 * version) when it differs or was withdrawn; a changed identifier no longer listed is withdrawn.
 * Answers {added, updated, withdrawn, new_links, synced_at, left_out, listed, candidates} as
 * public.feed_sync_classified does, and moves the build to the render step. Service role only.
 */
create function public.feed_sync_changes()
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_added integer;
  v_updated integer;
  v_withdrawn integer;
  v_new bigint[];
  v_candidates integer;
  v_listed jsonb;
  v_clear integer;
  v_amber integer;
  -- Milliseconds, as STIX timestamps and TAXII's added_after carry them: a client's cursor is exact.
  v_now timestamptz := date_trunc('milliseconds', now());
begin
  -- One sync at a time (the lock public.feed_sync takes).
  perform pg_advisory_xact_lock(hashtextextended('feed_sync', 0));
  if exists (select 1 from private.feed_changes ch
             join private.feed_candidate_rows c on c.kind = ch.kind and c.canonical = ch.canonical
             where not exists (select 1 from private.feed_classes k where k.kind = c.kind and k.canonical = c.canonical)) then
    raise exception 'some identifiers of the build are not classified yet' using errcode = '55000';
  end if;
  drop table if exists pg_temp.feed_incoming_changes;
  create temporary table feed_incoming_changes on commit drop as
  select c.kind, c.canonical, k.tlp, k.indicator_type, k.value, c.written, c.first_reported, c.last_reported,
         c.reports, c.reporters, c.scam_type, k.brand
  from private.feed_changes ch
  join private.feed_candidate_rows c on c.kind = ch.kind and c.canonical = ch.canonical
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where k.listed;
  analyze feed_incoming_changes;

  with changed as (
    update private.feed_items f
    set tlp = i.tlp, indicator_type = i.indicator_type, value = i.value, written = i.written,
        first_reported = i.first_reported, last_reported = i.last_reported, reports = i.reports,
        reporters = i.reporters, scam_type = i.scam_type, brand = i.brand,
        version_at = v_now, withdrawn_at = null
    from feed_incoming_changes i
    where i.kind = f.kind and i.canonical = f.canonical
      and (f.withdrawn_at is not null
           or (f.tlp, f.indicator_type, f.value, f.written, f.first_reported, f.last_reported, f.reports,
               f.reporters, f.scam_type, f.brand)
              is distinct from
              (i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported, i.reports,
               i.reporters, i.scam_type, i.brand))
    returning 1)
  select count(*) into v_updated from changed;

  with gone as (
    update private.feed_items f
    set withdrawn_at = v_now, version_at = v_now
    from private.feed_changes ch
    where ch.kind = f.kind and ch.canonical = f.canonical
      and f.withdrawn_at is null
      and not exists (select 1 from feed_incoming_changes i where i.kind = f.kind and i.canonical = f.canonical)
    returning 1)
  select count(*) into v_withdrawn from gone;

  with added as (
    insert into private.feed_items (kind, canonical, tlp, indicator_type, value, written, first_reported,
                                    last_reported, reports, reporters, scam_type, brand, event_day, added_at, version_at)
    select i.kind, i.canonical, i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported,
           i.reports, i.reporters, i.scam_type, i.brand, (i.first_reported at time zone 'UTC')::date, v_now, v_now
    from feed_incoming_changes i
    where not exists (select 1 from private.feed_items f where f.kind = i.kind and f.canonical = i.canonical)
    returning id, tlp, indicator_type)
  select count(*)::int,
         coalesce(array_agg(a.id order by a.id) filter (where a.tlp = 'clear' and a.indicator_type in ('url', 'domain')), '{}')
  into v_added, v_new
  from added a;

  -- After the sync the listed items are the listed candidates, so the counts come from the items.
  select count(*) filter (where f.tlp = 'clear')::int, count(*) filter (where f.tlp = 'amber')::int
  into v_clear, v_amber
  from private.feed_items f where f.withdrawn_at is null;
  select count(*)::int into v_candidates from private.feed_candidate_rows;
  v_listed := jsonb_build_object('clear', v_clear, 'amber', v_amber);
  update private.feed_build
  set step = 'render', updated_at = now(), synced_at = v_now
  where id = 1;
  return jsonb_build_object('added', v_added, 'updated', v_updated, 'withdrawn', v_withdrawn,
                            'new_links', to_jsonb(v_new), 'synced_at', v_now,
                            'left_out', v_candidates - v_clear - v_amber, 'listed', v_listed,
                            'candidates', v_candidates);
end
$$;
comment on function public.feed_sync_changes() is
  'Service role only (the open-data job): syncs the feed items of the build''s changed identifiers.';
revoke execute on function public.feed_sync_changes() from public, anon, authenticated;
grant execute on function public.feed_sync_changes() to service_role;

/**
 * public.feed_render_next after a cursor: the next feed items to render for format_key with an id
 * over after_id (the last of the batch before; 0 for the first), in id order. Service role only.
 */
create function public.feed_render_after(format_key text, max_items integer default 1000, after_id bigint default 0)
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
  where f.id > coalesce(feed_render_after.after_id, 0)
    and (r.item_id is null or r.version_at <> f.version_at or r.format_key <> feed_render_after.format_key)
  order by f.id
  limit least(greatest(coalesce(feed_render_after.max_items, 1000), 1), 10000)
$$;
comment on function public.feed_render_after(text, integer, bigint) is
  'Service role only (the open-data job): the next feed items to render, after a cursor.';
revoke execute on function public.feed_render_after(text, integer, bigint) from public, anon, authenticated;
grant execute on function public.feed_render_after(text, integer, bigint) to service_role;
