-- Visitor location inside Postgres, within hosted Supabase's limits: the address ranges of the GeoLite2
-- City database (loaded by `npm run locations:load -- <database URL>`, docs/deploying.md), Philippine
-- ranges to the city, the rest of the world to the country. One indexed lookup replaces the 45 MB file
-- the functions read before, which no deployed function can carry (20 MB bundle, no npm data at run time).
create type private.inet_range as range (subtype = inet);

create table private.ip_locations (
  addresses private.inet_range not null,
  country text not null,
  region text,
  city text,
  postal text,
  latitude double precision,
  longitude double precision
);
comment on table private.ip_locations is
  'Address ranges and where they are (GeoLite2 City via @ip-location-db); loaded by npm run locations:load.';
create index ip_locations_range_idx on private.ip_locations using gist (addresses);

-- Which package version the table holds (one row), so a load of the same version is skipped.
create table private.ip_locations_source (
  version text not null,
  rows integer not null,
  loaded_at timestamptz not null default now()
);

revoke all on private.ip_locations, private.ip_locations_source from public, anon, authenticated;

-- Where an address is: the fields a visit or search log keeps (docs/behaviour.md section 3), or no row
-- for an unknown or non-address input. Service role only (the functions call it for the caller's address).
create or replace function public.locate_address(address text)
returns table (city text, region text, country text, loc text, postal text)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  ip inet;
begin
  begin
    ip := host(address::inet)::inet;
  exception when others then
    return;
  end;
  return query
    select l.city, l.region, l.country,
      case when l.latitude is not null and l.longitude is not null
        then to_char(l.latitude, 'FM990.0000') || ',' || to_char(l.longitude, 'FM990.0000') end,
      l.postal
    from private.ip_locations l
    where l.addresses @> ip
    limit 1;
end
$$;
revoke execute on function public.locate_address(text) from public, anon, authenticated;
grant execute on function public.locate_address(text) to service_role;
comment on function public.locate_address(text) is
  'Where an address is (private.ip_locations): city, region, country, ''lat,lng'', postal. Service role only.';
