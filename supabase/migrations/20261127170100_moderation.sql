-- Moderation that can be checked (issue 31): decisions with reasons, undo, an append-only audit log,
-- the admins' review queue, removal-request decisions and the published moderation figures.
--
-- The log is written by a trigger on every status change of a report, whatever path made it
-- (public.moderate_reports, the older public.set_report_status, a scheduled job), so it cannot miss a
-- decision. Nobody changes or deletes a log row through the API; an undo is a new row naming the one
-- it takes back.

-- ====================================================================================================
-- Reasons

create function public.moderation_reasons()
 returns text[]
 language sql
 immutable
 set search_path to ''
as $function$
  select array['no_evidence', 'not_a_scam', 'duplicate', 'wrong_identifier', 'personal_data', 'abusive',
               'owner_request', 'other']
$function$;
alter function public.moderation_reasons() owner to postgres;
comment on function public.moderation_reasons() is 'The short list of reasons a reject, hide or remove decision must give (shown to the reporter and the requester in their language).';
grant execute on function public.moderation_reasons() to anon, authenticated, service_role;

alter table public.reports add column status_reason text;
alter table public.reports add column status_note text;
alter table public.reports add constraint reports_status_reason_check
  check (status_reason is null or status_reason = any (public.moderation_reasons()));
alter table public.reports add constraint reports_status_note_check check (char_length(status_note) <= 1000);
comment on column public.reports.status_reason is 'Why an admin rejected or removed the report (one of public.moderation_reasons()); the reporter sees it on the card and in the e-mail.';
comment on column public.reports.status_note is 'Optional words an admin added to the reason; shown to the reporter as plain text.';
-- No insert/update grant to authenticated: only public.moderate_reports sets them.

-- A status change that does not set the reason itself (older paths) clears a stale one.
create function private.reports_status_reason()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  -- public.moderate_reports, undo_moderation and decide_removal_request set scamcheck.decision.
  if coalesce(current_setting('scamcheck.decision', true), '') <> '1' then
    new.status_reason := null;
    new.status_note := null;
  end if;
  if new.status in ('pending', 'verified') then
    new.status_reason := null;
    new.status_note := null;
  end if;
  return new;
end
$function$;
alter function private.reports_status_reason() owner to postgres;
comment on function private.reports_status_reason() is 'Trigger: a status change without its own reason clears the old one; pending and verified reports carry none.';

create trigger reports_status_reason before update of status on public.reports
  for each row when (old.status is distinct from new.status)
  execute function private.reports_status_reason();

create or replace view public.report_cards with (security_invoker=true) as
 SELECT r.id,
    r.reporter_id,
    r.incident_date,
    r.incident_type,
    r.reported_account_type,
    r.reported_account,
    r.reported_account_canonical,
    r.consent_to_contact,
    r.evidence_path,
    r.incident_description,
    r.location,
    r.report_date,
    r.loc,
    r.country,
    r.status,
    r.source,
    r.amount_lost,
    r.created_at,
    r.updated_at,
    COALESCE(c.report_count, 0::bigint) AS reported_case_count,
    r.status_reason,
    r.status_note
   FROM public.reports r
     LEFT JOIN public.identifier_report_counts c ON c.identifier_canonical = r.reported_account_canonical;

-- ====================================================================================================
-- The audit log

create table public.moderation_log (
  id bigint generated always as identity primary key,
  report_id uuid not null,
  identifier text not null,
  actor_id uuid,
  from_status public.report_status not null,
  to_status public.report_status not null,
  reason text,
  note text,
  filed_at timestamptz not null,
  undo_of bigint references public.moderation_log (id),
  removal_request_id uuid,
  created_at timestamptz not null default now()
);
alter table public.moderation_log owner to postgres;
alter table public.moderation_log enable row level security;
comment on table public.moderation_log is 'Append-only audit log of every moderation decision: who (actor_id, null for a scheduled job), when, what (from_status -> to_status), why (reason, note); an undo is a new row with undo_of. No role may update or delete rows through the API; a trigger refuses it for everyone.';
comment on column public.moderation_log.report_id is 'The report decided on; kept (no foreign key) after the report is deleted, so the log stays whole.';
comment on column public.moderation_log.filed_at is 'When the report was filed: the time to decision is created_at - filed_at.';

create index moderation_log_report_id_idx on public.moderation_log (report_id, id desc);
create index moderation_log_created_at_idx on public.moderation_log (created_at desc);
create unique index moderation_log_undo_of_idx on public.moderation_log (undo_of) where undo_of is not null;

create policy "Admins can read the moderation log" on public.moderation_log for select to authenticated
  using ((select private.is_admin()));

revoke all on table public.moderation_log from anon, authenticated, service_role;
grant select on table public.moderation_log to authenticated, service_role;

create function private.moderation_log_append_only()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  raise exception 'the moderation log is append-only: rows cannot be changed or deleted'
    using errcode = '42501';
end
$function$;
alter function private.moderation_log_append_only() owner to postgres;
comment on function private.moderation_log_append_only() is 'Trigger: refuses every update and delete of public.moderation_log.';

create trigger moderation_log_append_only before update or delete on public.moderation_log
  for each row execute function private.moderation_log_append_only();
create trigger moderation_log_no_truncate before truncate on public.moderation_log
  for each statement execute function private.moderation_log_append_only();

-- Daily rollup of first decisions (pending -> verified/rejected/removed) for the published figures:
-- counts per outcome and the time to decision as a histogram of whole hours (capped at 8760).
create table private.moderation_daily (
  day date not null,
  to_status public.report_status not null,
  hours integer not null,
  decisions bigint not null default 0,
  primary key (day, to_status, hours)
);
alter table private.moderation_daily owner to postgres;
alter table private.moderation_daily enable row level security;
comment on table private.moderation_daily is 'First decisions per UTC day of decision, outcome and whole hours from filing to decision (capped at 8760); kept by the moderation log trigger, an undo subtracts its decision.';
revoke all on table private.moderation_daily from anon, authenticated, service_role;

create function private.moderation_rollup(p_day date, p_status public.report_status, p_hours integer, p_delta integer)
 returns void
 language sql
 set search_path to ''
as $function$
  insert into private.moderation_daily as m (day, to_status, hours, decisions)
  values (p_day, p_status, least(greatest(p_hours, 0), 8760), p_delta)
  on conflict (day, to_status, hours) do update set decisions = m.decisions + excluded.decisions
$function$;
alter function private.moderation_rollup(date, public.report_status, integer, integer) owner to postgres;
comment on function private.moderation_rollup(date, public.report_status, integer, integer) is 'Adds (or, for an undo, subtracts) one first decision to private.moderation_daily.';

create function private.reports_log_decision()
 returns trigger
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_undo_of bigint := nullif(current_setting('scamcheck.undo_of', true), '')::bigint;
  v_request uuid := nullif(current_setting('scamcheck.removal_request', true), '')::uuid;
  v_undone public.moderation_log;
begin
  insert into public.moderation_log
    (report_id, identifier, actor_id, from_status, to_status, reason, note, filed_at, undo_of, removal_request_id)
  values (new.id, new.reported_account_canonical, (select auth.uid()), old.status, new.status,
          new.status_reason, new.status_note, new.created_at, v_undo_of, v_request);
  if v_undo_of is not null then
    select * into v_undone from public.moderation_log where id = v_undo_of;
    if v_undone.from_status = 'pending' and v_undone.undo_of is null then
      perform private.moderation_rollup((v_undone.created_at at time zone 'utc')::date, v_undone.to_status,
        (extract(epoch from v_undone.created_at - v_undone.filed_at) / 3600)::integer, -1);
    end if;
  elsif old.status = 'pending' and new.status in ('verified', 'rejected', 'removed') then
    perform private.moderation_rollup((now() at time zone 'utc')::date, new.status,
      (extract(epoch from now() - new.created_at) / 3600)::integer, 1);
  end if;
  return null;
end
$function$;
alter function private.reports_log_decision() owner to postgres;
comment on function private.reports_log_decision() is 'Trigger: writes every status change of a report to public.moderation_log (with the reason, the acting user and any undo) and keeps private.moderation_daily.';

create trigger reports_log_decision after update of status on public.reports
  for each row when (old.status is distinct from new.status)
  execute function private.reports_log_decision();

-- ====================================================================================================
-- Decisions

create function public.moderate_reports(report_ids uuid[], status public.report_status, reason text default null,
                                        note text default null)
 returns setof public.moderation_log
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_id uuid;
  v_note text := nullif(btrim(note), '');
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can moderate reports' using errcode = '42501';
  end if;
  if report_ids is null or cardinality(report_ids) = 0 then
    raise exception 'choose at least one report' using errcode = '22023';
  end if;
  if cardinality(report_ids) > 200 then
    raise exception 'at most 200 reports at once' using errcode = '22023';
  end if;
  if moderate_reports.status not in ('verified', 'rejected', 'removed') then
    raise exception 'a decision is verified, rejected or removed (use undo to take one back)' using errcode = '22023';
  end if;
  if moderate_reports.status in ('rejected', 'removed') and reason is null then
    raise exception 'a % decision needs a reason', moderate_reports.status using errcode = '22023';
  end if;
  if reason is not null and not (reason = any (public.moderation_reasons())) then
    raise exception 'unknown reason %', reason using errcode = '22023';
  end if;
  if char_length(v_note) > 1000 then
    raise exception 'the note is at most 1000 characters' using errcode = '22023';
  end if;
  perform set_config('scamcheck.decision', '1', true);
  foreach v_id in array report_ids loop
    update public.reports r
    set status = moderate_reports.status,
        status_reason = case when moderate_reports.status = 'verified' then null else reason end,
        status_note = case when moderate_reports.status = 'verified' then null else v_note end
    where r.id = v_id and r.status is distinct from moderate_reports.status;
    if not found then
      if not exists (select 1 from public.reports r where r.id = v_id) then
        raise exception 'report % not found', v_id using errcode = 'P0002';
      end if;
      continue; -- already in that status: nothing to decide
    end if;
    perform private.after_decision(v_id);
    return query select * from public.moderation_log l where l.report_id = v_id order by l.id desc limit 1;
  end loop;
end
$function$;
alter function public.moderate_reports(uuid[], public.report_status, text, text) owner to postgres;
comment on function public.moderate_reports(uuid[], public.report_status, text, text) is 'Admins decide one or more reports (up to 200) at once: verified, or rejected/removed with a reason from public.moderation_reasons() and an optional note; the reporter is notified and every decision is logged. Returns the log rows.';
revoke execute on function public.moderate_reports(uuid[], public.report_status, text, text) from public, anon;
grant execute on function public.moderate_reports(uuid[], public.report_status, text, text) to authenticated, service_role;

-- What follows a decision, as public.set_report_status does it: the reporter's notice, open removal
-- requests of a removed report closed.
create function private.after_decision(p_report_id uuid)
 returns void
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_report public.reports;
begin
  select * into v_report from public.reports where id = p_report_id;
  if v_report.reporter_id is not null then
    insert into public.notifications (user_id, kind, report_id, identifier)
    values (v_report.reporter_id, 'report_status_changed', v_report.id, v_report.reported_account_canonical);
  end if;
  if v_report.status = 'removed' then
    update public.removal_requests rr set status = 'report_removed', resolved_at = now()
    where rr.report_id = v_report.id and rr.status = 'open';
  end if;
end
$function$;
alter function private.after_decision(uuid) owner to postgres;
comment on function private.after_decision(uuid) is 'After a decision: notifies the reporter and closes open removal requests of a removed report.';
revoke execute on function private.after_decision(uuid) from public;

create function public.undo_moderation(log_id bigint)
 returns public.moderation_log
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_log public.moderation_log;
  v_prev public.moderation_log;
  v_result public.moderation_log;
  v_rows integer;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can undo a decision' using errcode = '42501';
  end if;
  select * into v_log from public.moderation_log where id = log_id;
  if v_log.id is null then
    raise exception 'decision % not found', log_id using errcode = 'P0002';
  end if;
  if v_log.undo_of is not null then
    raise exception 'an undo cannot itself be undone; decide again instead' using errcode = '22023';
  end if;
  if exists (select 1 from public.moderation_log where undo_of = v_log.id) then
    raise exception 'this decision was already undone' using errcode = '22023';
  end if;
  if v_log.created_at < now() - interval '7 days' then
    raise exception 'a decision can be undone for 7 days; decide again instead' using errcode = '22023';
  end if;
  if exists (select 1 from public.moderation_log where report_id = v_log.report_id and id > v_log.id) then
    raise exception 'the report was decided again since; undo the later decision first' using errcode = '22023';
  end if;
  -- The reason of the status being restored, if it was rejected or removed before.
  select * into v_prev from public.moderation_log
  where report_id = v_log.report_id and id < v_log.id and to_status = v_log.from_status
  order by id desc limit 1;
  perform set_config('scamcheck.undo_of', v_log.id::text, true);
  perform set_config('scamcheck.decision', '1', true);
  update public.reports r
  set status = v_log.from_status,
      status_reason = case when v_log.from_status in ('rejected', 'removed') then v_prev.reason end,
      status_note = case when v_log.from_status in ('rejected', 'removed') then v_prev.note end
  where r.id = v_log.report_id;
  get diagnostics v_rows = row_count;
  perform set_config('scamcheck.undo_of', '', true);
  if v_rows = 0 then
    raise exception 'report % no longer exists', v_log.report_id using errcode = 'P0002';
  end if;
  perform private.after_decision(v_log.report_id);
  select * into v_result from public.moderation_log where undo_of = v_log.id;
  return v_result;
end
$function$;
alter function public.undo_moderation(bigint) owner to postgres;
comment on function public.undo_moderation(bigint) is 'Any admin takes back a decision of the last 7 days (the latest of its report): the report returns to its earlier status and reason, the reporter is told, and the undo is logged as a new row.';
revoke execute on function public.undo_moderation(bigint) from public, anon;
grant execute on function public.undo_moderation(bigint) to authenticated, service_role;

-- ====================================================================================================
-- The review queue

create index if not exists reports_pending_created_at_asc_idx on public.reports (created_at, id)
  where status = 'pending';

create function public.admin_review_queue(
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
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the review queue' using errcode = '42501';
  end if;
  if sort not in ('oldest', 'most_reported') then
    raise exception 'sort is oldest or most_reported' using errcode = '22023';
  end if;
  max_groups := least(greatest(coalesce(max_groups, 25), 1), 100);

  with candidates as (
    -- The oldest pending reports that pass the filters (bounded, through the pending index).
    select r.id, r.reported_account_canonical, r.created_at
    from public.reports r
    where r.status = 'pending'
      and (v_search is null or r.reported_account_canonical like '%' || v_search || '%'
           or lower(r.reported_account) like '%' || v_search || '%')
      and (admin_review_queue.incident_type is null or r.incident_type = admin_review_queue.incident_type)
      and (account_type is null or r.reported_account_type = account_type)
      and (min_age_days is null or r.created_at <= now() - make_interval(days => min_age_days))
      and (has_evidence is null or (r.evidence_path is not null) = has_evidence)
      and (v_region is null or lower(coalesce(r.location, '')) like '%' || v_region || '%'
           or lower(coalesce(r.country, '')) = v_region)
    order by r.created_at, r.id
    limit 1000
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
  )
  select jsonb_build_object(
    'backlog', (select count(*) from candidates),
    'groups', coalesce(jsonb_agg(jsonb_build_object(
      'identifier', g.identifier,
      'oldest', g.oldest,
      'report_count', g.report_count,
      'verified_count', g.verified_count,
      'reports', (
        select jsonb_agg(jsonb_build_object(
          'id', r.id, 'created_at', r.created_at, 'incident_date', r.incident_date,
          'incident_type', r.incident_type, 'reported_account_type', r.reported_account_type,
          'reported_account', r.reported_account, 'incident_description', r.incident_description,
          'amount_lost', r.amount_lost, 'location', r.location, 'country', r.country,
          'evidence_path', r.evidence_path, 'source', r.source,
          'reporter', private.reporter_history(r.reporter_id),
          'signal', (select jsonb_build_object('young_account', sg.young_account,
                                               'shared_network_reporters', sg.shared_network_reporters)
                     from public.report_signals(array[r.id]) sg)) order by r.created_at)
        from public.reports r
        where r.reported_account_canonical = g.identifier and r.status = 'pending'
          and r.id in (select c.id from candidates c where c.reported_account_canonical = g.identifier)),
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
alter function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) owner to postgres;
comment on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) is 'Admins: pending reports grouped by identifier (the oldest 1000 that pass the filters), each group with its latest verified reports and each report with its reporter''s history; sorted by oldest or most reported.';
revoke execute on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) from public, anon;
grant execute on function public.admin_review_queue(text, public.incident_type, public.reported_account_type, integer, boolean, text, text, integer) to authenticated, service_role;

-- A reporter's history for the review queue: reports filed, their outcomes and the account's age.
-- (Issue 27's young-account and shared-network signals come from public.report_signals, per report.)
create function private.reporter_history(p_user uuid)
 returns jsonb
 language sql
 stable
 security definer
 set search_path to ''
as $function$
  select case when p_user is null then null else jsonb_build_object(
    'id', p_user,
    'account_created_at', (select u.created_at from auth.users u where u.id = p_user),
    'banned', (select u.banned_until > now() from auth.users u where u.id = p_user),
    'filed', count(*),
    'verified', count(*) filter (where r.status = 'verified'),
    'rejected', count(*) filter (where r.status = 'rejected'),
    'removed', count(*) filter (where r.status = 'removed'),
    'pending', count(*) filter (where r.status = 'pending'))
  end
  from (select status from public.reports where reporter_id = p_user order by created_at desc limit 500) r
$function$;
alter function private.reporter_history(uuid) owner to postgres;
comment on function private.reporter_history(uuid) is 'Reports filed by a user (the latest 500) and their outcomes, with the account''s creation time: the reporter''s history in the review queue.';
revoke execute on function private.reporter_history(uuid) from public;

-- Admins read the decisions of the log with who made them (e-mail of the admin).
create function public.admin_moderation_log(before_id bigint default null, report uuid default null, max_rows integer default 50)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the moderation log' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(to_jsonb(x) order by x.id desc) from (
      select l.*, u.email as actor_email,
             (select k.id from public.moderation_log k where k.undo_of = l.id) as undone_by_log_id
      from public.moderation_log l
      left join auth.users u on u.id = l.actor_id
      where (before_id is null or l.id < before_id) and (report is null or l.report_id = report)
      order by l.id desc
      limit least(greatest(coalesce(max_rows, 50), 1), 200)) x), '[]'::jsonb);
end
$function$;
alter function public.admin_moderation_log(bigint, uuid, integer) owner to postgres;
comment on function public.admin_moderation_log(bigint, uuid, integer) is 'Admins: the moderation log newest first, with the acting admin''s e-mail and whether each decision was undone.';
revoke execute on function public.admin_moderation_log(bigint, uuid, integer) from public, anon;
grant execute on function public.admin_moderation_log(bigint, uuid, integer) to authenticated, service_role;

-- ====================================================================================================
-- Removal requests: the admins' decision, with a reason
--
-- Issue 27 (20261127100100_removal_hearing.sql) added the admins' queue (public.admin_removal_queue,
-- kept as it is) and public.decide_removal_request(request_id, 'remove' | 'keep'). This replaces the
-- latter with one that keeps its behaviour (remove takes the report down and settles its open requests;
-- keep dismisses the request and puts a report hidden by the 1-week rule back to pending; decided_at and
-- decided_by are set) and adds: a third decision, hide (the report is rejected: out of public search,
-- kept for its reporter); a reason from public.moderation_reasons() (required) and an optional note,
-- which the requester and the reporter both see; the reporter's notice; the log row naming the request.

alter table public.removal_requests add column decision text;
alter table public.removal_requests add column decision_reason text;
alter table public.removal_requests add column decision_note text;
alter table public.removal_requests add constraint removal_requests_decision_check
  check (decision is null or decision in ('keep', 'hide', 'remove'));
alter table public.removal_requests add constraint removal_requests_decision_reason_check
  check (decision_reason is null or decision_reason = any (public.moderation_reasons()));
alter table public.removal_requests add constraint removal_requests_decision_note_check
  check (char_length(decision_note) <= 1000);
comment on column public.removal_requests.decision is 'The admins'' decision: keep (the report stays), hide (the report is rejected: out of public search, kept for its reporter), remove (the report is removed). The requester and the reporter both see it with its reason.';
comment on column public.removal_requests.decision_reason is 'Why (one of public.moderation_reasons()); shown to the requester and the reporter in their language.';
comment on column public.removal_requests.decision_note is 'Optional words an admin added to the reason; shown as plain text.';

drop function public.decide_removal_request(uuid, text);

create function public.decide_removal_request(request_id uuid, decision text, reason text default null,
                                              note text default null)
 returns public.removal_requests
 language plpgsql
 volatile
 security definer
 set search_path to ''
as $function$
declare
  v_request public.removal_requests;
  v_note text := nullif(btrim(note), '');
  v_status public.report_status;
  v_report public.reports;
  v_hidden_by_rule bigint;
  v_rows integer;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can decide removal requests' using errcode = '42501';
  end if;
  if decision is null or decision not in ('keep', 'hide', 'remove') then
    raise exception 'a decision is keep, hide or remove' using errcode = '22023';
  end if;
  if decide_removal_request.reason is null
     or not (decide_removal_request.reason = any (public.moderation_reasons())) then
    raise exception 'a decision on a removal request needs a reason from the list' using errcode = '22023';
  end if;
  if char_length(v_note) > 1000 then
    raise exception 'the note is at most 1000 characters' using errcode = '22023';
  end if;
  select * into v_request from public.removal_requests rr where rr.id = decide_removal_request.request_id for update;
  if v_request.id is null then
    raise exception 'no such removal request' using errcode = 'P0002';
  end if;
  if v_request.decided_at is not null then
    raise exception 'this removal request was already decided' using errcode = '22023';
  end if;
  select * into v_report from public.reports r where r.id = v_request.report_id for update;

  perform set_config('scamcheck.removal_request', v_request.id::text, true);
  perform set_config('scamcheck.decision', '1', true);
  if decision in ('hide', 'remove') then
    v_status := case decision when 'hide' then 'rejected' else 'removed' end::public.report_status;
    update public.reports r
    set status = v_status, status_reason = decide_removal_request.reason, status_note = v_note
    where r.id = v_report.id and r.status is distinct from v_status;
    get diagnostics v_rows = row_count;
    if v_rows = 0 then
      -- Already in that status (the 1-week rule hid it): the reason is still the admins' now.
      update public.reports r set status_reason = decide_removal_request.reason, status_note = v_note
      where r.id = v_report.id;
    end if;
    -- The report's other open requests are settled with it.
    update public.removal_requests rr set status = 'report_removed', resolved_at = coalesce(rr.resolved_at, now())
    where rr.report_id = v_report.id and rr.status = 'open';
    perform private.after_decision(v_report.id);
  else
    -- A report the 1-week rule hid comes back for review (issue 27); the rule's log row is undone, so
    -- the published figures do not count it. One removed otherwise stays removed.
    if v_request.escalated_at is not null and v_request.status = 'report_removed' and v_report.status = 'removed' then
      select l.id into v_hidden_by_rule from public.moderation_log l
      where l.report_id = v_report.id and l.actor_id is null and l.to_status = 'removed' and l.undo_of is null
        and not exists (select 1 from public.moderation_log k where k.undo_of = l.id)
        and not exists (select 1 from public.moderation_log n where n.report_id = l.report_id and n.id > l.id)
      order by l.id desc limit 1;
      perform set_config('scamcheck.undo_of', coalesce(v_hidden_by_rule::text, ''), true);
      update public.reports r set status = 'pending' where r.id = v_report.id and r.status = 'removed';
      perform set_config('scamcheck.undo_of', '', true);
      perform private.after_decision(v_report.id);
    elsif v_report.reporter_id is not null then
      -- The report stays: its reporter is told the request was refused, and why.
      insert into public.notifications (user_id, kind, report_id, identifier)
      values (v_report.reporter_id, 'report_status_changed', v_report.id, v_report.reported_account_canonical);
    end if;
    update public.removal_requests rr set status = 'dismissed', resolved_at = now()
    where rr.id = v_request.id;
  end if;
  perform set_config('scamcheck.removal_request', '', true);
  update public.removal_requests rr
  set decision = decide_removal_request.decision, decision_reason = decide_removal_request.reason,
      decision_note = v_note, decided_at = now(), decided_by = (select auth.uid())
  where rr.id = v_request.id
  returning * into v_request;
  return v_request;
end
$function$;
alter function public.decide_removal_request(uuid, text, text, text) owner to postgres;
comment on function public.decide_removal_request(uuid, text, text, text) is
  'Admins only: keep (the request is dismissed; a report hidden by the 1-week rule returns to pending), hide (the report is rejected) or remove (the report goes; its open requests are settled), with a reason from public.moderation_reasons() and an optional note that the requester and the reporter both see. Takes the request out of the queue.';
revoke execute on function public.decide_removal_request(uuid, text, text, text) from public, anon;
grant execute on function public.decide_removal_request(uuid, text, text, text) to authenticated, service_role;

-- Decided requests, newest first, for the admins' record of the queue.
create function public.admin_removal_decisions(max_rows integer default 30)
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read removal decisions' using errcode = '42501';
  end if;
  return coalesce((
    select jsonb_agg(to_jsonb(x) order by x.decided_at desc) from (
      select rr.id as request_id, rr.report_id, r.reported_account, rr.decision, rr.decision_reason,
             rr.decision_note, rr.decided_at, u.email as decided_by_email
      from public.removal_requests rr
      join public.reports r on r.id = rr.report_id
      left join auth.users u on u.id = rr.decided_by
      where rr.decided_at is not null
      order by rr.decided_at desc
      limit least(greatest(coalesce(max_rows, 30), 1), 200)) x), '[]'::jsonb);
end
$function$;
alter function public.admin_removal_decisions(integer) owner to postgres;
comment on function public.admin_removal_decisions(integer) is 'Admins only: the latest decided removal requests with decision, reason, note, when and by whom.';
revoke execute on function public.admin_removal_decisions(integer) from public, anon;
grant execute on function public.admin_removal_decisions(integer) to authenticated, service_role;

-- ====================================================================================================
-- Published figures

-- The smallest whole hour h with at least share of the decisions at or under h, from a histogram.
create function private.histogram_quantile(hours integer[], counts bigint[], share numeric)
 returns integer
 language sql
 immutable
 set search_path to ''
as $function$
  select min(h) from (
    select h, sum(c) over (order by h) as running, sum(c) over () as total
    from unnest(hours, counts) as t(h, c)) x
  where x.total > 0 and x.running >= share * x.total
$function$;
alter function private.histogram_quantile(integer[], bigint[], numeric) owner to postgres;
comment on function private.histogram_quantile(integer[], bigint[], numeric) is 'The smallest whole hour at or under which the given share of a histogram''s decisions falls (median, 90th percentile).';

create function public.moderation_statistics()
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
declare
  v_today date := (now() at time zone 'utc')::date;
  v_result jsonb := jsonb_build_object('generated_at', now(), 'small_count_threshold', 5,
                                       'time_unit', 'hours');
  v_period text;
  v_from date;
  v_block jsonb;
begin
  foreach v_period in array array['last_30_days', 'all_time'] loop
    v_from := case when v_period = 'last_30_days' then v_today - 29 else '-infinity'::date end;
    select jsonb_build_object(
      'decisions', private.mask_small(sum(d.n)),
      'verified', private.mask_small(sum(d.n) filter (where d.to_status = 'verified')),
      'rejected', private.mask_small(sum(d.n) filter (where d.to_status = 'rejected')),
      'removed', private.mask_small(sum(d.n) filter (where d.to_status = 'removed')))
    into v_block
    from (select m.to_status, m.hours, sum(m.decisions) as n from private.moderation_daily m
          where m.day >= v_from group by m.to_status, m.hours having sum(m.decisions) > 0) d;
    -- The histogram per hour across outcomes (the quantiles are over all decisions).
    select v_block || jsonb_build_object(
      'median_hours', case when coalesce(sum(n), 0) >= 5 then
        private.histogram_quantile(array_agg(hours order by hours), array_agg(n order by hours), 0.5) end,
      'p90_hours', case when coalesce(sum(n), 0) >= 5 then
        private.histogram_quantile(array_agg(hours order by hours), array_agg(n order by hours), 0.9) end)
    into v_block
    from (select m.hours, sum(m.decisions)::bigint as n from private.moderation_daily m
          where m.day >= v_from group by m.hours having sum(m.decisions) > 0) h;
    v_result := v_result || jsonb_build_object(v_period, v_block);
  end loop;
  v_result := v_result || jsonb_build_object(
    'removal_requests', (
      select jsonb_build_object(
        'received', private.mask_small(count(*)),
        'open', private.mask_small(count(*) filter (where rr.decided_at is null
                                                     and (rr.status = 'open' or rr.escalated_at is not null))),
        'kept', private.mask_small(count(*) filter (where rr.decision = 'keep' or rr.status = 'dismissed')),
        'hidden', private.mask_small(count(*) filter (where rr.decision = 'hide')),
        'removed', private.mask_small(count(*) filter (where rr.decision = 'remove'
                                                        or (rr.decision is null and rr.status = 'report_removed'))))
      from public.removal_requests rr where rr.contact_confirmed_at is not null),
    'backlog', jsonb_build_object(
      'pending', private.mask_small((select sum(s.report_count) from private.stats_daily s where s.status = 'pending')),
      'oldest_filed_at', (select min(r.created_at) from public.reports r where r.status = 'pending')));
  return v_result;
end
$function$;
alter function public.moderation_statistics() owner to postgres;
comment on function public.moderation_statistics() is 'Published moderation figures from the moderation rollup: for last_30_days and all_time the decisions, verified/rejected/removed and the median and 90th percentile hours from filing to first decision; removal requests received and their outcomes; the backlog size and its oldest report. Counts under 5 are null.';
grant execute on function public.moderation_statistics() to anon, authenticated, service_role;

create function private.mask_small(n numeric)
 returns numeric
 language sql
 immutable
 set search_path to ''
as $function$
  select case when coalesce(n, 0) < 5 then null else n end
$function$;
alter function private.mask_small(numeric) owner to postgres;
comment on function private.mask_small(numeric) is 'Public counts under 5 are withheld (null), as in public_statistics.';
