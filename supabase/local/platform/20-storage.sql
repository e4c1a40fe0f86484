-- The storage schema that supabase/storage owns on Supabase: buckets, objects and the path helpers
-- that policies call, shaped after its migrations.
create schema if not exists storage authorization supabase_storage_admin;
grant usage on schema storage to anon, authenticated, service_role, postgres;

create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  type text not null default 'STANDARD'
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets(id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb,
  level int
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);
alter table storage.objects enable row level security;
alter table storage.buckets enable row level security;

create table if not exists storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable
as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role, postgres;
grant all on storage.migrations to postgres, service_role;
grant execute on all functions in schema storage to anon, authenticated, service_role, postgres;
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter default privileges in schema storage grant all on tables to postgres, anon, authenticated, service_role;

-- Keeps updated_at current when an object row changes (an upsert or a move), as upstream's trigger does.
create or replace function storage.update_updated_at_column() returns trigger
language plpgsql
as $$
begin
  new.updated_at = now();
  return new;
end
$$;
comment on function storage.update_updated_at_column() is 'Sets updated_at on every update of a storage row.';
drop trigger if exists update_objects_updated_at on storage.objects;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- The listing behind storage-js `list()`: one level under `prefix`, entries whose name starts with
-- prefix || search (case-insensitively), each deeper path folded into a folder entry with a null id.
-- Names are relative to the prefix. Sorted by name, folders and files mix in name order; sorted by a
-- date column, folders come first. Same signature as upstream (`levels` is unused there too) and
-- security invoker, so the caller's RLS policies decide which objects, and so which folders, appear.
create or replace function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
)
returns table (name text, id uuid, updated_at timestamptz, created_at timestamptz, last_accessed_at timestamptz, metadata jsonb)
language plpgsql stable security invoker
as $$
declare
  v_prefix_len int := length(coalesce(prefix, ''));
  v_match text := lower(coalesce(prefix, '') || coalesce(search, ''));
  v_match_len int := length(lower(coalesce(prefix, '') || coalesce(search, '')));
  v_column text := case lower(coalesce(sortcolumn, 'name'))
    when 'updated_at' then 'updated_at'
    when 'created_at' then 'created_at'
    when 'last_accessed_at' then 'last_accessed_at'
    else 'name' end;
  v_order text := case when lower(coalesce(sortorder, 'asc')) = 'desc' then 'desc' else 'asc' end;
  v_order_by text;
begin
  if v_column = 'name' then
    v_order_by := format('lower(e.name || case when e.is_folder then ''/'' else '''' end) collate "C" %s', v_order);
  else
    v_order_by := format('e.is_folder desc, case when e.is_folder then e.name end collate "C" %1$s, e.%2$I %1$s, e.name collate "C"', v_order, v_column);
  end if;
  return query execute format($sql$
    with matched as (
      select o.name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata,
             strpos(substr(o.name, $3 + 1), '/') as slash
      from storage.objects o
      where o.bucket_id = $1 and left(lower(o.name), $3) = $2
    ), entries as (
      select substr(left(m.name, $3 + m.slash - 1), $4 + 1) as name, null::uuid as id,
             null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata, true as is_folder
      from matched m where m.slash > 0
      group by 1
      union all
      select substr(m.name, $4 + 1), m.id, m.updated_at, m.created_at, m.last_accessed_at, m.metadata, false
      from matched m where m.slash = 0
    )
    select e.name, e.id, e.updated_at, e.created_at, e.last_accessed_at, e.metadata
    from entries e
    order by %s
    limit $5 offset $6
  $sql$, v_order_by)
  using bucketname, v_match, v_match_len, v_prefix_len, least(coalesce(limits, 100), 1500), coalesce(offsets, 0);
end
$$;
comment on function storage.search(text, text, int, int, int, text, text, text) is
  'Lists one folder level of a bucket for the Storage API (storage-js list()), as the calling role.';
grant execute on function storage.search(text, text, int, int, int, text, text, text) to anon, authenticated, service_role;

-- The Storage API names each request's operation (e.g. 'storage.object.upload') in the
-- transaction-local setting storage.operation, so policies can tell an upload from an upsert or a move.
create or replace function storage.operation() returns text
language sql stable
as $$ select current_setting('storage.operation', true) $$;
comment on function storage.operation() is 'The Storage API operation of the current request (storage.object.upload, ...).';

-- Policy helpers: true when the current operation is the one (or one of those) named, with or without
-- the 'storage.' prefix.
create or replace function storage.allow_only_operation(expected_operation text) returns boolean
language sql stable
as $$
  select coalesce(nullif(expected_operation, '') is not null
    and regexp_replace(storage.operation(), '^storage\.', '') = regexp_replace(expected_operation, '^storage\.', ''), false)
$$;
comment on function storage.allow_only_operation(text) is 'True when the Storage API operation is the one named.';

create or replace function storage.allow_any_operation(expected_operations text[]) returns boolean
language sql stable
as $$
  select coalesce(bool_or(storage.allow_only_operation(o)), false) from unnest(expected_operations) as o
$$;
comment on function storage.allow_any_operation(text[]) is 'True when the Storage API operation is one of those named.';

-- As on Supabase, rows of storage.objects and storage.buckets are deleted through the Storage API
-- (which sets storage.allow_delete_query), never by plain SQL that would orphan the stored bytes.
create or replace function storage.protect_delete() returns trigger
language plpgsql
as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), 'false') != 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using hint = 'This prevents accidental data loss from orphaned objects.', errcode = '42501';
  end if;
  return null;
end
$$;
comment on function storage.protect_delete() is 'Refuses deletes from storage tables that do not come from the Storage API.';
drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

grant execute on function storage.operation(), storage.allow_only_operation(text), storage.allow_any_operation(text[])
  to anon, authenticated, service_role;
