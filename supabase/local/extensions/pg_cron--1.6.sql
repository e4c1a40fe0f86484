-- pg_cron's SQL interface as Supabase documents it (cron.job, cron.job_run_details, cron.schedule,
-- cron.unschedule, cron.alter_job). The jobs are run by supabase/local/scheduler.ts, which reads
-- cron.job every second as pg_cron's background worker does; schedules are in UTC (cron.timezone).
create schema cron;
revoke all on schema cron from public;

create table cron.job (
  jobid bigserial primary key,
  schedule text not null,
  command text not null,
  nodename text not null default 'localhost',
  nodeport integer not null default inet_server_port(),
  database text not null default current_database(),
  username text not null default current_user,
  active boolean not null default true,
  jobname text,
  unique (jobname, username)
);

create table cron.job_run_details (
  jobid bigint,
  runid bigserial primary key,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);

-- pg_cron accepts five cron fields or '[1-59] seconds'; anything else is refused as it refuses it.
create function cron.check_schedule(schedule text) returns text
language plpgsql immutable
set search_path = ''
as $$
declare
  field constant text := '(\*|[0-9]+(-[0-9]+)?)(/[0-9]+)?';
begin
  if schedule ~ '^\s*([1-9]|[1-5][0-9])\s+seconds?\s*$'
     or schedule ~ ('^\s*' || field || '(,' || field || ')*(\s+' || field || '(,' || field || ')*){4}\s*$')
     or schedule in ('@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly', '@reboot') then
    return schedule;
  end if;
  raise exception 'invalid schedule: %', schedule;
end
$$;

create function cron.schedule(job_name text, schedule text, command text) returns bigint
language sql
set search_path = ''
as $$
  insert into cron.job (jobname, schedule, command)
  values (job_name, cron.check_schedule(schedule), command)
  on conflict (jobname, username) do update
    set schedule = excluded.schedule, command = excluded.command, active = true
  returning jobid
$$;

create function cron.schedule(schedule text, command text) returns bigint
language sql
set search_path = ''
as $$
  insert into cron.job (schedule, command) values (cron.check_schedule(schedule), command) returning jobid
$$;

create function cron.unschedule(job_name text) returns boolean
language plpgsql
set search_path = ''
as $$
begin
  delete from cron.job where jobname = job_name and username = current_user;
  if not found then
    raise exception 'could not find valid entry for job ''%''', job_name;
  end if;
  return true;
end
$$;

create function cron.unschedule(job_id bigint) returns boolean
language plpgsql
set search_path = ''
as $$
begin
  delete from cron.job where jobid = job_id;
  if not found then
    raise exception 'could not find valid entry for job %', job_id;
  end if;
  return true;
end
$$;

create function cron.alter_job(
  job_id bigint,
  schedule text default null,
  command text default null,
  database text default null,
  username text default null,
  active boolean default null
) returns void
language plpgsql
set search_path = ''
as $$
begin
  update cron.job j set
    schedule = coalesce(cron.check_schedule(alter_job.schedule), j.schedule),
    command = coalesce(alter_job.command, j.command),
    database = coalesce(alter_job.database, j.database),
    username = coalesce(alter_job.username, j.username),
    active = coalesce(alter_job.active, j.active)
  where j.jobid = job_id;
  if not found then
    raise exception 'Job % does not exist', job_id;
  end if;
end
$$;

revoke all on all tables in schema cron from public;
revoke all on all functions in schema cron from public;
