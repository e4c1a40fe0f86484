-- E-mail codes die after a few wrong tries, counted in the database whoever calls.
--
-- A six-digit code has a million values and lives up to `otp_expiry`; without a count of wrong tries an
-- attacker who can send requests fast enough (from many addresses, or through a server that calls Auth
-- for them) finds it. Every caller that checks a code typed by a person asks this schema first:
--   * the legacy API's GET /api/v1/verify/{...} (public.auth_check_signup_code, service role only), which
--     checks the code here and sends Auth only the stored token hash of a right one,
--   * the local stack's Auth at /auth/v1/verify (and the reauthentication nonce of PUT /auth/v1/user).
-- On hosted Supabase, /auth/v1/verify is GoTrue's own and does not call this schema; README
-- "Account security" says what protects that path there.
--
-- Counting:
--   * per code: the tries against the code an address currently has (its latest sent_at in auth.users);
--     after `code_wrong_tries` (5) the code is deleted, and a new code starts a new count;
--   * per address (limit auth_code.address): all tries for one address, whether or not it has an account
--     or a code, so that the answers cannot tell which addresses exist;
--   * per client address (auth_verify.ip): calls of the legacy verify route (the local Auth keeps GoTrue's
--     own per-client bucket, `[auth.rate_limit] token_verifications`, in memory as GoTrue does);
--   * per address (auth_code.issue): codes e-mailed for sign-in and recovery (local Auth /otp, /magiclink,
--     /recover, /resend) and the legacy register's notices to owners.
-- A try is claimed before the code is checked, so parallel guesses cannot overtake the count.

-- The limits over time are rows of the product's one rate limiter (private.rate_limits, migration
-- ..._rate_limiter.sql); the tries one code gets is the setting `code_wrong_tries`.
insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('auth_code.address', 15, 3600, 'Too many code tries for this e-mail address'),
  ('auth_code.issue', 5, 3600, 'Too many codes e-mailed to this address'),
  ('auth_verify.ip', 30, 300, 'Too many code checks from your address');
insert into private.rate_limit_settings (name, value) values ('code_wrong_tries', '5');

create table private.code_attempts (
  email text primary key,
  -- the issue time of the code these tries were made against (null: the address had no code)
  code_issued_at timestamptz,
  tries integer not null default 0,
  updated_at timestamptz not null default now()
);
alter table private.code_attempts enable row level security;
revoke all on private.code_attempts from public, anon, authenticated, service_role;

/** Takes one call of limit `p_name` for an e-mail address: 0 when allowed, else the seconds to wait. */
create or replace function private.take_for_address(p_name text, p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select case when t.allowed then 0 else greatest(1, t.retry_after_seconds) end
  from private.rate_limit_take(p_name, 'email:' || md5(lower(trim(p_email)))) t
$$;

/** When the code an address can type now was sent (the newest of its kinds), or null. */
create or replace function private.latest_code_at(p_email text)
returns timestamptz
language sql
stable
security definer
set search_path = ''
as $$
  select max(t) from (
    select greatest(u.confirmation_sent_at, u.recovery_sent_at, u.email_change_sent_at, u.reauthentication_sent_at) as t
      from auth.users u where lower(u.email) = p_email
    union all
    select u.email_change_sent_at from auth.users u where lower(u.email_change) = p_email
  ) s
$$;

/** Deletes every code e-mailed to an address (sign-up, sign-in, recovery, e-mail change, reauthentication). */
create or replace function private.kill_codes(p_email text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users
     set confirmation_token = '', recovery_token = '', email_change_token_current = '', reauthentication_token = ''
   where lower(email) = p_email;
  update auth.users set email_change_token_new = '' where lower(email_change) = p_email;
  delete from auth.one_time_tokens where lower(relates_to) = p_email;
end;
$$;

/** How many tries one code gets (private.rate_limit_settings `code_wrong_tries`). */
create or replace function private.code_wrong_tries()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select value::integer from private.rate_limit_settings where name = 'code_wrong_tries'), 5)
$$;

/**
 * Claims one try of the code sent to `p_email`, before the code is checked. Answers
 * {"ok": true}, or {"ok": false, "reason": "code_spent"} once the code has had its tries (it is then
 * deleted), or {"ok": false, "reason": "address_limit" | "client_limit", "retry_after": seconds}.
 */
create or replace function private.claim_code_try(p_email text, p_client text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  e text := lower(trim(p_email));
  issued timestamptz := private.latest_code_at(lower(trim(p_email)));
  max_tries integer;
  a private.code_attempts;
  wait integer;
begin
  if p_client is not null then
    select case when t.allowed then 0 else greatest(1, t.retry_after_seconds) end into wait
      from private.rate_limit_take('auth_verify.ip', p_client) t;
    if wait > 0 then
      return jsonb_build_object('ok', false, 'reason', 'client_limit', 'retry_after', wait);
    end if;
  end if;
  max_tries := private.code_wrong_tries();
  insert into private.code_attempts (email, code_issued_at, tries) values (e, issued, 0)
  on conflict (email) do nothing;
  select * into a from private.code_attempts where email = e for update;
  if a.code_issued_at is distinct from issued then
    update private.code_attempts set code_issued_at = issued, tries = 0, updated_at = now() where email = e;
    a.tries := 0;
  end if;
  if a.tries >= max_tries then
    perform private.kill_codes(e);
    return jsonb_build_object('ok', false, 'reason', 'code_spent');
  end if;
  wait := private.take_for_address('auth_code.address', e);
  if wait > 0 then
    return jsonb_build_object('ok', false, 'reason', 'address_limit', 'retry_after', wait);
  end if;
  update private.code_attempts set tries = tries + 1, updated_at = now() where email = e;
  return jsonb_build_object('ok', true);
end;
$$;

/** After a claimed try: a right code clears the counts; a wrong one that used the last try deletes the code. */
create or replace function private.code_try_result(p_email text, p_ok boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  e text := lower(trim(p_email));
begin
  if p_ok then
    delete from private.code_attempts where email = e;
    delete from private.rate_limit_buckets where name = 'auth_code.address' and subject = 'email:' || md5(e);
  elsif (select tries from private.code_attempts where email = e) >= private.code_wrong_tries() then
    perform private.kill_codes(e);
  end if;
end;
$$;

/** Counts one code e-mailed to `p_email`: 0 when allowed, else the seconds until another may be sent. */
create or replace function private.claim_code_issue(p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.take_for_address('auth_code.issue', p_email)
$$;

/** Whether an address belongs to a confirmed account (the legacy register call then mails the owner instead). */
create or replace function private.email_has_account(p_email text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from auth.users u
                  where lower(u.email) = lower(trim(p_email)) and u.email_confirmed_at is not null)
$$;

revoke all on function private.take_for_address(text, text), private.code_wrong_tries(), private.latest_code_at(text), private.kill_codes(text),
  private.claim_code_try(text, text), private.code_try_result(text, boolean), private.claim_code_issue(text),
  private.email_has_account(text)
  from public, anon, authenticated, service_role;

/**
 * The legacy verify route's check of a typed sign-up code, all in the database: it claims a try, then
 * compares the code with the one stored for the address (GoTrue stores the hex SHA-224 of the address
 * followed by the code, with a `pkce_` prefix in PKCE flows). A right code answers
 * {"ok": true, "token_hash": ...}, which the route exchanges at Auth's /verify for a session (Auth checks
 * the expiry) and then reports with auth_code_try_result; a wrong one counts as a failed try at once.
 * So typed codes never reach Auth from this route, and every try is counted here.
 */
create or replace function private.check_signup_code(p_email text, p_code text, p_client text default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  e text := lower(trim(p_email));
  claim jsonb := private.claim_code_try(p_email, p_client);
  h text;
  stored text;
begin
  if not (claim->>'ok')::boolean then
    return claim;
  end if;
  h := encode(pg_catalog.sha224(convert_to(e || p_code, 'UTF8')), 'hex');
  select u.confirmation_token into stored from auth.users u
   where lower(u.email) = e and u.email_confirmed_at is null and u.confirmation_token in (h, 'pkce_' || h)
   limit 1;
  if stored is null then
    perform private.code_try_result(e, false);
    return jsonb_build_object('ok', false, 'reason', 'wrong');
  end if;
  return jsonb_build_object('ok', true, 'token_hash', stored);
end;
$$;
revoke all on function private.check_signup_code(text, text, text) from public, anon, authenticated, service_role;

-- The legacy API runs on Supabase's edge runtime with the service role; PostgREST exposes only `public`,
-- so its entry points live there, callable by the service role alone.
-- The client is the caller of the legacy route, whose X-Forwarded-For the function forwards; the
-- limiter's private.client_address_key() picks the trusted entry (README "Rate limits").
create or replace function public.auth_check_signup_code(p_email text, p_code text)
returns jsonb
language sql
security definer
set search_path = ''
as $$ select private.check_signup_code(p_email, p_code, private.client_address_key()) $$;

create or replace function public.auth_code_try_result(p_email text, p_ok boolean)
returns void
language sql
security definer
set search_path = ''
as $$ select private.code_try_result(p_email, p_ok) $$;

/**
 * For the legacy register call: whether the address has a confirmed account, and if so whether its owner
 * may be told once more (the notices share the `auth_code.issue` limit, so register cannot flood an inbox).
 */
create or replace function public.auth_register_check(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing boolean := private.email_has_account(p_email);
begin
  return jsonb_build_object('existing', existing,
    'notify', existing and private.claim_code_issue(p_email) = 0);
end;
$$;

revoke all on function public.auth_check_signup_code(text, text), public.auth_code_try_result(text, boolean),
  public.auth_register_check(text)
  from public, anon, authenticated;
grant execute on function public.auth_check_signup_code(text, text), public.auth_code_try_result(text, boolean),
  public.auth_register_check(text)
  to service_role;
