-- Per-user and per-address limits on every write path of the product (issue 11, "No limits outside
-- Auth"): contact messages, searches (each is logged), visits, reports, removal requests and Notify Me
-- registrations. Each is a row trigger on the table, so the limit holds whichever way the row arrives:
-- the Data API (supabase-js in the app), the legacy API and the visitor function (which call the Data
-- API as their caller, forwarding the caller's X-Forwarded-For), or a security definer entry point
-- such as search_reports. Rows count one by one, so a bulk insert of 300 rows is 300 calls.
-- Only Data API requests by anon and signed-in users are limited (PostgREST sets request.method and the
-- JWT's role for every request); the service role, seeds, operators and other sessions are not.

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('contact.ip', 5, 3600, 'Too many contact messages from your address'),
  ('contact.user', 5, 3600, 'Too many contact messages from your account'),
  ('search.ip', 60, 60, 'Too many searches from your address'),
  ('search.user', 60, 60, 'Too many searches from your account'),
  ('visit.ip', 60, 60, 'Too many visits recorded from your address'),
  ('visit.user', 60, 60, 'Too many visits recorded from your account'),
  ('report.ip', 30, 3600, 'Too many reports filed from your address'),
  ('report.user', 20, 3600, 'Too many reports filed from your account'),
  ('removal.ip', 10, 86400, 'Too many removal requests from your address'),
  ('removal.user', 5, 86400, 'Too many removal requests from your account'),
  ('notify.ip', 60, 3600, 'Too many Notify Me registrations from your address'),
  ('notify.user', 30, 3600, 'Too many Notify Me registrations from your account');

/**
 * Before insert: takes one call from '<kind>.user' (the signed-in caller) and '<kind>.ip' (the client
 * address, when the request has one), kind being the trigger's argument; raises 429 past either.
 */
create function private.limit_writes()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_kind text := tg_argv[0];
  v_uid uuid;
  v_key text;
begin
  if coalesce(private.request_role(), '') not in ('anon', 'authenticated')
     or coalesce(current_setting('request.method', true), '') = '' then
    return new;
  end if;
  v_uid := (select auth.uid());
  if v_uid is not null then
    perform private.rate_limit(v_kind || '.user', 'user:' || v_uid);
  end if;
  v_key := private.client_address_key();
  if v_key is not null then
    perform private.rate_limit(v_kind || '.ip', v_key);
  end if;
  return new;
end
$$;
comment on function private.limit_writes() is
  'Trigger: limits inserts per signed-in user (<kind>.user) and per client address (<kind>.ip); kind is the trigger argument.';
revoke execute on function private.limit_writes() from public;

create trigger rate_limit_writes before insert on public.contact_messages
  for each row execute function private.limit_writes('contact');
create trigger rate_limit_writes before insert on public.search_log
  for each row execute function private.limit_writes('search');
create trigger rate_limit_writes before insert on public.visitor_log
  for each row execute function private.limit_writes('visit');
create trigger rate_limit_writes before insert on public.reports
  for each row execute function private.limit_writes('report');
create trigger rate_limit_writes before insert on public.removal_requests
  for each row execute function private.limit_writes('removal');
create trigger rate_limit_writes before insert on public.notify_registrations
  for each row execute function private.limit_writes('notify');
