-- Issue 14, section 3: API keys and keyed limits for /api/v1.
--
-- A key is 'sck_' and 64 hex characters (32 random bytes). It is shown once, when it is made; the
-- database keeps only its SHA-256 (private.api_key_hashes, which no API role can read) and the first 12
-- characters ('sck_' + 8 hex, the visible prefix that names the key in lists). The api function hashes
-- the key a caller sends and asks public.api_limit, which the service role alone may call, for the
-- caller's bucket of the one limiter (private.rate_limit_take):
--   with a key:    api.key, per key ('key:<id>');
--   without a key: api.anon, per hashed client address (private.client_address_key(), as visits are);
--                  a request with no public address (a direct call on the local stack) is not limited.
-- A revoked or unknown key is refused on every request; nothing caches a key's state.

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('api.anon', 120, 60, 'Too many API requests from your address'),
  ('api.key', 1200, 60, 'Too many API requests with this key'),
  ('api_key.create', 20, 3600, 'Too many API keys made from your account');
insert into private.rate_limit_settings (name, value) values ('api_keys_per_user', '10');

create table public.api_keys (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 60 and name = btrim(name)),
  prefix text not null check (prefix ~ '^sck_[0-9a-f]{8}$'),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references auth.users (id) on delete set null
);
comment on table public.api_keys is 'API keys for /api/v1 (issue 14): name, visible prefix and state. The key itself is never stored; its hash is in private.api_key_hashes. Owners read their own, admins all; written only through create_api_key and revoke_api_key.';
comment on column public.api_keys.prefix is 'The first 12 characters of the key (sck_ and 8 hex), shown in lists to tell keys apart.';
comment on column public.api_keys.last_used_at is 'When the key last made a request, to the minute (updated at most once a minute).';
create index api_keys_user_id_idx on public.api_keys (user_id, created_at desc);
create index api_keys_revoked_by_idx on public.api_keys (revoked_by);
alter table public.api_keys enable row level security;
revoke all on public.api_keys from anon, authenticated;
grant select on public.api_keys to authenticated;
grant all on public.api_keys to service_role;
create policy "Owners read their own API keys, admins all" on public.api_keys
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create table private.api_key_hashes (
  key_id uuid not null primary key references public.api_keys (id) on delete cascade,
  key_hash text not null unique check (key_hash ~ '^[0-9a-f]{64}$')
);
comment on table private.api_key_hashes is 'SHA-256 (hex) of each API key; looked up by public.api_limit only.';
alter table private.api_key_hashes enable row level security;

/**
 * Makes an API key for the signed-in caller and returns it once: {id, name, prefix, key, created_at}.
 * At most api_keys_per_user (private.rate_limit_settings) keys that are not revoked, and api_key.create
 * a user an hour.
 */
create function public.create_api_key(name text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_name text := btrim(coalesce(create_api_key.name, ''));
  v_key text;
  v_max integer;
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to make an API key' using errcode = '42501';
  end if;
  if char_length(v_name) not between 1 and 60 then
    raise exception 'An API key''s name is 1 to 60 characters' using errcode = '22023';
  end if;
  perform private.rate_limit('api_key.create', 'user:' || v_uid);
  select coalesce(max(value::int), 10) into v_max from private.rate_limit_settings where rate_limit_settings.name = 'api_keys_per_user';
  -- One caller at a time, so parallel requests cannot overshoot the count.
  perform pg_advisory_xact_lock(hashtextextended('api_keys:' || v_uid, 0));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null) >= v_max then
    raise sqlstate 'PT409' using
      message = format('You already have %s API keys; revoke one before making another', v_max);
  end if;
  v_key := 'sck_' || encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.api_keys (user_id, name, prefix)
  values (v_uid, v_name, left(v_key, 12))
  returning * into v_row;
  insert into private.api_key_hashes (key_id, key_hash)
  values (v_row.id, encode(sha256(convert_to(v_key, 'UTF8')), 'hex'));
  return jsonb_build_object('id', v_row.id, 'name', v_row.name, 'prefix', v_row.prefix, 'key', v_key,
                            'created_at', v_row.created_at);
end
$$;
comment on function public.create_api_key(text) is
  'Signed-in users: makes an API key named name and returns it once ({id, name, prefix, key, created_at}); only its hash is kept.';
revoke execute on function public.create_api_key(text) from public, anon;
grant execute on function public.create_api_key(text) to authenticated, service_role;

/** Revokes a key: its owner or an admin. Revoking a revoked key changes nothing. Returns the key's row. */
create function public.revoke_api_key(key_id uuid)
returns public.api_keys
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to revoke an API key' using errcode = '42501';
  end if;
  select * into v_row from public.api_keys k where k.id = revoke_api_key.key_id for update;
  -- Someone else's key is "not found" to a non-admin, as RLS hides it from them.
  if v_row.id is null or (v_row.user_id <> v_uid and not private.is_admin()) then
    raise sqlstate 'PT404' using message = 'No such API key';
  end if;
  if v_row.revoked_at is null then
    update public.api_keys k set revoked_at = now(), revoked_by = v_uid
    where k.id = v_row.id
    returning * into v_row;
  end if;
  return v_row;
end
$$;
comment on function public.revoke_api_key(uuid) is 'The key''s owner or an admin: revokes the key at once (every later request with it gets 401).';
revoke execute on function public.revoke_api_key(uuid) from public, anon;
grant execute on function public.revoke_api_key(uuid) to authenticated, service_role;

/**
 * The api function's limiter, service role only. key_hash is the SHA-256 (hex) of the key the caller
 * sent, or null for none. Answers {status: 'unknown' | 'revoked'} for a key that is not (or no longer)
 * valid, else {status: 'ok', allowed, limit, remaining, reset, retry_after, window, subject_kind,
 * message (when refused)}; subject_kind is 'key', 'address' or 'none' (no public address: not limited).
 */
create function public.api_limit(key_hash text default null, cost integer default 1)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_key_id uuid;
  v_revoked timestamptz;
  v_last_used timestamptz;
  v_name text;
  v_subject text;
  v_limit private.rate_limits;
  r record;
begin
  if api_limit.key_hash is not null then
    select k.id, k.revoked_at, k.last_used_at into v_key_id, v_revoked, v_last_used
    from private.api_key_hashes h join public.api_keys k on k.id = h.key_id
    where h.key_hash = lower(api_limit.key_hash);
    if v_key_id is null then
      return jsonb_build_object('status', 'unknown');
    end if;
    if v_revoked is not null then
      return jsonb_build_object('status', 'revoked', 'revoked_at', v_revoked);
    end if;
    if v_last_used is null or v_last_used < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key_id;
    end if;
    v_name := 'api.key';
    v_subject := 'key:' || v_key_id;
  else
    v_name := 'api.anon';
    v_subject := private.client_address_key();
    if v_subject is null then
      return jsonb_build_object('status', 'ok', 'allowed', true, 'subject_kind', 'none');
    end if;
  end if;
  select * into v_limit from private.rate_limits l where l.name = v_name;
  select * into r from private.rate_limit_take(v_name, v_subject, greatest(coalesce(api_limit.cost, 1), 1));
  return jsonb_build_object(
    'status', 'ok', 'allowed', r.allowed, 'limit', r.max_calls, 'remaining', r.remaining,
    'reset', r.reset_seconds, 'retry_after', r.retry_after_seconds, 'window', v_limit.per_seconds,
    'subject_kind', case when v_name = 'api.key' then 'key' else 'address' end,
    'message', case when not r.allowed then
      format('%s: at most %s per %s. Please try again in %s.', v_limit.description, v_limit.max_calls,
             private.rate_limit_duration(v_limit.per_seconds), private.rate_limit_duration(r.retry_after_seconds))
    end);
end
$$;
comment on function public.api_limit(text, integer) is
  'Service role only (the api function): checks the API key by its SHA-256 and takes cost calls from api.key (per key) or api.anon (per hashed address).';
revoke execute on function public.api_limit(text, integer) from public, anon, authenticated;
grant execute on function public.api_limit(text, integer) to service_role;
