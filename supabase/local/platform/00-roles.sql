-- Supabase's database roles, as supabase/postgres creates them on every project.
-- Roles are cluster-wide, so each is created only when missing.
do $$
declare
  r record;
begin
  for r in
    select * from (values
      ('anon', 'nologin noinherit'),
      ('authenticated', 'nologin noinherit'),
      ('service_role', 'nologin noinherit bypassrls'),
      ('authenticator', 'login noinherit'),
      ('supabase_admin', 'login superuser createdb createrole replication bypassrls'),
      ('supabase_auth_admin', 'login noinherit createrole'),
      ('supabase_storage_admin', 'login noinherit createrole'),
      ('supabase_functions_admin', 'login noinherit createrole'),
      ('dashboard_user', 'nologin createdb createrole replication'),
      ('pgbouncer', 'login')
    ) as t(name, opts)
  loop
    if not exists (select 1 from pg_roles where rolname = r.name) then
      execute format('create role %I %s', r.name, r.opts);
    end if;
  end loop;
end
$$;

alter role authenticator with password 'postgres';
alter role supabase_auth_admin with password 'postgres';
alter role supabase_storage_admin with password 'postgres';
alter role supabase_admin with password 'postgres';

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
grant supabase_auth_admin, supabase_storage_admin to postgres;

-- PostgREST's statement timeouts per role, as on Supabase.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';

create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists citext with schema extensions;

alter database postgres set search_path = "$user", public, extensions;

-- The public schema as Supabase sets it up: the API roles may use it, and whatever postgres creates
-- there is granted to them by default (RLS then decides rows).
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;

create schema if not exists graphql_public;
create schema if not exists realtime;
grant usage on schema graphql_public, realtime to postgres, anon, authenticated, service_role;
