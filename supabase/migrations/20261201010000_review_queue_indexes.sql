-- Issue 31: the review workspace's queue under 10 ms at 1M reports (`npm run bench:db`).
--
-- Measured before this change on a quiet 1M bench (a sixth of the reports pending): oldest first
-- 14.8 ms, identifier search 316 ms, the evidence and type filter 200 ms, the region filter 314 ms.
-- The search and the filters walked every pending report: no index served them. And every call planned
-- the whole statement (plan_cache_mode force_custom_plan, so that "filter is null or ..." would not get
-- a generic plan), a few milliseconds of the unfiltered queue.
--
-- 1. Indexes on the pending reports only (the queue reads nothing else; a decided report leaves them):
--    trigram for the identifier search (any part of the canonical or the typed identifier), trigram and
--    equality for the region (any part of the place, or the country), and (filter, created_at, id)
--    for the type, account type and evidence filters, so the oldest matches come off an index in order.
-- 2. public.admin_review_queue picks its candidates (the oldest 1000 pending reports that pass the
--    filters) with a statement holding only the filters in use, planned for its values each call
--    (dynamic SQL, as admin_search_log); the statement that builds the answer from them no longer
--    depends on the filters and keeps its plan between calls. The reporters' histories are read in one
--    query, not one private.reporter_history call each.
-- Same arguments, same answer (supabase/tests/db/moderation.test.ts checks every filter).

create extension if not exists pg_trgm with schema extensions;

create index reports_pending_account_trgm_idx on public.reports
  using gin (reported_account_canonical extensions.gin_trgm_ops, lower(reported_account) extensions.gin_trgm_ops)
  where status = 'pending';
create index reports_pending_place_trgm_idx on public.reports
  using gin (lower(coalesce(location, '')) extensions.gin_trgm_ops)
  where status = 'pending';
create index reports_pending_country_created_at_idx on public.reports (lower(coalesce(country, '')), created_at, id)
  where status = 'pending';
-- The planner reads no statistics from a partial index's expressions: these give it the share of the
-- reports a region matches, so a region most reports name walks the pending reports oldest first
-- instead of fetching all of them through the trigram index to sort them.
create statistics public.reports_region_stats
  on (lower(coalesce(location, ''))), (lower(coalesce(country, ''))) from public.reports;
analyze public.reports;
create index reports_pending_type_created_at_idx on public.reports (incident_type, created_at, id)
  where status = 'pending';
create index reports_pending_account_type_created_at_idx on public.reports (reported_account_type, created_at, id)
  where status = 'pending';
create index reports_pending_evidence_created_at_idx on public.reports (created_at, id)
  where status = 'pending' and evidence_path is not null;
create index reports_pending_no_evidence_created_at_idx on public.reports (created_at, id)
  where status = 'pending' and evidence_path is null;

create or replace function public.admin_review_queue(
  search text default null,
  incident_type public.incident_type default null,
  account_type public.reported_account_type default null,
  min_age_days integer default null,
  has_evidence boolean default null,
  region text default null,
  sort text default 'oldest',
  max_groups integer default 25)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_result jsonb;
  v_search text := nullif(lower(btrim(search)), '');
  v_region text := nullif(lower(btrim(region)), '');
  v_ids uuid[];
  v_identifiers text[];
  v_created timestamptz[];
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the review queue' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if sort not in ('oldest', 'most_reported') then
    raise exception 'sort is oldest or most_reported' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "sort", "choices": "oldest, most_reported"}';
  end if;
  max_groups := least(greatest(coalesce(max_groups, 25), 1), 100);

  -- The oldest 1000 pending reports that pass the filters. Only the filters in use are in the
  -- statement, so each combination is planned for its own index (see the indexes above).
  execute
    'select coalesce(array_agg(c.id order by c.created_at, c.id), ''{}''),
            coalesce(array_agg(c.reported_account_canonical order by c.created_at, c.id), ''{}''),
            coalesce(array_agg(c.created_at order by c.created_at, c.id), ''{}'')
     from (select r.id, r.reported_account_canonical, r.created_at
           from public.reports r
           where r.status = ''pending'''
    || case when v_search is null then ''
            else ' and (r.reported_account_canonical like $1 or lower(r.reported_account) like $1)' end
    || case when admin_review_queue.incident_type is null then '' else ' and r.incident_type = $2' end
    || case when account_type is null then '' else ' and r.reported_account_type = $3' end
    || case when min_age_days is null then '' else ' and r.created_at <= $4' end
    || case when has_evidence is null then ''
            when has_evidence then ' and r.evidence_path is not null'
            else ' and r.evidence_path is null' end
    || case when v_region is null then ''
            else ' and (lower(coalesce(r.location, '''')) like $5 or lower(coalesce(r.country, '''')) = $6)' end
    || '   order by r.created_at, r.id
           limit 1000) c'
    into v_ids, v_identifiers, v_created
    using '%' || v_search || '%', admin_review_queue.incident_type, account_type,
          now() - make_interval(days => min_age_days), '%' || v_region || '%', v_region;

  with candidates as (
    select c.id, c.reported_account_canonical, c.created_at
    from unnest(v_ids, v_identifiers, v_created) as c(id, reported_account_canonical, created_at)
  ), groups as (
    select c.reported_account_canonical as identifier, min(c.created_at) as oldest, count(*) as pending_in_view,
           coalesce((select irc.report_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as report_count,
           coalesce((select irc.verified_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as verified_count
    from candidates c
    group by c.reported_account_canonical
    order by case when sort = 'most_reported' then -count(*) end, min(c.created_at)
    limit max_groups
  ), shown as materialized (
    -- The reports the page shows: the candidates of its groups.
    select r.id, r.reporter_id, r.reported_account_canonical, r.created_at, r.incident_date, r.incident_type,
           r.reported_account_type, r.reported_account, r.incident_description, r.amount_lost, r.location,
           r.country, r.evidence_path, r.source
    from candidates c
    join public.reports r on r.id = c.id
    where c.reported_account_canonical in (select g.identifier from groups g)
  ), signals as materialized (
    -- Issue 27's signals for all of them at once (report_signals takes up to 200 reports a call).
    select sg.report_id, sg.young_account, sg.shared_network_reporters
    from (select array_agg(n.id) as ids
          from (select s.id, (row_number() over (order by s.id) - 1) / 200 as chunk from shown s) n
          group by n.chunk) b
    cross join lateral public.report_signals(b.ids) sg
  ), reporters as materialized (
    -- Each reporter's history once, however many of their reports the page shows: what
    -- private.reporter_history answers, for all of them in one query.
    select d.reporter_id,
           jsonb_build_object(
             'id', d.reporter_id,
             'account_created_at', u.created_at,
             'banned', u.banned_until > now(),
             'filed', coalesce(c.filed, 0),
             'verified', coalesce(c.verified, 0),
             'rejected', coalesce(c.rejected, 0),
             'removed', coalesce(c.removed, 0),
             'pending', coalesce(c.pending, 0)) as history
    from (select distinct s.reporter_id from shown s where s.reporter_id is not null) d
    left join auth.users u on u.id = d.reporter_id
    left join lateral (
      select sum(c.n) as filed,
             sum(c.n) filter (where c.status = 'verified') as verified,
             sum(c.n) filter (where c.status = 'rejected') as rejected,
             sum(c.n) filter (where c.status = 'removed') as removed,
             sum(c.n) filter (where c.status = 'pending') as pending
      from private.reporter_report_counts c where c.user_id = d.reporter_id) c on true
  )
  select jsonb_build_object(
    'backlog', cardinality(v_ids),
    'groups', coalesce(jsonb_agg(jsonb_build_object(
      'identifier', g.identifier,
      'oldest', g.oldest,
      'report_count', g.report_count,
      'verified_count', g.verified_count,
      'reports', (
        select jsonb_agg(jsonb_build_object(
          'id', s.id, 'created_at', s.created_at, 'incident_date', s.incident_date,
          'incident_type', s.incident_type, 'reported_account_type', s.reported_account_type,
          'reported_account', s.reported_account, 'incident_description', s.incident_description,
          'amount_lost', s.amount_lost, 'location', s.location, 'country', s.country,
          'evidence_path', s.evidence_path, 'source', s.source,
          'reporter', rp.history,
          'signal', case when sg.report_id is not null then
                      jsonb_build_object('young_account', sg.young_account,
                                         'shared_network_reporters', sg.shared_network_reporters) end)
          order by s.created_at)
        from shown s
        left join reporters rp on rp.reporter_id = s.reporter_id
        left join signals sg on sg.report_id = s.id
        where s.reported_account_canonical = g.identifier),
      'verified', (
        select coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'created_at', v.created_at,
                                                      'incident_type', v.incident_type,
                                                      'incident_description', left(v.incident_description, 300))
                                  order by v.created_at desc), '[]'::jsonb)
        from (select r.id, r.created_at, r.incident_type, r.incident_description
              from public.reports r
              where r.reported_account_canonical = g.identifier and r.status = 'verified'
              order by r.created_at desc limit 5) v)
    ) order by case when sort = 'most_reported' then -g.pending_in_view end, g.oldest), '[]'::jsonb)
  ) into v_result
  from groups g;
  return v_result;
end
$function$;
