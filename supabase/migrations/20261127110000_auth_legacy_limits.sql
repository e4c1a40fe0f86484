-- Issue 28 ("Security, third round"): the limits the legacy API's auth routes go through, the
-- per-recipient e-mail cap, and Auth data that must not fail with 5xx. All of it is product SQL that
-- holds on hosted Supabase as it does locally: the legacy API (an edge function) calls these with the
-- service role and forwards its caller's X-Forwarded-For, so private.client_address_key() sees the
-- caller (IPv6 by its /64, migration ..._address_key_ipv6_prefix.sql). docs/security.md has the whole
-- picture, including what hosted GoTrue does by itself.

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('auth_login.account', 10, 900, 'Too many sign-in attempts for this account'),
  ('mail.recipient', 5, 86400, 'Too many e-mails to this address today');

-- ---------------------------------------------------------------------------------------------
-- Legacy login: a per-account limit on password tries
-- ---------------------------------------------------------------------------------------------

/**
 * Claims one password try for an account of the legacy POST /api/v1/auth/login, before Auth checks the
 * password: {"ok": true, "known": bool} or {"ok": false, "retry_after": seconds}. Every try counts
 * whether or not the address has an account (so the answer tells nothing); a right password clears the
 * count (auth_login_result). `known` says whether an account with a password has the address: the
 * function checks the others' passwords against a decoy account instead, so Auth does the same work
 * for both (docs/security.md "Timing"); it never leaves the function. Hosted GoTrue has no per-account
 * count of its own (its password verification hook is a paid feature); docs/security.md "Passwords".
 */
create function public.auth_login_claim(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_wait integer := private.take_for_address('auth_login.account', p_email);
begin
  if v_wait > 0 then
    return jsonb_build_object('ok', false, 'retry_after', v_wait);
  end if;
  return jsonb_build_object('ok', true, 'known', exists (
    select 1 from auth.users u
     where lower(u.email) = lower(trim(p_email)) and coalesce(u.encrypted_password, '') <> ''));
end
$$;
comment on function public.auth_login_claim(text) is
  'Legacy login: claims one password try for an e-mail address (auth_login.account): {ok} or {ok: false, retry_after}. Service role only.';

/** After a claimed try: a right password clears the account's count. */
create function public.auth_login_result(p_email text, p_ok boolean)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from private.rate_limit_buckets
   where p_ok and name = 'auth_login.account' and subject = 'email:' || md5(lower(trim(p_email)))
$$;
comment on function public.auth_login_result(text, boolean) is
  'Legacy login: a right password clears the account''s try count. Service role only.';

-- ---------------------------------------------------------------------------------------------
-- Legacy verify link: token hashes count against the caller's address
-- ---------------------------------------------------------------------------------------------

/**
 * One try of a token hash through the legacy GET /api/v1/verify/{...} (the e-mail link's form), counted
 * against the caller's address in `auth_verify.ip`, the limit the typed-code path of the same route
 * spends: {"ok": true} or {"ok": false, "retry_after": seconds}. A request without an address (no
 * trusted proxy named one) counts in one shared bucket, so leaving the header out buys nothing.
 */
create function public.auth_verify_link_try()
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_wait integer;
begin
  select case when t.allowed then 0 else greatest(1, t.retry_after_seconds) end into v_wait
    from private.rate_limit_take('auth_verify.ip', coalesce(private.client_address_key(), 'ip:none')) t;
  if v_wait > 0 then
    return jsonb_build_object('ok', false, 'retry_after', v_wait);
  end if;
  return jsonb_build_object('ok', true);
end
$$;
comment on function public.auth_verify_link_try() is
  'Legacy verify link: one token-hash try against the caller''s address (auth_verify.ip): {ok} or {ok: false, retry_after}. Service role only.';

-- ---------------------------------------------------------------------------------------------
-- E-mails: a per-recipient cap
-- ---------------------------------------------------------------------------------------------

/**
 * Counts one e-mail the product is about to send to `p_email` (limit mail.recipient, a few a day per
 * address): 0 when it may be sent, else the seconds until another may. Every e-mail a person can make
 * the product send to somebody else goes through this (the legacy register's notices and sign-ups,
 * removal notices); docs/security.md "E-mail" lists them and what GoTrue caps by itself.
 */
create function public.mail_recipient_take(p_email text)
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.take_for_address('mail.recipient', p_email)
$$;
comment on function public.mail_recipient_take(text) is
  'Counts one e-mail to an address (mail.recipient): 0 when it may be sent, else seconds to wait. Service role only.';

/**
 * Replaces the legacy register check (migration ..._auth_code_attempts.sql): whether the address has a
 * confirmed account, and whether one more e-mail may go to it. Now every e-mail register causes (the
 * owner's notice, and the sign-up confirmation for an address without a confirmed account) spends the
 * recipient's `mail.recipient` allowance, so register cannot flood a stranger's mailbox.
 */
create or replace function public.auth_register_check(p_email text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  existing boolean := private.email_has_account(p_email);
  v_wait integer := public.mail_recipient_take(p_email);
begin
  return jsonb_build_object('existing', existing, 'notify', v_wait = 0, 'retry_after', v_wait);
end;
$$;

revoke all on function public.auth_login_claim(text), public.auth_login_result(text, boolean),
  public.auth_verify_link_try(), public.mail_recipient_take(text)
  from public, anon, authenticated;
grant execute on function public.auth_login_claim(text), public.auth_login_result(text, boolean),
  public.auth_verify_link_try(), public.mail_recipient_take(text)
  to service_role;

-- ---------------------------------------------------------------------------------------------
-- Auth data that failed with 5xx
-- ---------------------------------------------------------------------------------------------

/**
 * A new profile's name: the sign-up name cut to the profile's 100 characters (a longer one made the
 * insert fail, and Auth answer 500), else the e-mail's local part.
 */
create or replace function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, name, email)
  values (
    new.id,
    left(coalesce(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), split_part(new.email, '@', 1)), 100),
    new.email
  );
  return new;
end
$$;

/**
 * Keeps user metadata small: metadata over 4 KB (as JSON text) is cut to the keys the product reads,
 * `name` (at most 100 characters) and `locale`. GoTrue sets no size of its own, and an exception here
 * would make it answer 500, so the row is trimmed instead; docs/security.md "Account data".
 */
create function private.cap_user_metadata()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if octet_length(coalesce(new.raw_user_meta_data, '{}'::jsonb)::text) > 4096 then
    new.raw_user_meta_data := jsonb_strip_nulls(jsonb_build_object(
      'name', left(case when jsonb_typeof(new.raw_user_meta_data -> 'name') = 'string'
                        then new.raw_user_meta_data ->> 'name' end, 100),
      'locale', case when new.raw_user_meta_data ->> 'locale' in ('en', 'fil')
                     then new.raw_user_meta_data ->> 'locale' end));
  end if;
  return new;
end
$$;
comment on function private.cap_user_metadata() is
  'Trigger: user metadata over 4 KB is cut to name (100 characters) and locale.';
revoke all on function private.cap_user_metadata() from public;
create trigger cap_user_metadata
  before insert or update of raw_user_meta_data on auth.users
  for each row execute function private.cap_user_metadata();

/** An unknown or expired ref now answers 404 (PostgREST's PT404), not 500 (P0002). */
create or replace function public.search_top_identifier(ref uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_canonical text;
begin
  select t.identifier_canonical into v_canonical from private.stats_top_identifiers t where t.ref = search_top_identifier.ref;
  if v_canonical is null then
    raise exception 'this list entry has expired; the list is refreshed every hour' using errcode = 'PT404';
  end if;
  return public.search_reports(v_canonical);
end
$$;
