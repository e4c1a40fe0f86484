-- The search and visit logs keep a location only when the server resolved it (issue 11): a row written
-- during a Data API request by anon or a signed-in user loses any city, region, country, loc, org,
-- postal and ip_hash, whichever entry point wrote it (search_reports, check_identifiers' visitor
-- argument, one added later). The edge functions resolve the location from the caller's address and
-- write through the service role's entry points (search_reports_located, record_visits), which keep it.
create function private.server_side_location_only()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if coalesce(private.request_role(), '') in ('anon', 'authenticated') then
    new.city := null;
    new.region := null;
    new.country := null;
    new.loc := null;
    new.org := null;
    new.postal := null;
    new.ip_hash := null;
  end if;
  return new;
end
$$;
comment on function private.server_side_location_only() is
  'Trigger: drops the location fields of a log row written during an anon or signed-in Data API request (the caller could have chosen them).';
revoke execute on function private.server_side_location_only() from public, anon, authenticated;

create trigger server_side_location_only before insert on public.search_log
  for each row execute function private.server_side_location_only();
create trigger server_side_location_only before insert on public.visitor_log
  for each row execute function private.server_side_location_only();
