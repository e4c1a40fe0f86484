-- The reporter never reads the requester's contact address (issue 31, security fix).
--
-- The select policy of public.removal_requests let the reporter of a report read every column of the
-- requests on it, contact_email and requester_id included (a plain `select * from removal_requests` as
-- the reporter, or the legacy GET /api/v1/removal-requests), and even requests whose requester had not
-- yet confirmed the address (the reporter is not to be told of those, docs/behaviour.md §11).
--
-- Now the table's rows are read by their requester and by admins only. The reporter reads the requests
-- on their own reports through public.my_report_removal_requests() (security definer from here on: the
-- request, its reason, the deadline, the answer and the decision; never the requester or the address)
-- and answers through public.answer_removal_request(), which applies the answer rules the table's
-- update did (not blank, at most 5,000 characters, only while no admin has decided).

drop policy "Requesters, the reporter and admins can read removal requests" on public.removal_requests;
create policy "Requesters and admins can read removal requests" on public.removal_requests
  for select to authenticated
  using (requester_id = (select auth.uid()) or (select private.is_admin()));

-- An update that names rows must see them (the select policy applies too), so the reporter's update
-- through the table is gone with the read; admins resolve through the table as before.
drop policy "The reporter can answer and admins can resolve removal requests" on public.removal_requests;
create policy "Admins can resolve removal requests" on public.removal_requests
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- It filters on the caller's own reports and confirmed requests itself and returns no contact column;
-- it must now see past the table's policy, which no longer shows the reporter these rows.
alter function public.my_report_removal_requests() security definer;
comment on function public.my_report_removal_requests() is
  'The confirmed removal requests on the caller''s own reports (no requester identity or contact address), with the answer deadline, the answer, whether it can still be answered, and the admins'' decision and reason. Security definer: the table shows these rows to their requester and admins only.';

/**
 * The reporter answers a removal request on their own report: 1-5,000 characters that are not all white
 * space, taken only while no admin has decided the request (open, or escalated after its deadline).
 * Returns the request as the reporter may see it (no requester, no contact address); P0002 when the
 * caller is not the reporter of that request's report (or it does not exist), so nothing is confirmed
 * to a stranger.
 */
create function public.answer_removal_request(request_id uuid, answer text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_uid uuid := auth.uid();
  v_request public.removal_requests;
  v_answer text := btrim(answer);
begin
  if v_uid is null then
    raise exception 'sign in to answer a removal request' using errcode = '42501';
  end if;
  select rr.* into v_request
  from public.removal_requests rr
  join public.reports r on r.id = rr.report_id
  where rr.id = answer_removal_request.request_id and r.reporter_id = v_uid
  for update of rr;
  if not found then
    raise exception 'no removal request on your reports with this id' using errcode = 'P0002';
  end if;
  if v_answer is null or char_length(v_answer) = 0 then
    raise exception 'an answer needs some words' using errcode = '22023';
  end if;
  if char_length(v_answer) > 5000 then
    raise exception 'an answer has at most 5000 characters' using errcode = '22023';
  end if;
  if v_request.decided_at is not null or not (v_request.status = 'open' or v_request.escalated_at is not null) then
    raise exception 'this removal request is already decided' using errcode = '42501';
  end if;
  -- removal_requests_before_write stamps responded_at.
  update public.removal_requests rr set reporter_response = v_answer
  where rr.id = v_request.id
  returning rr.* into v_request;
  return jsonb_build_object(
    'id', v_request.id,
    'report_id', v_request.report_id,
    'reason', v_request.reason,
    'status', v_request.status,
    'created_at', v_request.created_at,
    'contact_confirmed_at', v_request.contact_confirmed_at,
    'answer_by', v_request.contact_confirmed_at + interval '7 days',
    'reporter_response', v_request.reporter_response,
    'responded_at', v_request.responded_at,
    'escalated_at', v_request.escalated_at);
end
$function$;
alter function public.answer_removal_request(uuid, text) owner to postgres;
revoke execute on function public.answer_removal_request(uuid, text) from public, anon;
grant execute on function public.answer_removal_request(uuid, text) to authenticated, service_role;
comment on function public.answer_removal_request(uuid, text) is
  'The reporter answers a removal request on their own report (not blank, at most 5,000 characters, only while no admin has decided); returns the request without the requester or their contact address.';
