-- Issue 27, "no removal without a hearing". One account and one confirmed mailbox removed a verified
-- report: the removal request went unanswered for 7 days and removal-expiry set the report to removed.
-- Now (docs/behaviour.md §11):
--   * an unanswered request on a VERIFIED report never removes it: at its deadline (7 days from the
--     confirmation of the requester's contact address) it is escalated to the admins' queue, and the
--     report stays up until an admin decides;
--   * an unanswered request on a PENDING report still hides it (status removed, SPEC's 1-week rule), and
--     also goes to the admins' queue, where an admin may put the report back;
--   * admins read the queue (public.admin_removal_queue: the request, the reporter's answer or its
--     absence, the deadline) and decide (public.decide_removal_request).

alter table public.removal_requests add column escalated_at timestamptz;
alter table public.removal_requests add column decided_at timestamptz;
alter table public.removal_requests add column decided_by uuid references auth.users (id) on delete set null;
comment on column public.removal_requests.escalated_at is
  'When the request reached its deadline unanswered and went to the admins'' queue (a verified report stays up; a pending one is hidden).';
comment on column public.removal_requests.decided_at is 'When an admin decided an escalated or answered request (decide_removal_request).';
comment on column public.removal_requests.decided_by is 'The admin who decided it.';
create index removal_requests_decided_by_idx on public.removal_requests (decided_by);
create index removal_requests_queue_idx on public.removal_requests (escalated_at)
  where escalated_at is not null and decided_at is null;
comment on table public.removal_requests is
  'Requests by a reported account holder to remove a report. The reporter is notified; without an answer in 7 days a pending report is hidden and the request goes to the admins; a verified report is only ever removed by an admin or its reporter.';

/**
 * The 1-week removal policy (issue 27): for each open request whose contact address was confirmed more
 * than 7 days ago and whose report's reporter answered none of the report's requests, the request is
 * escalated to the admins' queue; a pending report is hidden (status removed, its requests
 * report_removed), a verified report is left as it is (its request stays open for an admin). Returns
 * how many reports were hidden. Run hourly by removal-expiry (service role).
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
  with due as (
    update public.removal_requests rr
    set escalated_at = now()
    where rr.status = 'open'
      and rr.escalated_at is null
      and rr.contact_confirmed_at is not null
      and rr.contact_confirmed_at < now() - interval '7 days'
      and not exists (
        select 1 from public.removal_requests answered
        where answered.report_id = rr.report_id and answered.reporter_response is not null
          and (answered.status = 'open' or answered.responded_at >= rr.created_at))
    returning rr.report_id
  )
  update public.reports r set status = 'removed'
  where r.id in (select report_id from due) and r.status = 'pending';
  get diagnostics v_removed = row_count;
  -- A hidden report's open requests are settled with it (an admin may still reverse it from the queue).
  update public.removal_requests rr set status = 'report_removed', resolved_at = now()
  where rr.status = 'open'
    and exists (select 1 from public.reports r where r.id = rr.report_id and r.status = 'removed');
  return v_removed;
end
$$;
comment on function public.expire_removal_requests() is
  'Escalates open removal requests confirmed over 7 days ago whose reporter answered none of the report''s requests to the admins'' queue; hides their report only when it is pending (never a verified one). Returns how many reports were hidden. Service role only.';

/**
 * Admins' removal queue: every open request (answered ones wait for an admin) and every escalated one
 * no admin has decided, oldest deadline first, with the request, the reporter's answer (or null when
 * they did not answer) and the deadline (7 days from the contact confirmation; null while unconfirmed).
 */
create function public.admin_removal_queue()
returns table (
  request_id uuid,
  report_id uuid,
  reported_account text,
  report_status public.report_status,
  request_status public.removal_request_status,
  reason text,
  contact_email text,
  requested_at timestamptz,
  contact_confirmed_at timestamptz,
  deadline timestamptz,
  reporter_response text,
  responded_at timestamptz,
  escalated_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'only admins can read the removal queue' using errcode = '42501';
  end if;
  return query
  select rr.id, rr.report_id, r.reported_account, r.status, rr.status, rr.reason, rr.contact_email,
         rr.created_at, rr.contact_confirmed_at, rr.contact_confirmed_at + interval '7 days',
         rr.reporter_response, rr.responded_at, rr.escalated_at
  from public.removal_requests rr
  join public.reports r on r.id = rr.report_id
  where rr.decided_at is null
    and (rr.status = 'open' or rr.escalated_at is not null)
  order by rr.contact_confirmed_at + interval '7 days' nulls last, rr.created_at
  limit 500;
end
$$;
comment on function public.admin_removal_queue() is
  'Admins only: open and escalated, undecided removal requests with the request, the reporter''s answer or null, and the deadline (contact confirmation + 7 days).';
revoke execute on function public.admin_removal_queue() from public, anon;
grant execute on function public.admin_removal_queue() to authenticated, service_role;

/**
 * An admin decides a removal request: 'remove' removes the report (status removed; the report's open
 * requests report_removed); 'keep' keeps it (a report hidden by the 1-week rule goes back to pending;
 * the request is dismissed). Either way the request leaves the queue. Returns the request.
 */
create function public.decide_removal_request(request_id uuid, decision text)
returns public.removal_requests
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_request public.removal_requests;
  v_uid uuid := (select auth.uid());
begin
  if not private.is_admin() then
    raise exception 'only admins can decide removal requests' using errcode = '42501';
  end if;
  if decision is null or decision not in ('remove', 'keep') then
    raise exception 'decision must be remove or keep' using errcode = '22023';
  end if;
  select * into v_request from public.removal_requests rr where rr.id = decide_removal_request.request_id for update;
  if v_request.id is null then
    raise exception 'no such removal request' using errcode = 'P0002';
  end if;
  if decision = 'remove' then
    update public.reports r set status = 'removed' where r.id = v_request.report_id and r.status <> 'removed';
    update public.removal_requests rr set status = 'report_removed', resolved_at = coalesce(rr.resolved_at, now())
    where rr.report_id = v_request.report_id and rr.status = 'open';
  else
    -- A report the 1-week rule hid comes back for review; one removed otherwise stays removed.
    if v_request.escalated_at is not null and v_request.status = 'report_removed' then
      update public.reports r set status = 'pending' where r.id = v_request.report_id and r.status = 'removed';
    end if;
    update public.removal_requests rr set status = 'dismissed', resolved_at = now()
    where rr.id = v_request.id;
  end if;
  update public.removal_requests rr set decided_at = now(), decided_by = v_uid
  where rr.id = v_request.id
  returning * into v_request;
  return v_request;
end
$$;
comment on function public.decide_removal_request(uuid, text) is
  'Admins only: remove (the report goes) or keep (the request is dismissed; a report hidden by the 1-week rule returns to pending). Takes the request out of the queue.';
revoke execute on function public.decide_removal_request(uuid, text) from public, anon;
grant execute on function public.decide_removal_request(uuid, text) to authenticated, service_role;
