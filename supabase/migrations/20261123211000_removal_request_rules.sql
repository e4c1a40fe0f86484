-- Forced removal (issue 11): any signed-in user could file unlimited removal requests for a report, the
-- report went if any one of them stayed unanswered for 7 days (even when the reporter answered the
-- others), the reporter got one attacker-written e-mail per request, and an unconfirmed contact address
-- was mailed every time. Now:
--   * one open removal request per report per requester;
--   * the reporter's answer to any request on a report answers the report's dispute;
--   * the requester's contact address is confirmed by an e-mailed link before anything is sent to or
--     about it: the reporter is notified (and the 7 days start) only at confirmation, and confirmation
--     mails to one address are limited;
--   * the expiry job removes a report only for an open, confirmed request, confirmed over 7 days ago,
--     on a report whose reporter answered no request.

alter table public.removal_requests add column contact_confirmed_at timestamptz;
comment on column public.removal_requests.contact_confirmed_at is
  'When the requester confirmed contact_email through the e-mailed link; until then the reporter is not told and the request cannot expire.';

-- Existing duplicates: the newest open request per report and requester stays open.
update public.removal_requests rr set status = 'dismissed', resolved_at = now()
where rr.status = 'open' and exists (
  select 1 from public.removal_requests n
  where n.report_id = rr.report_id and n.requester_id = rr.requester_id and n.status = 'open'
    and (n.created_at, n.id) > (rr.created_at, rr.id));
create unique index removal_requests_one_open_per_requester_idx
  on public.removal_requests (report_id, requester_id) where status = 'open';

create table private.removal_confirmations (
  request_id uuid not null primary key references public.removal_requests (id) on delete cascade,
  token_hash text,
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '48 hours',
  attempts integer not null default 0
);
comment on table private.removal_confirmations is
  'The confirmation link of a removal request''s contact address: a SHA-256 of the token mailed (null when the mail was withheld by the address limit), its expiry and wrong attempts.';
alter table private.removal_confirmations enable row level security;

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('removal_confirm.address', 3, 86400, 'Too many confirmation e-mails to this address');

/**
 * Before insert: a requester with an open request on the same report is refused with 409 (PT409)
 * naming it (the unique index keeps racing inserts out as well).
 */
create function private.removal_requests_one_open()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_open public.removal_requests;
begin
  select * into v_open from public.removal_requests rr
  where rr.report_id = new.report_id and rr.requester_id = new.requester_id and rr.status = 'open'
  limit 1;
  if v_open.id is null then
    return new;
  end if;
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT409',
      'message', format('You already asked for this report to be removed on %s; that request is still open.',
                        to_char(v_open.created_at at time zone 'UTC', 'FMMonth FMDD, YYYY')),
      'details', format('existing_request_id=%s', v_open.id),
      'hint', 'Wait for the reporter or an admin to answer it.')::text,
    detail = json_build_object('status', 409, 'headers', json_build_object())::text;
end
$$;
comment on function private.removal_requests_one_open() is 'Trigger: one open removal request per report per requester (409, PT409).';
revoke execute on function private.removal_requests_one_open() from public;
create trigger removal_requests_one_open before insert on public.removal_requests
  for each row when (new.status = 'open') execute function private.removal_requests_one_open();

-- The reporter hears of a request once its contact address is confirmed, not when it is filed.
drop trigger removal_requests_notify on public.removal_requests;
create trigger removal_requests_notify after update of contact_confirmed_at on public.removal_requests
  for each row when (old.contact_confirmed_at is null and new.contact_confirmed_at is not null and new.status = 'open')
  execute function private.removal_requests_notify();

/**
 * For the notify-dispatch job (service role): issues a confirmation link for open, unconfirmed requests
 * that have none yet and returns the tokens to mail (once; only their hashes are kept). A contact address
 * past removal_confirm.address gets no mail: its request stays unconfirmed and harmless.
 */
create function public.issue_removal_confirmations(max_rows integer default 50)
returns table (request_id uuid, contact_email text, reported_account text, token text)
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
    select rr.id, rr.contact_email, rep.reported_account
    from public.removal_requests rr
    join public.reports rep on rep.id = rr.report_id
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
      return next;
    else
      insert into private.removal_confirmations (request_id, token_hash) values (r.id, null);
    end if;
  end loop;
end
$$;
comment on function public.issue_removal_confirmations(integer) is
  'Service role (notify-dispatch): issues confirmation tokens for open, unconfirmed removal requests and returns them for mailing; addresses past removal_confirm.address get none.';
revoke execute on function public.issue_removal_confirmations(integer) from public, anon, authenticated;
grant execute on function public.issue_removal_confirmations(integer) to service_role;

/**
 * The link in the confirmation e-mail: confirms the request's contact address when the token matches
 * and has not expired (5 wrong tries end it). Anyone holding the link may confirm; nothing else is
 * needed, and nothing about the request is answered beyond whether it worked.
 */
create function public.confirm_removal_request(request_id uuid, token text)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_conf private.removal_confirmations;
  v_request public.removal_requests;
begin
  select * into v_conf from private.removal_confirmations c where c.request_id = confirm_removal_request.request_id for update;
  select * into v_request from public.removal_requests rr where rr.id = confirm_removal_request.request_id;
  if v_request.id is null or v_conf.request_id is null or v_conf.token_hash is null then
    return jsonb_build_object('confirmed', false, 'reason', 'unknown');
  end if;
  if v_request.contact_confirmed_at is not null then
    return jsonb_build_object('confirmed', true, 'reason', 'already');
  end if;
  if v_request.status <> 'open' then
    return jsonb_build_object('confirmed', false, 'reason', 'closed');
  end if;
  if v_conf.expires_at < now() or v_conf.attempts >= 5 then
    return jsonb_build_object('confirmed', false, 'reason', 'expired');
  end if;
  if token is null or encode(sha256(convert_to(token, 'UTF8')), 'hex') <> v_conf.token_hash then
    update private.removal_confirmations c set attempts = c.attempts + 1 where c.request_id = v_conf.request_id;
    return jsonb_build_object('confirmed', false, 'reason', 'wrong');
  end if;
  update public.removal_requests rr set contact_confirmed_at = now() where rr.id = v_request.id;
  return jsonb_build_object('confirmed', true, 'reason', 'confirmed');
end
$$;
comment on function public.confirm_removal_request(uuid, text) is
  'The e-mailed confirmation link: {confirmed, reason: confirmed|already|wrong|expired|closed|unknown}.';
revoke execute on function public.confirm_removal_request(uuid, text) from public;
grant execute on function public.confirm_removal_request(uuid, text) to anon, authenticated, service_role;

/**
 * The 1-week removal policy: a report is removed when it has an open removal request whose contact
 * address was confirmed more than 7 days ago and its reporter answered none of the report's open
 * requests (nor any request since this one was filed): one answer answers the report's dispute.
 * Run hourly by the scheduled edge function (service role).
 */
create or replace function public.expire_removal_requests()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_removed integer;
begin
  with expired as (
    update public.removal_requests rr
    set status = 'report_removed', resolved_at = now()
    where rr.status = 'open'
      and rr.contact_confirmed_at is not null
      and rr.contact_confirmed_at < now() - interval '7 days'
      and not exists (
        select 1 from public.removal_requests answered
        where answered.report_id = rr.report_id and answered.reporter_response is not null
          and (answered.status = 'open' or answered.responded_at >= rr.created_at))
    returning rr.report_id
  )
  update public.reports r set status = 'removed'
  where r.id in (select report_id from expired) and r.status <> 'removed';
  get diagnostics v_removed = row_count;
  -- The report's other open requests are settled with it.
  update public.removal_requests rr set status = 'report_removed', resolved_at = now()
  where rr.status = 'open' and exists (select 1 from public.reports r where r.id = rr.report_id and r.status = 'removed');
  return v_removed;
end
$$;
comment on function public.expire_removal_requests() is
  'Removes reports with an open removal request confirmed over 7 days ago whose reporter answered none of the report''s requests; returns how many. Service role only.';
