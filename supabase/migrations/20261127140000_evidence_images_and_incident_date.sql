-- Issue 33 (after the scam): up to five evidence images per report, and an incident date that is
-- never in the future.
--
-- 1. public.reports.evidence_paths holds every evidence image of a report, in the order the reporter
--    gave them (at most five, as eGov PH's eReport takes). reports.evidence_path stays: the legacy API
--    reads and writes its one `evidence` field there, and a trigger keeps it equal to the first element
--    (a legacy write of evidence_path replaces the first image and keeps the others). So every stored
--    evidence file a report refers to is in evidence_paths; a cleanup of unreferenced uploads needs only
--    `select unnest(evidence_paths) from public.reports`.
-- 2. The incident date may not be after today in the time zone furthest ahead of UTC (UTC+14): the
--    database cannot know the reporter's zone, and no reporter anywhere is ahead of that day. The form
--    holds the user to their own today (src/features/reports/api/report-form-schema.ts).

alter table public.reports
  add column evidence_paths text[] not null default '{}'
    constraint reports_evidence_paths_at_most_five check (cardinality(evidence_paths) <= 5);
comment on column public.reports.evidence_paths is
  'Every evidence image of the report (object paths in the private evidence bucket, <reporter_id>/...), at most five, first shown first. evidence_path is always evidence_paths[1] (trigger reports_sync_evidence_paths).';

/**
 * Check-constraint helper: true when every element of `paths` is a plain object name (check_object_path
 * raises naming the column otherwise), none repeats and none is null.
 */
create function private.check_object_paths(paths text[], column_name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_path text;
begin
  if paths is null then
    return true;
  end if;
  foreach v_path in array paths loop
    if v_path is null then
      raise exception '% cannot hold an empty entry', column_name using errcode = '23514';
    end if;
    perform private.check_object_path(v_path, column_name);
  end loop;
  if cardinality(paths) <> (select count(distinct p) from unnest(paths) as p) then
    raise exception '% names the same image twice', column_name using errcode = '23514';
  end if;
  return true;
end
$$;
comment on function private.check_object_paths(text[], text) is
  'Check constraint helper: every element a plain object name (private.check_object_path), no nulls, no repeats; raises 23514 naming the column.';
revoke execute on function private.check_object_paths(text[], text) from public, anon;
-- Check constraints run as the writer: reporters need to call it.
grant execute on function private.check_object_paths(text[], text) to authenticated, service_role;

-- Existing single images become the first (only) element, with the row triggers off so that the
-- backfill neither bumps updated_at nor touches rollups and notifications.
alter table public.reports disable trigger user;
update public.reports set evidence_paths = array[evidence_path] where evidence_path is not null;
alter table public.reports enable trigger user;

alter table public.reports
  add constraint reports_evidence_paths_object_names check (private.check_object_paths(evidence_paths, 'evidence_paths'));

/**
 * Before insert or update of a report: keeps evidence_path equal to evidence_paths[1] and holds every
 * image of an API caller to the reporter's own folder of the evidence bucket. Whoever writes
 * evidence_paths decides the list; a write of evidence_path alone (the legacy API, older clients)
 * replaces the first image, or removes it when set to null.
 */
create function private.reports_sync_evidence_paths()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_path text;
begin
  if tg_op = 'INSERT' then
    if cardinality(new.evidence_paths) = 0 and new.evidence_path is not null then
      new.evidence_paths := array[new.evidence_path];
    end if;
  elsif new.evidence_paths is not distinct from old.evidence_paths
        and new.evidence_path is distinct from old.evidence_path then
    new.evidence_paths := case
      when new.evidence_path is null then coalesce(old.evidence_paths[2:], '{}')
      else array[new.evidence_path] || coalesce(old.evidence_paths[2:], '{}')
    end;
  end if;
  new.evidence_path := new.evidence_paths[1];
  if current_user in ('anon', 'authenticated') then
    foreach v_path in array new.evidence_paths loop
      if split_part(v_path, '/', 1) is distinct from new.reporter_id::text then
        raise exception 'evidence_paths must be in the reporter''s own folder of the evidence bucket'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end
$$;
comment on function private.reports_sync_evidence_paths() is
  'Trigger: evidence_path = evidence_paths[1] (a write of evidence_path alone replaces the first image); API callers may only name images in the reporter''s folder.';
revoke execute on function private.reports_sync_evidence_paths() from public, anon;
grant execute on function private.reports_sync_evidence_paths() to authenticated, service_role;
create trigger reports_sync_evidence_paths before insert or update on public.reports
  for each row execute function private.reports_sync_evidence_paths();

grant insert (evidence_paths), update (evidence_paths) on public.reports to authenticated;

/**
 * Before insert, or an update of the incident date: an API caller's incident date may not be after
 * today in UTC+14, the zone furthest ahead (the reporter's own "today" is at most that day).
 * reports_before_write's older bound (UTC tomorrow) still answers first for dates beyond it.
 */
create function private.reports_incident_date_not_future()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and (tg_op = 'INSERT' or new.incident_date is distinct from old.incident_date)
     -- POSIX zone names count the other way: Etc/GMT-14 is UTC+14.
     and new.incident_date > (now() at time zone 'Etc/GMT-14')::date then
    raise exception 'incident_date cannot be in the future' using errcode = '22023';
  end if;
  return new;
end
$$;
comment on function private.reports_incident_date_not_future() is
  'Trigger: refuses an API caller''s incident date after today in UTC+14, the time zone furthest ahead.';
revoke execute on function private.reports_incident_date_not_future() from public, anon;
grant execute on function private.reports_incident_date_not_future() to authenticated, service_role;
create trigger reports_incident_date_not_future before insert or update of incident_date on public.reports
  for each row execute function private.reports_incident_date_not_future();
