-- Right of reply (issue 32, docs/right-of-reply.md): the owner of a reported identifier proves control of
-- it and answers on the record.
--
-- * public.ownership_proofs: one row per attempt to prove an identifier (its canonical form, as reports
--   and Notify Me key it, so a mobile number proved once covers the e-wallet on the same number). Methods:
--   sms (Supabase Auth's phone_change verification: the caller's auth.users.phone, confirmed minutes ago),
--   email (a code this database issues and the `ownership` function mails), wellknown and dns (a
--   challenge the owner publishes, checked by the `ownership` function). A proof is live while verified,
--   not withdrawn and not expired; it lasts ownership_proof_days (private.rate_limit_settings).
-- * public.ownership_proof_log: every step of every proof (started, code sent, wrong code, checked,
--   verified, withdrawn), readable by the proof's owner and admins.
-- * public.owner_statements: one short statement per owner and identifier (1-500 characters, no links),
--   public while its author holds a live proof and no admin hid it; admins hide with a reason.
-- * Owners may watch their identifier (Notify Me) and ask for a report's removal without the e-mail link.
--
-- Writes go only through the security definer functions below; the tables grant API roles reads only.

insert into private.rate_limit_settings (name, value) values
  -- days a verified ownership proof lasts (right of reply)
  ('ownership_proof_days', '365'),
  -- minutes an e-mailed ownership code, or a phone confirmation to claim, stays good
  ('ownership_code_minutes', '15'),
  -- proofs one account may start per hour
  ('ownership_starts_per_hour', '10');

create type public.ownership_method as enum ('sms', 'email', 'dns', 'wellknown');
comment on type public.ownership_method is 'How an owner proved control: sms (phone_change code), email (e-mailed code), dns (TXT record), wellknown (file under /.well-known/).';

create table public.ownership_proofs (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  identifier_kind public.reported_account_type not null,
  identifier_canonical text not null check (char_length(identifier_canonical) between 1 and 320),
  method public.ownership_method not null,
  challenge text check (challenge ~ '^scamcheck-verify=[0-9a-f]{32}$'),
  code_hash text,
  code_sent_at timestamptz,
  wrong_tries integer not null default 0,
  created_at timestamptz not null default now(),
  verified_at timestamptz,
  expires_at timestamptz,
  withdrawn_at timestamptz,
  check (
    (method = 'sms' and identifier_kind in ('mobile', 'ewallet'))
    or (method = 'email' and identifier_kind = 'email')
    or (method in ('dns', 'wellknown') and identifier_kind = 'website' and challenge is not null)
  ),
  check ((verified_at is null) = (expires_at is null))
);
alter table public.ownership_proofs enable row level security;
revoke all on public.ownership_proofs from anon, authenticated;
-- The code's hash and tries are the server's: the owner reads everything else of their proofs.
grant select (id, user_id, identifier_kind, identifier_canonical, method, challenge, code_sent_at, created_at,
              verified_at, expires_at, withdrawn_at) on public.ownership_proofs to authenticated;
comment on table public.ownership_proofs is 'Attempts to prove control of an identifier (issue 32). Live: verified_at set, withdrawn_at null, expires_at in the future. Written only by the right-of-reply functions.';
comment on column public.ownership_proofs.challenge is 'For dns/wellknown: the text the owner publishes (TXT record at _scamcheck.<host>, or /.well-known/scamcheck-verification.txt).';
comment on column public.ownership_proofs.code_hash is 'For email: SHA-256 of the e-mailed code (never the code).';

create index ownership_proofs_user_id_idx on public.ownership_proofs (user_id, created_at desc);
create index ownership_proofs_identifier_idx on public.ownership_proofs (identifier_canonical)
  where verified_at is not null and withdrawn_at is null;

create policy "Owners read their own proofs and admins every proof" on public.ownership_proofs
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create table public.ownership_proof_log (
  id bigint generated always as identity primary key,
  proof_id uuid not null references public.ownership_proofs (id) on delete cascade,
  event text not null check (event in ('started', 'code_sent', 'code_wrong', 'checked', 'verified', 'withdrawn', 'expired')),
  ok boolean,
  detail text check (char_length(detail) <= 500),
  created_at timestamptz not null default now()
);
alter table public.ownership_proof_log enable row level security;
revoke all on public.ownership_proof_log from anon, authenticated;
grant select on public.ownership_proof_log to authenticated;
comment on table public.ownership_proof_log is 'Every step of every ownership proof, and every check of a website (what was fetched and why it failed).';

create index ownership_proof_log_proof_id_idx on public.ownership_proof_log (proof_id, created_at);

create policy "Owners read their proofs' log and admins every log" on public.ownership_proof_log
  for select to authenticated
  using (
    (select private.is_admin())
    or exists (select 1 from public.ownership_proofs p where p.id = proof_id and p.user_id = (select auth.uid()))
  );

create table public.owner_statements (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  identifier_canonical text not null,
  body text not null check (char_length(btrim(body)) between 1 and 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  hidden_at timestamptz,
  hidden_reason text check (char_length(btrim(hidden_reason)) between 1 and 500),
  hidden_by uuid references auth.users (id) on delete set null,
  unique (user_id, identifier_canonical),
  check ((hidden_at is null) = (hidden_reason is null))
);
alter table public.owner_statements enable row level security;
revoke all on public.owner_statements from anon, authenticated;
grant select on public.owner_statements to authenticated;
comment on table public.owner_statements is 'A verified owner''s answer on the record (issue 32): public through public.owner_statement while its author holds a live proof of the identifier and no admin hid it.';

create index owner_statements_identifier_idx on public.owner_statements (identifier_canonical);
create index owner_statements_hidden_by_idx on public.owner_statements (hidden_by);

create policy "Authors read their own statements and admins every statement" on public.owner_statements
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------------------------
create function private.ownership_setting(p_name text, p_default integer)
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.value::integer from private.rate_limit_settings s where s.name = p_name), p_default);
$$;
revoke execute on function private.ownership_setting(text, integer) from public, anon, authenticated;
comment on function private.ownership_setting(text, integer) is 'A right-of-reply setting from private.rate_limit_settings, or the default.';

/** The live proof (newest) a user holds for a canonical identifier, or null. */
create function private.live_proof(p_user uuid, p_canonical text)
returns public.ownership_proofs
language sql
stable
security definer
set search_path = ''
as $$
  select p.* from public.ownership_proofs p
  where p.user_id = p_user and p.identifier_canonical = p_canonical
    and p.verified_at is not null and p.withdrawn_at is null and p.expires_at > now()
  order by p.verified_at desc
  limit 1;
$$;
revoke execute on function private.live_proof(uuid, text) from public, anon, authenticated;
comment on function private.live_proof(uuid, text) is 'The newest live (verified, not withdrawn, not expired) proof a user holds for a canonical identifier.';

/** True when text holds something a reader could follow: a URL, www., an e-mail address or a host name. */
create function private.has_link(p_text text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_text ~* '([a-z][a-z0-9+.-]*://|www[.]|[^[:space:]@]+@[^[:space:]@]+[.][a-z]|[[:alnum:]-][.](com|net|org|ph|io|co|info|biz|xyz|me|app|site|online|shop|top|link|ly|gl|to|cc|us|uk|asia|gov|edu|dev|page)([^[:alpha:]]|$))';
$$;
comment on function private.has_link(text) is 'True when text holds a URL, www., an e-mail address or a common host name: owner statements may hold none.';

create function private.log_proof(p_proof uuid, p_event text, p_ok boolean, p_detail text)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.ownership_proof_log (proof_id, event, ok, detail) values (p_proof, p_event, p_ok, left(p_detail, 500));
$$;
revoke execute on function private.log_proof(uuid, text, boolean, text) from public, anon, authenticated;
comment on function private.log_proof(uuid, text, boolean, text) is 'Adds a step to public.ownership_proof_log.';

create function private.verify_proof(p_proof uuid, p_detail text)
returns public.ownership_proofs
language plpgsql
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
begin
  update public.ownership_proofs p
     set verified_at = now(),
         expires_at = now() + make_interval(days => private.ownership_setting('ownership_proof_days', 365)),
         code_hash = null
   where p.id = p_proof
  returning * into v;
  perform private.log_proof(p_proof, 'verified', true, p_detail);
  return v;
end
$$;
revoke execute on function private.verify_proof(uuid, text) from public, anon, authenticated;
comment on function private.verify_proof(uuid, text) is 'Marks a proof verified for ownership_proof_days and logs it.';

/** The answer every right-of-reply function gives about a proof (never the code's hash). */
create function private.proof_json(p public.ownership_proofs)
returns jsonb
language sql
stable
set search_path = ''
as $$
  select jsonb_build_object(
    'id', p.id, 'identifier_kind', p.identifier_kind, 'identifier', p.identifier_canonical, 'method', p.method,
    'challenge', p.challenge, 'created_at', p.created_at, 'verified_at', p.verified_at,
    'expires_at', p.expires_at, 'withdrawn_at', p.withdrawn_at,
    'live', p.verified_at is not null and p.withdrawn_at is null and p.expires_at > now());
$$;
revoke execute on function private.proof_json(public.ownership_proofs) from public, anon, authenticated;
comment on function private.proof_json(public.ownership_proofs) is 'A proof as the right-of-reply functions answer it (never the code hash).';

-- ---------------------------------------------------------------------------------------------
-- Proving
-- ---------------------------------------------------------------------------------------------
/**
 * Starts a proof of an identifier by the caller: email (then the `ownership` function mails a code),
 * wellknown or dns (the answer's challenge is what to publish). sms is not started here: see
 * public.claim_phone_ownership.
 */
create function public.start_ownership_proof(kind text, value text, method public.ownership_method)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v public.ownership_proofs;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501';
  end if;
  if kind is null or lower(kind) not in ('email', 'website') then
    raise exception 'only e-mail addresses and websites are proved this way' using errcode = '22023',
      hint = 'Mobile numbers and e-wallets are proved by SMS: public.claim_phone_ownership.';
  end if;
  if method is null or method = 'sms' or (lower(kind) = 'email') <> (method = 'email') then
    raise exception 'an e-mail address is proved by e-mail, a website by dns or wellknown' using errcode = '22023';
  end if;
  v_canonical := public.canonical_identifier(lower(kind), value);
  if v_canonical is null or char_length(v_canonical) > 320 then
    raise exception 'not a valid %', lower(kind) using errcode = '22023';
  end if;
  if lower(kind) = 'email' and v_canonical !~ '^[^[:space:]@]+@[^[:space:]@]+[.][^[:space:]@]+$' then
    raise exception 'not a valid e-mail address' using errcode = '22023';
  end if;
  if lower(kind) = 'website' and v_canonical !~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?([.][a-z0-9]([a-z0-9-]*[a-z0-9])?)+$' then
    raise exception 'not a valid website host name' using errcode = '22023';
  end if;
  if (select count(*) from public.ownership_proofs p
       where p.user_id = v_uid and p.created_at > now() - interval '1 hour')
     >= private.ownership_setting('ownership_starts_per_hour', 10) then
    raise exception 'Too many ownership proofs started; try again in an hour' using errcode = 'P0001', hint = '429';
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method, challenge)
  values (v_uid, lower(kind)::public.reported_account_type, v_canonical, method,
          case when method in ('dns', 'wellknown') then 'scamcheck-verify=' || encode(extensions.gen_random_bytes(16), 'hex') end)
  returning * into v;
  perform private.log_proof(v.id, 'started', null, method::text);
  return private.proof_json(v);
end
$$;
revoke execute on function public.start_ownership_proof(text, text, public.ownership_method) from public;
grant execute on function public.start_ownership_proof(text, text, public.ownership_method) to authenticated;
comment on function public.start_ownership_proof(text, text, public.ownership_method) is
  'Starts proving an e-mail address (method email) or website (dns, wellknown) for the caller; answers the proof with its challenge.';

/**
 * For the `ownership` function (service role): issues a fresh 6-digit code for an unverified e-mail
 * proof and answers it with the address to mail it to (only the code's hash is kept). At most one code
 * a minute per proof.
 */
create function public.issue_ownership_code(proof_id uuid)
returns table (address text, code text, language text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
  v_code text;
begin
  select * into v from public.ownership_proofs p where p.id = issue_ownership_code.proof_id for update;
  if v.id is null or v.method <> 'email' or v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'no e-mail proof waiting for a code' using errcode = '22023';
  end if;
  if v.code_sent_at > now() - interval '1 minute' then
    raise exception 'A code was sent less than a minute ago' using errcode = 'P0001', hint = '429';
  end if;
  v_code := lpad((('x' || encode(extensions.gen_random_bytes(4), 'hex'))::bit(32)::bigint % 1000000)::text, 6, '0');
  update public.ownership_proofs p
     set code_hash = encode(sha256(convert_to(v_code, 'UTF8')), 'hex'), code_sent_at = now(), wrong_tries = 0
   where p.id = v.id;
  perform private.log_proof(v.id, 'code_sent', null, null);
  return query select v.identifier_canonical, v_code,
    coalesce((select pr.language from public.profiles pr where pr.id = v.user_id), 'en');
end
$$;
revoke execute on function public.issue_ownership_code(uuid) from public, anon, authenticated;
grant execute on function public.issue_ownership_code(uuid) to service_role;
comment on function public.issue_ownership_code(uuid) is 'Service role: a fresh code for an e-mail ownership proof, with the address and language to mail it in.';

/** The owner types the e-mailed code: 5 wrong tries end the code; it lasts ownership_code_minutes. */
create function public.verify_ownership_code(proof_id uuid, code text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p
   where p.id = verify_ownership_code.proof_id and p.user_id = auth.uid() for update;
  if v.id is null or v.method <> 'email' then
    raise exception 'no such e-mail proof' using errcode = '22023';
  end if;
  if v.verified_at is not null then
    return private.proof_json(v);
  end if;
  if v.code_hash is null or v.withdrawn_at is not null or v.wrong_tries >= 5
     or v.code_sent_at < now() - make_interval(mins => private.ownership_setting('ownership_code_minutes', 15)) then
    raise exception 'The code has expired; ask for a new one' using errcode = '22023';
  end if;
  if code is null or encode(sha256(convert_to(btrim(code), 'UTF8')), 'hex') <> v.code_hash then
    update public.ownership_proofs p set wrong_tries = p.wrong_tries + 1 where p.id = v.id;
    perform private.log_proof(v.id, 'code_wrong', false, null);
    -- The wrong try is kept (the function returns instead of raising, so the update commits).
    return private.proof_json(v) || jsonb_build_object('error', 'wrong_code');
  end if;
  return private.proof_json(private.verify_proof(v.id, 'e-mail code'));
end
$$;
revoke execute on function public.verify_ownership_code(uuid, text) from public;
grant execute on function public.verify_ownership_code(uuid, text) to authenticated;
comment on function public.verify_ownership_code(uuid, text) is 'Checks the e-mailed code of the caller''s e-mail proof; answers the proof, with error wrong_code when the code was wrong.';

/** For the `ownership` function (service role): logs one website check and verifies the proof when it passed. */
create function public.record_ownership_check(proof_id uuid, ok boolean, detail text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p where p.id = record_ownership_check.proof_id for update;
  if v.id is null or v.method not in ('dns', 'wellknown') then
    raise exception 'no such website proof' using errcode = '22023';
  end if;
  perform private.log_proof(v.id, 'checked', ok, detail);
  if ok and v.verified_at is null and v.withdrawn_at is null then
    v := private.verify_proof(v.id, detail);
  end if;
  return private.proof_json(v);
end
$$;
revoke execute on function public.record_ownership_check(uuid, boolean, text) from public, anon, authenticated;
grant execute on function public.record_ownership_check(uuid, boolean, text) to service_role;
comment on function public.record_ownership_check(uuid, boolean, text) is 'Service role: logs a website check and verifies the proof when it passed.';

/**
 * Proof by SMS: the caller confirmed a phone number through Supabase Auth (updateUser({ phone }), then
 * verifyOtp type phone_change) within ownership_code_minutes; if that number is the identifier, the
 * proof is recorded as verified by sms.
 */
create function public.claim_phone_ownership(kind text, value text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v_phone text;
  v_confirmed timestamptz;
  v public.ownership_proofs;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501';
  end if;
  if kind is null or lower(kind) not in ('mobile', 'ewallet') then
    raise exception 'only mobile numbers and e-wallets are proved by SMS' using errcode = '22023';
  end if;
  v_canonical := public.canonical_identifier(lower(kind), value);
  if v_canonical is null or v_canonical !~ '^\+[0-9]{8,15}$' then
    raise exception 'not a valid mobile number' using errcode = '22023';
  end if;
  select u.phone, u.phone_confirmed_at into v_phone, v_confirmed from auth.users u where u.id = v_uid;
  if v_phone is null or v_phone = '' or public.canonical_identifier('mobile', '+' || ltrim(v_phone, '+')) <> v_canonical
     or v_confirmed is null
     or v_confirmed < now() - make_interval(mins => private.ownership_setting('ownership_code_minutes', 15)) then
    raise exception 'confirm this number by SMS code first' using errcode = '22023';
  end if;
  v := private.live_proof(v_uid, v_canonical);
  if v.id is not null and v.method = 'sms' then
    return private.proof_json(v);
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method)
  values (v_uid, lower(kind)::public.reported_account_type, v_canonical, 'sms')
  returning * into v;
  perform private.log_proof(v.id, 'started', null, 'sms');
  return private.proof_json(private.verify_proof(v.id, 'phone_change code confirmed ' || v_confirmed::text));
end
$$;
revoke execute on function public.claim_phone_ownership(text, text) from public;
grant execute on function public.claim_phone_ownership(text, text) to authenticated;
comment on function public.claim_phone_ownership(text, text) is 'Records an SMS proof of a mobile number or e-wallet the caller confirmed through Auth''s phone_change in the last ownership_code_minutes.';

create function public.withdraw_ownership_proof(proof_id uuid)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
begin
  update public.ownership_proofs p set withdrawn_at = now(), code_hash = null
   where p.id = withdraw_ownership_proof.proof_id and p.user_id = auth.uid() and p.withdrawn_at is null
  returning * into v;
  if v.id is null then
    raise exception 'no such proof' using errcode = '22023';
  end if;
  perform private.log_proof(v.id, 'withdrawn', null, null);
  return private.proof_json(v);
end
$$;
revoke execute on function public.withdraw_ownership_proof(uuid) from public;
grant execute on function public.withdraw_ownership_proof(uuid) to authenticated;
comment on function public.withdraw_ownership_proof(uuid) is 'The owner withdraws a proof: their statement on that identifier stops showing.';

-- ---------------------------------------------------------------------------------------------
-- The answer on the record
-- ---------------------------------------------------------------------------------------------
create function public.set_owner_statement(identifier text, body text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_proof public.ownership_proofs;
  v public.owner_statements;
  v_body text := btrim(body);
begin
  v_proof := private.live_proof(v_uid, identifier);
  if v_uid is null or v_proof.id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501';
  end if;
  if v_body is null or char_length(v_body) not between 1 and 500 then
    raise exception 'a statement is 1 to 500 characters' using errcode = '22023';
  end if;
  if private.has_link(v_body) then
    raise exception 'a statement may not hold links, web or e-mail addresses' using errcode = '22023';
  end if;
  insert into public.owner_statements as s (user_id, identifier_canonical, body)
  values (v_uid, identifier, v_body)
  on conflict (user_id, identifier_canonical) do update
    set body = excluded.body, updated_at = now()
  returning * into v;
  return jsonb_build_object('id', v.id, 'body', v.body, 'updated_at', v.updated_at, 'hidden', v.hidden_at is not null);
end
$$;
revoke execute on function public.set_owner_statement(text, text) from public;
grant execute on function public.set_owner_statement(text, text) to authenticated;
comment on function public.set_owner_statement(text, text) is 'A verified owner writes or replaces their statement on a canonical identifier (1-500 characters, no links). A hidden statement stays hidden when edited.';

create function public.hide_owner_statement(statement_id uuid, reason text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'only admins can hide statements' using errcode = '42501';
  end if;
  if reason is null or char_length(btrim(reason)) not between 1 and 500 then
    raise exception 'give a reason (1 to 500 characters)' using errcode = '22023';
  end if;
  update public.owner_statements s
     set hidden_at = now(), hidden_reason = btrim(reason), hidden_by = auth.uid()
   where s.id = statement_id;
  if not found then
    raise exception 'no such statement' using errcode = '22023';
  end if;
end
$$;
revoke execute on function public.hide_owner_statement(uuid, text) from public;
grant execute on function public.hide_owner_statement(uuid, text) to authenticated;
comment on function public.hide_owner_statement(uuid, text) is 'Admins: hides an abusive owner statement, with a reason its author can read.';

create function public.unhide_owner_statement(statement_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'only admins can show statements again' using errcode = '42501';
  end if;
  update public.owner_statements s set hidden_at = null, hidden_reason = null, hidden_by = null where s.id = statement_id;
end
$$;
revoke execute on function public.unhide_owner_statement(uuid) from public;
grant execute on function public.unhide_owner_statement(uuid) to authenticated;
comment on function public.unhide_owner_statement(uuid) is 'Admins: shows a hidden owner statement again.';

/**
 * The owner's public answers on an identifier (any kind, canonicalised here): the statements whose
 * authors hold a live proof and no admin hid, newest first, each with the proof's method and date.
 * Never the author. Used by search, the legacy API and the message check.
 */
create function public.owner_statements_for(canonicals text[])
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object(
           'identifier', s.identifier_canonical,
           'statement', s.body,
           'updated_at', s.updated_at,
           'verified_by', p.method,
           'verified_at', p.verified_at
         ) order by s.updated_at desc), '[]'::jsonb)
  from public.owner_statements s
  cross join lateral private.live_proof(s.user_id, s.identifier_canonical) p
  where s.identifier_canonical = any (canonicals[1:20])
    and s.hidden_at is null
    and p.id is not null;
$$;
revoke execute on function public.owner_statements_for(text[]) from public;
grant execute on function public.owner_statements_for(text[]) to anon, authenticated, service_role;
comment on function public.owner_statements_for(text[]) is 'Public: live, unhidden owner statements on up to 20 canonical identifiers, [{identifier, statement, updated_at, verified_by, verified_at}]; never who wrote them.';

-- ---------------------------------------------------------------------------------------------
-- Owners watch and ask for removal
-- ---------------------------------------------------------------------------------------------
/** The owner watches their proved identifier (Notify Me); new reports notify them, never naming the reporter. */
create function public.watch_owned_identifier(identifier text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or (private.live_proof(auth.uid(), identifier)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501';
  end if;
  if not exists (select 1 from public.notify_registrations nr
                  where nr.user_id = auth.uid() and nr.identifier_canonical = identifier) then
    insert into public.notify_registrations (user_id, asset_name)
    values (auth.uid(), identifier);
  end if;
end
$$;
revoke execute on function public.watch_owned_identifier(text) from public;
grant execute on function public.watch_owned_identifier(text) to authenticated;
comment on function public.watch_owned_identifier(text) is 'A verified owner watches their identifier (Notify Me).';

/**
 * A verified owner asks for a report on their identifier to be removed: the request counts as confirmed
 * at once (their account's e-mail is the contact; their proof replaces the e-mailed link), so the
 * reporter is notified and the week of docs/behaviour.md §11 starts now.
 */
create function public.owner_request_removal(report_id uuid, reason text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v_email text;
  v_id uuid;
begin
  select r.reported_account_canonical into v_canonical from public.reports r
   where r.id = owner_request_removal.report_id and r.status in ('pending', 'verified');
  if v_canonical is null then
    raise exception 'no such report' using errcode = '22023';
  end if;
  if v_uid is null or (private.live_proof(v_uid, v_canonical)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501';
  end if;
  select u.email into v_email from auth.users u where u.id = v_uid;
  insert into public.removal_requests (report_id, requester_id, reason, contact_email)
  values (owner_request_removal.report_id, v_uid, btrim(reason), v_email)
  returning id into v_id;
  update public.removal_requests rr set contact_confirmed_at = now() where rr.id = v_id;
  return v_id;
end
$$;
revoke execute on function public.owner_request_removal(uuid, text) from public;
grant execute on function public.owner_request_removal(uuid, text) to authenticated;
comment on function public.owner_request_removal(uuid, text) is 'A verified owner''s removal request: confirmed at once (no e-mailed link), the reporter is notified.';
