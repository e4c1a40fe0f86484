-- Platform: what every other migration relies on.
--   * Default privileges: functions postgres creates are not executable by PUBLIC, and tables, sequences
--     and functions in public are not granted to anon and authenticated (Supabase grants everything to
--     them by default); each migration grants what it means to expose, and RLS then decides rows.
--   * The private schema: helpers, trigger functions and rollups the Data API does not expose.
--   * Small helpers shared by the domains (updated_at trigger, storage object name check).
--
-- Migrations from here on: this file and the other 20261122... files are the squash of the first 39
-- migrations (issue 36), each holding the final definition of its domain's objects. A change is a NEW
-- file supabase/migrations/<timestamp>_<what>.sql; supabase/schema.sql shows the whole schema the
-- migrations build (regenerate it with `npm run db:schema`).

-- Functions created by later statements in this schema are not executable by the API roles unless a
-- migration grants it (Supabase grants everything to anon and authenticated by default).
-- EXECUTE for PUBLIC is a global default, so it is revoked globally (for functions postgres creates).
alter default privileges revoke execute on functions from public;

alter default privileges in schema public revoke execute on functions from anon, authenticated;

alter default privileges in schema public revoke all on tables from anon, authenticated;

alter default privileges in schema public revoke all on sequences from anon, authenticated;

create schema if not exists private;

comment on schema private is 'Helpers, trigger functions and rollups that are not exposed through the Data API.';

revoke all on schema private from public;

grant usage on schema private to anon, authenticated, service_role;

/** Sets updated_at on every update. */
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
grant execute on function private.touch_updated_at() to authenticated, service_role;
comment on function private.touch_updated_at() is 'Trigger: sets updated_at to now() on update.';

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
revoke execute on function private.check_object_path(text, text) from public;
grant execute on function private.check_object_path(text, text) to anon, authenticated, service_role;
comment on function private.check_object_path(text, text) is
  'Check constraint helper: true for a plain relative object name, else raises 23514 naming the column (no "..", ".", empty segments, backslashes or control characters).';
