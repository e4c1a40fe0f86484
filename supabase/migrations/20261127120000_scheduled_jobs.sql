-- The scheduled edge functions, as Supabase documents scheduling them: pg_cron jobs that call each
-- function with pg_net, the project URL and the service-role key read from Vault at every run (never
-- stored in the repository or in the job). On a hosted project the operator stores both secrets once
-- (docs/deploying.md); the local stack stores its own at start. The same SQL runs on both.
--
-- Job names are kept from the local scheduler this replaces: notify-dispatch every minute, removal-expiry
-- at minute 0 of every hour, open-data at minute 5 and upload-cleanup at minute 15 of every hour (UTC).
create extension if not exists pg_cron with schema pg_catalog;
create extension if not exists pg_net with schema extensions;

-- Which function each pg_net request called, so an answer in net._http_response (which keeps no URL)
-- can be told apart by function: public.deployment_status and npm run check:hosted read it. Kept a day.
create table private.edge_function_calls (
  request_id bigint primary key,
  function_name text not null,
  called_at timestamptz not null default now()
);
create index edge_function_calls_function_idx on private.edge_function_calls (function_name, called_at desc);
revoke all on private.edge_function_calls from public, anon, authenticated;
comment on table private.edge_function_calls is
  'pg_net requests made by private.call_edge_function (the scheduled jobs), for matching their answers; kept a day.';

-- Calls one edge function with the service-role key; answers pg_net's request id. A missing Vault
-- secret is an error that names it, in cron.job_run_details.
create or replace function private.call_edge_function(function_name text, body jsonb default '{}'::jsonb)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  project_url text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  service_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
  request_id bigint;
begin
  if project_url is null or service_key is null then
    raise exception 'Vault secret % is missing: store it with vault.create_secret (docs/deploying.md)',
      case when project_url is null then 'project_url' else 'service_role_key' end;
  end if;
  request_id := net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/' || function_name,
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || service_key),
    body := body || jsonb_build_object('scheduledAt', now()),
    -- The functions answer within hosted's 150 s request idle timeout; pg_net waits that long.
    timeout_milliseconds := 150000
  );
  delete from private.edge_function_calls where called_at < now() - interval '1 day';
  insert into private.edge_function_calls (request_id, function_name) values (request_id, function_name);
  return request_id;
end
$$;
revoke execute on function private.call_edge_function(text, jsonb) from public, anon, authenticated;
comment on function private.call_edge_function(text, jsonb) is
  'Calls an edge function with the service-role key from Vault (pg_net); the scheduled jobs use it.';

select cron.schedule('notify-dispatch', '* * * * *', $$select private.call_edge_function('notify-dispatch')$$);
select cron.schedule('removal-expiry', '0 * * * *', $$select private.call_edge_function('removal-expiry')$$);
select cron.schedule('open-data', '5 * * * *', $$select private.call_edge_function('open-data')$$);
select cron.schedule('upload-cleanup', '15 * * * *', $$select private.call_edge_function('upload-cleanup')$$);
