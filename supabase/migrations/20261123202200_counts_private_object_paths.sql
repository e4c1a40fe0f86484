-- Two low-severity findings of issue 11.
--
-- 1. identifier_report_counts was readable by anon in full: every reported identifier, including those
--    whose only reports are unreviewed, could be listed with one request. Counts are now reached through
--    the entry points that already take an identifier (public.search_reports, public.report_details,
--    both security definer). Signed-in users keep reading the counts of identifiers they reported
--    themselves, which the report_cards view (security invoker) shows on their own cards; admins read all.
--
-- 2. Stored object paths (profiles.avatar_path, reports.evidence_path, news.banner_path) accepted `..`
--    and other segments that resolve elsewhere. They are now checked in the database, whoever writes.

revoke select on public.identifier_report_counts from anon;
drop policy "Anyone can read report counts per identifier" on public.identifier_report_counts;
create policy "Reporters read the counts of identifiers they reported and admins every count"
  on public.identifier_report_counts
  for select to authenticated
  using (
    (select private.is_admin())
    or exists (
      select 1 from public.reports r
      where r.reported_account_canonical = identifier_report_counts.identifier_canonical
        and r.reporter_id = (select auth.uid())
    )
  );
comment on table public.identifier_report_counts is
  'Visible (pending or verified) reports per canonical identifier: the "N reported case" badge. Read through public.search_reports; signed-in users read the rows of identifiers they reported, admins all.';

/**
 * Passes when `path` is a plain object name: relative, segments separated by single slashes, none empty,
 * `.` or `..`, none over 255 bytes, no backslash or control character. Otherwise raises a check
 * violation (23514, HTTP 400 through PostgREST) that names the column and says what is wrong.
 */
create function private.check_object_path(path text, column_name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
declare
  v_segment text;
begin
  if path is null then
    return true;
  end if;
  if path ~ '[\\[:cntrl:]]' then
    raise exception '% must be a storage object name without backslashes or control characters', column_name
      using errcode = '23514';
  end if;
  foreach v_segment in array string_to_array(path, '/') loop
    if v_segment in ('', '.', '..') then
      raise exception '% must be a storage object name such as <folder>/<file>: empty, "." and ".." segments are not allowed', column_name
        using errcode = '23514';
    end if;
    if octet_length(v_segment) > 255 then
      raise exception '% has a segment longer than 255 bytes', column_name using errcode = '23514';
    end if;
  end loop;
  return true;
end
$$;
comment on function private.check_object_path(text, text) is
  'Check constraint helper: true for a plain relative object name, else raises 23514 naming the column (no "..", ".", empty segments, backslashes or control characters).';

alter table public.profiles
  add constraint profiles_avatar_path_object_name check (private.check_object_path(avatar_path, 'avatar_path'));
alter table public.reports
  add constraint reports_evidence_path_object_name check (private.check_object_path(evidence_path, 'evidence_path'));
alter table public.news
  add constraint news_banner_path_object_name check (private.check_object_path(banner_path, 'banner_path'));
revoke execute on function private.check_object_path(text, text) from public;
grant execute on function private.check_object_path(text, text) to anon, authenticated, service_role;
