-- Issue 27, "location from the server only". The report form asked the `visitor` function for the
-- caller's location and wrote it back through the Data API: `authenticated` could insert and update
-- loc and country, so any user could place points on the heatmap and move region statistics. Now
-- (docs/behaviour.md §13):
--   * authenticated may neither insert nor update loc and country (column privileges), and a trigger
--     keeps whatever an API role writes there out as well (null on insert, unchanged on update);
--   * the location is set only by public.locate_report (service role): the `visitor` function (for the
--     report form) and the legacy API (for POST /reports) resolve the caller's address on the server
--     and set it on the caller's own report, once, within 15 minutes of filing.

revoke insert (loc, country) on public.reports from authenticated;
revoke update (loc, country) on public.reports from authenticated;

/** Before insert or update by an API role: loc and country stay what the server set. */
create function private.reports_server_location()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      new.loc := null;
      new.country := null;
    else
      new.loc := old.loc;
      new.country := old.country;
    end if;
  end if;
  return new;
end
$$;
comment on function private.reports_server_location() is
  'Trigger: an API role never sets a report''s loc or country (null on insert, unchanged on update); public.locate_report does.';
grant execute on function private.reports_server_location() to authenticated, service_role;
create trigger reports_server_location before insert or update on public.reports
  for each row execute function private.reports_server_location();

/**
 * Sets the location of a report its reporter just filed, from the location an edge function resolved
 * from the caller's address (visit: {loc, country}). Only for the caller's own report, filed within the
 * last 15 minutes, without a location yet; returns whether it was set. Service role only: no client
 * chooses the location.
 */
create function public.locate_report(report_id uuid, reporter uuid, visit jsonb)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_loc text := case when visit ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visit ->> 'loc' end;
  v_country text := left(visit ->> 'country', 64);
  v_done integer;
begin
  if reporter is null or (v_loc is null and v_country is null) then
    return false;
  end if;
  update public.reports r set loc = v_loc, country = v_country
  where r.id = locate_report.report_id
    and r.reporter_id = locate_report.reporter
    and r.created_at > now() - interval '15 minutes'
    and r.loc is null and r.country is null;
  get diagnostics v_done = row_count;
  return v_done > 0;
end
$$;
comment on function public.locate_report(uuid, uuid, jsonb) is
  'Service role: sets loc/country of the caller''s own report filed in the last 15 minutes and not yet located, from the location an edge function resolved on the server.';
revoke execute on function public.locate_report(uuid, uuid, jsonb) from public, anon, authenticated;
grant execute on function public.locate_report(uuid, uuid, jsonb) to service_role;
