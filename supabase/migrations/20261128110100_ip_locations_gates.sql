-- The schema gates (supabase/tests/db/gates.test.ts) for the location tables of 20261127120100 and the
-- scheduled jobs' call log of 20261127120000: every
-- private table has row-level security (no policies: only the service role and definer functions read
-- them), a primary key and a comment; the range type's constructor functions pin their search_path and
-- say what they are, as every function of ours does.
alter table private.ip_locations enable row level security;
alter table private.ip_locations add primary key (addresses);

alter table private.ip_locations_source enable row level security;
alter table private.ip_locations_source add column id boolean primary key default true check (id);
comment on table private.ip_locations_source is
  'Which @ip-location-db package version private.ip_locations holds (one row), so a load of the same version is skipped.';

alter function private.inet_range(inet, inet) set search_path = '';
alter function private.inet_range(inet, inet, text) set search_path = '';
alter function private.inet_multirange() set search_path = '';
alter function private.inet_multirange(private.inet_range) set search_path = '';
alter function private.inet_multirange(variadic private.inet_range[]) set search_path = '';
comment on function private.inet_range(inet, inet) is 'Constructor of private.inet_range (an address range, inclusive-exclusive).';
comment on function private.inet_range(inet, inet, text) is 'Constructor of private.inet_range with explicit bounds.';
comment on function private.inet_multirange() is 'Constructor of an empty private.inet_multirange.';
comment on function private.inet_multirange(private.inet_range) is 'Constructor of a private.inet_multirange of one range.';
comment on function private.inet_multirange(variadic private.inet_range[]) is 'Constructor of a private.inet_multirange of several ranges.';

alter table private.edge_function_calls enable row level security;
