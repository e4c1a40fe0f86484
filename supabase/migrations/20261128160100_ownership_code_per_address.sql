-- Right of reply (issue 32): an ownership code goes to an address at most once a minute and 5 times an
-- hour, whoever asks and through however many proofs (the mail sink of a stranger's mailbox is not a
-- free mailer).
create or replace function public.issue_ownership_code(proof_id uuid)
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
  -- Serialises codes to one address, so two proofs cannot both pass the checks below at once.
  perform pg_advisory_xact_lock(hashtextextended('ownership_code:' || v.identifier_canonical, 0));
  if exists (select 1 from public.ownership_proofs p
              where p.identifier_canonical = v.identifier_canonical and p.method = 'email'
                and p.code_sent_at > now() - interval '1 minute') then
    raise exception 'A code was sent to this address less than a minute ago' using errcode = 'P0001', hint = '429';
  end if;
  if (select count(*) from public.ownership_proof_log l join public.ownership_proofs p on p.id = l.proof_id
       where p.identifier_canonical = v.identifier_canonical and p.method = 'email'
         and l.event = 'code_sent' and l.created_at > now() - interval '1 hour') >= 5 then
    raise exception 'Too many codes sent to this address; try again in an hour' using errcode = 'P0001', hint = '429';
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
comment on function public.issue_ownership_code(uuid) is 'Service role: a fresh code for an e-mail ownership proof, with the address and language to mail it in; one a minute and 5 an hour per address.';
