-- What an operator checks after deploying (npm run check:hosted, docs/deploying.md step 6), in one call
-- the service role may make through the Data API: cron, net and the location data live in schemas the
-- API does not expose. Answers each scheduled job with its last run and the answer its function gave
-- to the last call (private.edge_function_calls matches pg_net's answers to functions), and which
-- location data is loaded.
create function public.deployment_status()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'jobs', coalesce((
      select jsonb_agg(jsonb_build_object(
          'jobname', j.jobname,
          'schedule', j.schedule,
          'active', j.active,
          'last_run', r.run,
          'last_call', c.call
        ) order by j.jobname)
      from cron.job j
      left join lateral (
        select jsonb_build_object('status', d.status, 'start', d.start_time, 'message', d.return_message) as run
        from cron.job_run_details d
        where d.jobid = j.jobid
        order by d.runid desc
        limit 1
      ) r on true
      -- The last call of the job's function that has an answer (a call still in flight has none yet).
      left join lateral (
        select jsonb_build_object(
            'at', e.called_at,
            'status_code', h.status_code,
            'timed_out', h.timed_out,
            'error', h.error_msg,
            'body', left(h.content, 300)
          ) as call
        from private.edge_function_calls e
        join net._http_response h on h.id = e.request_id
        where e.function_name = j.jobname
        order by e.called_at desc
        limit 1
      ) c on true
    ), '[]'::jsonb),
    'locations', (
      select jsonb_build_object('version', s.version, 'rows', s.rows, 'loaded_at', s.loaded_at)
      from private.ip_locations_source s
      limit 1
    )
  )
$$;
revoke execute on function public.deployment_status() from public, anon, authenticated;
grant execute on function public.deployment_status() to service_role;
comment on function public.deployment_status() is
  'For npm run check:hosted: each pg_cron job, its last run and its function''s answer to the last call; the location data loaded. Service role only.';
