-- Issue 15: the removal request's confirmation e-mail goes to an outside contact address, which has no
-- profile of its own; it is written in the language of the signed-in user who filed the request
-- (profiles.language), as every other ScamCheck e-mail follows its recipient's account. The function
-- (20261123211000_removal_request_rules.sql) now also returns that language; the rest is unchanged.
drop function public.issue_removal_confirmations(integer);

/**
 * For the notify-dispatch job (service role): issues a confirmation link for open, unconfirmed requests
 * that have none yet and returns the tokens to mail (once; only their hashes are kept), with the
 * requester's language ('en' or 'fil'). A contact address past removal_confirm.address gets no mail:
 * its request stays unconfirmed and harmless.
 */
create function public.issue_removal_confirmations(max_rows integer default 50)
returns table (request_id uuid, contact_email text, reported_account text, token text, language text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  r record;
  v_token text;
  v_allowed boolean;
begin
  for r in
    select rr.id, rr.contact_email, rep.reported_account, coalesce(p.language, 'en') as language
    from public.removal_requests rr
    join public.reports rep on rep.id = rr.report_id
    left join public.profiles p on p.id = rr.requester_id
    where rr.status = 'open' and rr.contact_confirmed_at is null
      and not exists (select 1 from private.removal_confirmations c where c.request_id = rr.id)
    order by rr.created_at
    limit max_rows
    for update of rr skip locked
  loop
    select t.allowed into v_allowed
    from private.rate_limit_take('removal_confirm.address',
           'email:' || encode(sha256(convert_to(lower(btrim(r.contact_email)), 'UTF8')), 'hex')) t;
    if v_allowed then
      v_token := encode(extensions.gen_random_bytes(24), 'hex');
      insert into private.removal_confirmations (request_id, token_hash)
      values (r.id, encode(sha256(convert_to(v_token, 'UTF8')), 'hex'));
      request_id := r.id;
      contact_email := r.contact_email;
      reported_account := r.reported_account;
      token := v_token;
      language := r.language;
      return next;
    else
      insert into private.removal_confirmations (request_id, token_hash) values (r.id, null);
    end if;
  end loop;
end
$$;
comment on function public.issue_removal_confirmations(integer) is
  'Service role (notify-dispatch): issues confirmation tokens for open, unconfirmed removal requests and returns them for mailing, with the requester''s language; addresses past removal_confirm.address get none.';
revoke execute on function public.issue_removal_confirmations(integer) from public, anon, authenticated;
grant execute on function public.issue_removal_confirmations(integer) to service_role;
