-- Postgres CPU per request under `npm run check:load` (issue 12), second part: what a REST search and a
-- report insert did twice or planned again in every transaction.
--
-- 1. private.client_address_key() ran twice in a Data API write: in the pre-request hook (rest_write.ip) and
--    again in the write-limit trigger of the row written (search_log for a search, reports for a report),
--    each time parsing the request headers, reading the limiter settings and hashing the address. It now
--    keeps its answer for the rest of the transaction, next to the headers it was computed from, in two
--    transaction-local settings. Whoever could set those settings could set request.headers itself, from
--    which the key is computed, so the cache trusts nothing new; a change of request.headers within the
--    transaction (only tests do that) computes the key again.
-- 2. public.search_reports, the REST search, was a SQL wrapper planned again in every transaction.
-- 3. search_log_user_id_idx indexed every search, though almost all are anonymous (user_id null). It only
--    serves finding a user's searches (the foreign key's on delete set null, an admin looking one user up),
--    which never look for null: a partial index skips the anonymous rows.

create or replace function private.client_address_key()
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_headers text := coalesce(current_setting('request.headers', true), '');
  v_key text;
begin
  if current_setting('scamcheck.client_address_headers', true) = v_headers then
    return nullif(current_setting('scamcheck.client_address_key', true), '');
  end if;
  v_key := private.address_key(private.client_address());
  perform set_config('scamcheck.client_address_headers', v_headers, true),
          set_config('scamcheck.client_address_key', coalesce(v_key, ''), true);
  return v_key;
end
$$;

create or replace function public.search_reports(search_string text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  return private.search_reports(search_string, (select auth.uid()), null);
end
$$;

drop index public.search_log_user_id_idx;
create index search_log_user_id_idx on public.search_log (user_id) where user_id is not null;
