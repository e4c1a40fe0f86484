-- Schema-cache reloading as Supabase sets it up: event triggers that tell PostgREST (here the /rest/v1
-- service) to reload its schema cache after every DDL statement, so tables, columns and functions that
-- migrations or tests create are served at once.
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql
as $$
begin
  notify pgrst, 'reload schema';
end;
$$;
comment on function extensions.pgrst_ddl_watch() is 'Asks PostgREST to reload its schema cache after DDL.';

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql
as $$
begin
  notify pgrst, 'reload schema';
end;
$$;
comment on function extensions.pgrst_drop_watch() is 'Asks PostgREST to reload its schema cache after objects are dropped.';

drop event trigger if exists pgrst_ddl_watch;
create event trigger pgrst_ddl_watch on ddl_command_end execute procedure extensions.pgrst_ddl_watch();
drop event trigger if exists pgrst_drop_watch;
create event trigger pgrst_drop_watch on sql_drop execute procedure extensions.pgrst_drop_watch();
