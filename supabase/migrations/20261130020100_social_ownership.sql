-- Right of reply for social media and chat accounts (issue 32, docs/right-of-reply.md).
--
-- A proof of a 'social' identifier (its canonical form: t.me/<name>, facebook.com/<page>, ...) starts
-- with method 'bio' and a short code (scamcheck-<12 hex>) the owner places in the account's public bio:
-- * where the platform's public page shows the bio to a visitor without signing in (Telegram), the
--   `ownership` function fetches the page and records the check here (public.record_bio_check);
-- * otherwise, or when the page does not show it, the owner sends evidence (the profile link, a
--   screenshot through the upload-image function, a note): public.ownership_evidence, one waiting at a
--   time, and an admin who is not the owner approves (the proof becomes method 'review', verified) or
--   rejects it with a reason the owner reads.
-- Expiry, withdrawal and the log are the other proofs' (20261128160000_right_of_reply.sql).

-- The proof's rules, with the social branch added. The new methods are compared as text: a migration
-- run in the same transaction as the one adding them may not use them as enum literals.
alter table public.ownership_proofs drop constraint ownership_proofs_check;
alter table public.ownership_proofs add constraint ownership_proofs_check check (
  (method = 'sms' and identifier_kind in ('mobile', 'ewallet'))
  or (method = 'email' and identifier_kind = 'email')
  or (method in ('dns', 'wellknown') and identifier_kind = 'website' and challenge is not null)
  or (method::text in ('bio', 'review') and identifier_kind::text = 'social' and challenge ~ '^scamcheck-[0-9a-f]{12}$')
);
alter table public.ownership_proofs drop constraint ownership_proofs_challenge_check;
alter table public.ownership_proofs add constraint ownership_proofs_challenge_check
  check (challenge ~ '^scamcheck-verify=[0-9a-f]{32}$' or challenge ~ '^scamcheck-[0-9a-f]{12}$');
comment on column public.ownership_proofs.challenge is 'For dns/wellknown: the text the owner publishes (TXT record at _scamcheck.<host>, or /.well-known/scamcheck-verification.txt). For bio/review: the code the owner places in the account''s public bio.';

alter table public.ownership_proof_log drop constraint ownership_proof_log_event_check;
alter table public.ownership_proof_log add constraint ownership_proof_log_event_check check (event in (
  'started', 'code_sent', 'code_wrong', 'checked', 'verified', 'withdrawn', 'expired',
  'evidence_submitted', 'evidence_approved', 'evidence_rejected'));

insert into private.rate_limit_settings (name, value) values
  -- evidence an account may send for review per day (all its social proofs together)
  ('ownership_evidence_per_day', '5')
on conflict (name) do nothing;

create table public.ownership_evidence (
  id uuid not null primary key default gen_random_uuid(),
  proof_id uuid not null references public.ownership_proofs (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  profile_url text not null check (char_length(profile_url) between 1 and 500),
  image_path text check (char_length(image_path) between 1 and 200),
  note text check (char_length(note) <= 1000),
  created_at timestamptz not null default now(),
  decision text check (decision in ('approved', 'rejected')),
  decided_at timestamptz,
  decided_by uuid references auth.users (id) on delete set null,
  reason text check (char_length(btrim(reason)) between 1 and 500),
  check ((decision is null) = (decided_at is null)),
  check (decision is distinct from 'rejected' or reason is not null)
);
alter table public.ownership_evidence enable row level security;
revoke all on public.ownership_evidence from anon, authenticated;
grant select on public.ownership_evidence to authenticated;
comment on table public.ownership_evidence is 'An owner''s evidence that they control a social or chat account (issue 32), for an admin''s review. Written only by public.submit_ownership_evidence and public.decide_ownership_evidence.';
comment on column public.ownership_evidence.image_path is 'A screenshot in the evidence bucket, in the owner''s own folder (uploaded through the upload-image function).';

create unique index ownership_evidence_one_waiting_idx on public.ownership_evidence (proof_id) where decision is null;
create index ownership_evidence_proof_id_idx on public.ownership_evidence (proof_id, created_at desc);
create index ownership_evidence_user_id_idx on public.ownership_evidence (user_id, created_at desc);
create index ownership_evidence_waiting_idx on public.ownership_evidence (created_at) where decision is null;
create index ownership_evidence_decided_by_idx on public.ownership_evidence (decided_by);

create policy "Owners read their own evidence and admins all evidence" on public.ownership_evidence
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

/**
 * Starts proving a social media or chat account (kind 'social', any link to it): answers the proof
 * with the code to place in the account's public bio.
 */
create function public.start_social_proof(value text)
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
  v_canonical := public.canonical_identifier('social', value);
  if v_canonical is null or char_length(v_canonical) > 320 then
    raise exception 'not a link to a social media or chat account' using errcode = '22023';
  end if;
  if (select count(*) from public.ownership_proofs p
       where p.user_id = v_uid and p.created_at > now() - interval '1 hour')
     >= private.ownership_setting('ownership_starts_per_hour', 10) then
    raise exception 'Too many ownership proofs started; try again in an hour' using errcode = 'P0001', hint = '429';
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method, challenge)
  values (v_uid, 'social', v_canonical, 'bio', 'scamcheck-' || encode(extensions.gen_random_bytes(6), 'hex'))
  returning * into v;
  perform private.log_proof(v.id, 'started', null, 'bio');
  return private.proof_json(v);
end
$$;
revoke execute on function public.start_social_proof(text) from public;
grant execute on function public.start_social_proof(text) to authenticated;
comment on function public.start_social_proof(text) is 'Starts proving a social media or chat account for the caller; answers the proof with the code (challenge) to place in its public bio.';

/** For the `ownership` function (service role): logs one bio check and verifies the proof when it passed. */
create function public.record_bio_check(proof_id uuid, ok boolean, detail text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p where p.id = record_bio_check.proof_id for update;
  if v.id is null or v.method <> 'bio' then
    raise exception 'no such bio proof' using errcode = '22023';
  end if;
  perform private.log_proof(v.id, 'checked', ok, detail);
  if ok and v.verified_at is null and v.withdrawn_at is null then
    v := private.verify_proof(v.id, detail);
  end if;
  return private.proof_json(v);
end
$$;
revoke execute on function public.record_bio_check(uuid, boolean, text) from public, anon, authenticated;
grant execute on function public.record_bio_check(uuid, boolean, text) to service_role;
comment on function public.record_bio_check(uuid, boolean, text) is 'Service role: logs a check of a social account''s public bio and verifies the proof when the code was there.';

/**
 * The owner sends evidence for an admin's review: the account's profile link (it must name the proved
 * account), optionally a screenshot they uploaded to the evidence bucket (their own folder) and a note.
 * One waiting per proof; at most ownership_evidence_per_day a day per account.
 */
create function public.submit_ownership_evidence(proof_id uuid, profile_url text, image_path text default null, note text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v public.ownership_proofs;
  v_url text := btrim(profile_url);
  v_image text := nullif(btrim(image_path), '');
  v_note text := nullif(btrim(note), '');
  v_evidence public.ownership_evidence;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501';
  end if;
  select * into v from public.ownership_proofs p
   where p.id = submit_ownership_evidence.proof_id and p.user_id = v_uid for update;
  if v.id is null or v.method not in ('bio', 'review') then
    raise exception 'no such social account proof' using errcode = '22023';
  end if;
  if v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'this proof is no longer waiting' using errcode = '22023';
  end if;
  if v_url is null or char_length(v_url) > 500 or v_url !~* '^https?://'
     or public.canonical_identifier('social', v_url) is distinct from v.identifier_canonical then
    raise exception 'the profile link must be a link to %', v.identifier_canonical using errcode = '22023';
  end if;
  if v_note is not null and char_length(v_note) > 1000 then
    raise exception 'a note is at most 1000 characters' using errcode = '22023';
  end if;
  if v_image is not null and (split_part(v_image, '/', 1) <> v_uid::text or not exists (
       select 1 from storage.objects o where o.bucket_id = 'evidence' and o.name = v_image)) then
    raise exception 'the screenshot must be one you uploaded' using errcode = '22023';
  end if;
  if exists (select 1 from public.ownership_evidence e
              where e.proof_id = v.id and e.decision is null) then
    raise exception 'your evidence is already waiting for review' using errcode = '22023';
  end if;
  if (select count(*) from public.ownership_evidence e
       where e.user_id = v_uid and e.created_at > now() - interval '1 day')
     >= private.ownership_setting('ownership_evidence_per_day', 5) then
    raise exception 'Too much evidence sent today; try again tomorrow' using errcode = 'P0001', hint = '429';
  end if;
  insert into public.ownership_evidence (proof_id, user_id, profile_url, image_path, note)
  values (v.id, v_uid, v_url, v_image, v_note)
  returning * into v_evidence;
  perform private.log_proof(v.id, 'evidence_submitted', null, v_evidence.id::text);
  return jsonb_build_object('id', v_evidence.id, 'proof_id', v.id, 'created_at', v_evidence.created_at);
end
$$;
revoke execute on function public.submit_ownership_evidence(uuid, text, text, text) from public;
grant execute on function public.submit_ownership_evidence(uuid, text, text, text) to authenticated;
comment on function public.submit_ownership_evidence(uuid, text, text, text) is 'The owner of a waiting social account proof sends evidence (profile link naming the account, optional own screenshot and note) for an admin''s review; one waiting per proof.';

/**
 * Admins decide on evidence: approved, the proof becomes method 'review' and verified (for
 * ownership_proof_days); rejected, with a reason the owner reads. Nobody decides on their own evidence.
 */
create function public.decide_ownership_evidence(evidence_id uuid, approve boolean, reason text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_uid uuid := auth.uid();
  v_evidence public.ownership_evidence;
  v public.ownership_proofs;
  v_reason text := nullif(btrim(reason), '');
begin
  if v_uid is null or not private.is_admin() then
    raise exception 'only admins review ownership evidence' using errcode = '42501';
  end if;
  if approve is null then
    raise exception 'approve or reject' using errcode = '22023';
  end if;
  if v_reason is not null and char_length(v_reason) > 500 then
    raise exception 'a reason is at most 500 characters' using errcode = '22023';
  end if;
  if not approve and v_reason is null then
    raise exception 'give a reason for the rejection (1 to 500 characters)' using errcode = '22023';
  end if;
  select * into v_evidence from public.ownership_evidence e
   where e.id = decide_ownership_evidence.evidence_id for update;
  if v_evidence.id is null then
    raise exception 'no such evidence' using errcode = '22023';
  end if;
  if v_evidence.user_id = v_uid then
    raise exception 'you cannot review your own evidence' using errcode = '42501';
  end if;
  if v_evidence.decision is not null then
    raise exception 'this evidence was already decided' using errcode = '22023';
  end if;
  select * into v from public.ownership_proofs p where p.id = v_evidence.proof_id for update;
  if v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'this proof is no longer waiting' using errcode = '22023';
  end if;
  update public.ownership_evidence e
     set decision = case when approve then 'approved' else 'rejected' end,
         decided_at = now(), decided_by = v_uid, reason = v_reason
   where e.id = v_evidence.id
  returning * into v_evidence;
  perform private.log_proof(v.id, case when approve then 'evidence_approved' else 'evidence_rejected' end,
                            approve, coalesce(v_reason, v_evidence.id::text));
  if approve then
    update public.ownership_proofs p set method = 'review' where p.id = v.id;
    v := private.verify_proof(v.id, 'admin review of evidence ' || v_evidence.id::text);
  end if;
  return jsonb_build_object('id', v_evidence.id, 'decision', v_evidence.decision, 'reason', v_evidence.reason,
                            'proof', private.proof_json(v));
end
$$;
revoke execute on function public.decide_ownership_evidence(uuid, boolean, text) from public;
grant execute on function public.decide_ownership_evidence(uuid, boolean, text) to authenticated;
comment on function public.decide_ownership_evidence(uuid, boolean, text) is 'Admins: approve (the proof is verified by review) or reject with a reason an owner''s evidence for a social account; never one''s own.';

-- A screenshot sent as evidence is referenced: the upload cleanup keeps it.
create or replace function private.referenced_upload(p_bucket text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case p_bucket
    when 'avatars' then exists (select 1 from public.profiles p where p.avatar_path = p_name)
    -- evidence_paths holds evidence_path as its first element; @> uses reports_evidence_paths_idx.
    when 'evidence' then exists (select 1 from public.reports r where r.evidence_paths @> array[p_name])
                      or exists (select 1 from public.ownership_evidence e where e.image_path = p_name)
    when 'news-banners' then exists (select 1 from public.news n where n.banner_path = p_name)
    else true
  end
$$;
comment on function private.referenced_upload(text, text) is
  'Whether a row refers to an object of an image bucket (profiles.avatar_path, any of reports.evidence_paths or ownership_evidence.image_path, news.banner_path); other buckets count as referenced.';
revoke all on function private.referenced_upload(text, text) from public, anon, authenticated;

create index ownership_evidence_image_path_idx on public.ownership_evidence (image_path) where image_path is not null;
