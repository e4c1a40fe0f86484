-- Accounts: roles (admin), profiles kept in step with auth.users by triggers (name, e-mail copy,
-- avatar, language), and the e-mail code checks.
--
-- E-mail codes die after a few wrong tries, counted in the database whoever calls. Every caller that
-- checks a code typed by a person asks this schema first: the legacy API's GET /api/v1/verify/{...}
-- (public.auth_check_signup_code, service role only) and the local stack's Auth at /auth/v1/verify. On
-- hosted Supabase, /auth/v1/verify is GoTrue's own and does not call this schema.
-- Counting: per code (after the setting code_wrong_tries the code is deleted), per address
-- (auth_code.address, whether or not it has an account, so answers cannot tell which addresses exist),
-- per client address (auth_verify.ip) and per codes e-mailed (auth_code.issue). A try is claimed before
-- the code is checked, so parallel guesses cannot overtake the count.

-- ---------------------------------------------------------------------------------------------
-- Roles
-- ---------------------------------------------------------------------------------------------
create type public.app_role as enum ('admin');
comment on type public.app_role is 'Roles beyond a signed-in user.';

create table public.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.app_role not null,
  granted_at timestamptz not null default now(),
  primary key (user_id, role)
);
alter table public.user_roles enable row level security;
revoke all on public.user_roles from anon, authenticated;
grant select on public.user_roles to authenticated;
comment on table public.user_roles is 'Roles granted to users (admin). Written only by private.grant_admin/revoke_admin; users read their own.';

/** True when the caller of the current request holds the admin role. */
create function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.user_roles
    where user_id = (select auth.uid()) and role = 'admin'
  )
$$;
revoke execute on function private.is_admin() from public, anon;
grant execute on function private.is_admin() to authenticated, service_role;
comment on function private.is_admin() is 'True when auth.uid() holds the admin role; used by policies and admin RPCs.';

/** Gives a user the admin role (npm run admin:grant, or the SQL editor of the dashboard). */
create function private.grant_admin(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.user_roles (user_id, role) values (grant_admin.user_id, 'admin')
  on conflict do nothing
$$;
revoke execute on function private.grant_admin(uuid) from public, anon, authenticated;
comment on function private.grant_admin(uuid) is 'Grants the admin role to a user; operators only.';

/** Takes the admin role away from a user. */
create function private.revoke_admin(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.user_roles where user_roles.user_id = revoke_admin.user_id and role = 'admin'
$$;
revoke execute on function private.revoke_admin(uuid) from public, anon, authenticated;
comment on function private.revoke_admin(uuid) is 'Revokes the admin role from a user; operators only.';

create policy "Users can read their own roles and admins every role" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Profiles
-- ---------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid not null primary key references auth.users (id) on delete cascade,
  name text check (char_length(name) <= 100),
  email text,
  avatar_path text check (char_length(avatar_path) <= 300)
    constraint profiles_avatar_path_object_name check (private.check_object_path(avatar_path, 'avatar_path')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  language text not null default 'en' constraint profiles_language_check check (language in ('en', 'fil'))
);
alter table public.profiles enable row level security;
revoke all on public.profiles from anon, authenticated;
grant select on public.profiles to authenticated;
grant update (name, avatar_path) on public.profiles to authenticated;
-- Only the owner changes language too: the update policy limits updates to one's own row.
grant update (language) on public.profiles to authenticated;
comment on column public.profiles.email is 'Copy of auth.users.email kept by triggers, for the admin user list; users cannot edit it here.';
comment on column public.profiles.language is 'The user''s language, ''en'' or ''fil'': the app''s and the e-mails''. Copied to auth.users.raw_user_meta_data.locale for the Auth e-mail templates.';
comment on table public.profiles is 'Public face of a user: name and avatar (a path in the avatars bucket). Created by a trigger on auth.users.';

create policy "Users can read their own profile and admins every profile" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));

create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (
    id = (select auth.uid())
    and (avatar_path is null or split_part(avatar_path, '/', 1) = (select auth.uid())::text)
  );

/** Creates the profile of a new auth user from the name given at sign-up. */
create function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, name, email)
  values (
    new.id,
    coalesce(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), split_part(new.email, '@', 1)),
    new.email
  );
  return new;
end
$$;
comment on function private.handle_new_user() is 'Trigger: creates public.profiles for every new auth.users row.';

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

/** Keeps profiles.email equal to the confirmed auth e-mail. */
create function private.handle_user_email_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email, updated_at = now() where id = new.id;
  return new;
end
$$;
comment on function private.handle_user_email_change() is 'Trigger: copies a changed auth.users.email to public.profiles.';

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.handle_user_email_change();

create trigger profiles_touch_updated_at before update on public.profiles
  for each row execute function private.touch_updated_at();

/** A new profile takes the language the user signed up in (sign-up metadata `locale`). */
create function private.profile_language_from_signup()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select case when u.raw_user_meta_data ->> 'locale' = 'fil' then 'fil' else 'en' end
    into new.language
    from auth.users u
   where u.id = new.id;
  new.language := coalesce(new.language, 'en');
  return new;
end
$$;
revoke all on function private.profile_language_from_signup() from public;
comment on function private.profile_language_from_signup() is 'Trigger: a new profile''s language comes from the sign-up metadata (locale), English otherwise.';

create trigger profile_language_from_signup
  before insert on public.profiles
  for each row execute function private.profile_language_from_signup();

/** Auth's e-mails (confirmation, recovery, e-mail change) choose their language by `.Data.locale`. */
create function private.sync_profile_language()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users
     set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('locale', new.language)
   where id = new.id;
  return new;
end
$$;
revoke all on function private.sync_profile_language() from public;
comment on function private.sync_profile_language() is 'Trigger: copies a changed profiles.language to auth.users.raw_user_meta_data.locale, which the Auth e-mail templates read.';

create trigger on_profile_language_changed
  after update of language on public.profiles
  for each row when (old.language is distinct from new.language)
  execute function private.sync_profile_language();

-- ---------------------------------------------------------------------------------------------
-- E-mail codes
-- ---------------------------------------------------------------------------------------------
create table private.code_attempts (
  email text primary key,
  -- the issue time of the code these tries were made against (null: the address had no code)
  code_issued_at timestamptz,
  tries integer not null default 0,
  updated_at timestamptz not null default now()
);
alter table private.code_attempts enable row level security;
revoke all on private.code_attempts from public, anon, authenticated, service_role;
comment on table private.code_attempts is 'Wrong tries against the e-mail code an address currently has; the code is deleted after code_wrong_tries.';

/** Takes one call of limit `p_name` for an e-mail address: 0 when allowed, else the seconds to wait. */
create function private.take_for_address(p_name text, p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select case when t.allowed then 0 else greatest(1, t.retry_after_seconds) end
  from private.rate_limit_take(p_name, 'email:' || md5(lower(trim(p_email)))) t
$$;
revoke all on function private.take_for_address(text, text) from public, anon, authenticated, service_role;
comment on function private.take_for_address(text, text) is 'Takes one call of a rate limit for an e-mail address: 0 when allowed, else the seconds to wait.';

/** When the code an address can type now was sent (the newest of its kinds), or null. */
create function private.latest_code_at(p_email text)
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
revoke all on function private.latest_code_at(text) from public, anon, authenticated, service_role;
comment on function private.latest_code_at(text) is 'When the code an address can type now was sent (the newest of its kinds), or null.';

/** Deletes every code e-mailed to an address (sign-up, sign-in, recovery, e-mail change, reauthentication). */
create function private.kill_codes(p_email text)
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
revoke all on function private.kill_codes(text) from public, anon, authenticated, service_role;
comment on function private.kill_codes(text) is 'Deletes every code e-mailed to an address (sign-up, sign-in, recovery, e-mail change, reauthentication).';

/** How many tries one code gets (private.rate_limit_settings `code_wrong_tries`). */
create function private.code_wrong_tries()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select value::integer from private.rate_limit_settings where name = 'code_wrong_tries'), 5)
$$;
revoke all on function private.code_wrong_tries() from public, anon, authenticated, service_role;
comment on function private.code_wrong_tries() is 'How many tries one e-mail code gets (rate_limit_settings code_wrong_tries).';

/**
 * Claims one try of the code sent to `p_email`, before the code is checked. Answers
 * {"ok": true}, or {"ok": false, "reason": "code_spent"} once the code has had its tries (it is then
 * deleted), or {"ok": false, "reason": "address_limit" | "client_limit", "retry_after": seconds}.
 */
create function private.claim_code_try(p_email text, p_client text default null)
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
revoke all on function private.claim_code_try(text, text) from public, anon, authenticated, service_role;
comment on function private.claim_code_try(text, text) is 'Claims one try of the code sent to an address before it is checked: {ok} or {ok: false, reason, retry_after}.';

/** After a claimed try: a right code clears the counts; a wrong one that used the last try deletes the code. */
create function private.code_try_result(p_email text, p_ok boolean)
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
revoke all on function private.code_try_result(text, boolean) from public, anon, authenticated, service_role;
comment on function private.code_try_result(text, boolean) is 'After a claimed try: a right code clears the counts; a wrong one that used the last try deletes the code.';

/** Counts one code e-mailed to `p_email`: 0 when allowed, else the seconds until another may be sent. */
create function private.claim_code_issue(p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.take_for_address('auth_code.issue', p_email)
$$;
revoke all on function private.claim_code_issue(text) from public, anon, authenticated, service_role;
comment on function private.claim_code_issue(text) is 'Counts one code e-mailed to an address: 0 when allowed, else the seconds until another may be sent.';

/** Whether an address belongs to a confirmed account (the legacy register call then mails the owner instead). */
create function private.email_has_account(p_email text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from auth.users u
                  where lower(u.email) = lower(trim(p_email)) and u.email_confirmed_at is not null)
$$;
revoke all on function private.email_has_account(text) from public, anon, authenticated, service_role;
comment on function private.email_has_account(text) is 'Whether an address belongs to a confirmed account (the legacy register call then mails the owner instead).';

/**
 * The legacy verify route's check of a typed sign-up code, all in the database: it claims a try, then
 * compares the code with the one stored for the address (GoTrue stores the hex SHA-224 of the address
 * followed by the code, with a `pkce_` prefix in PKCE flows). A right code answers
 * {"ok": true, "token_hash": ...}, which the route exchanges at Auth's /verify for a session (Auth checks
 * the expiry) and then reports with auth_code_try_result; a wrong one counts as a failed try at once.
 * So typed codes never reach Auth from this route, and every try is counted here.
 */
create function private.check_signup_code(p_email text, p_code text, p_client text default null)
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
comment on function private.check_signup_code(text, text, text) is 'Checks a typed sign-up code in the database, counting the try first: {ok, token_hash} for a right code, else the reason.';

-- The legacy API runs on Supabase's edge runtime with the service role; PostgREST exposes only `public`,
-- so its entry points live there, callable by the service role alone.
-- The client is the caller of the legacy route, whose X-Forwarded-For the function forwards; the
-- limiter's private.client_address_key() picks the trusted entry (README "Rate limits").
create function public.auth_check_signup_code(p_email text, p_code text)
returns jsonb
language sql
security definer
set search_path = ''
as $$ select private.check_signup_code(p_email, p_code, private.client_address_key()) $$;
revoke all on function public.auth_check_signup_code(text, text) from public, anon, authenticated;
grant execute on function public.auth_check_signup_code(text, text) to service_role;
comment on function public.auth_check_signup_code(text, text) is 'The legacy API''s sign-up code check (service role only); the client is the forwarded caller address.';

create function public.auth_code_try_result(p_email text, p_ok boolean)
returns void
language sql
security definer
set search_path = ''
as $$ select private.code_try_result(p_email, p_ok) $$;
revoke all on function public.auth_code_try_result(text, boolean) from public, anon, authenticated;
grant execute on function public.auth_code_try_result(text, boolean) to service_role;
comment on function public.auth_code_try_result(text, boolean) is 'The legacy API reports whether Auth accepted a right code''s token hash (service role only).';

/**
 * For the legacy register call: whether the address has a confirmed account, and if so whether its owner
 * may be told once more (the notices share the `auth_code.issue` limit, so register cannot flood an inbox).
 */
create function public.auth_register_check(p_email text)
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
revoke all on function public.auth_register_check(text) from public, anon, authenticated;
grant execute on function public.auth_register_check(text) to service_role;
comment on function public.auth_register_check(text) is 'For the legacy register call: whether the address has a confirmed account and whether its owner may be told again (service role only).';
