-- The reporter's answer to a removal request (20261129100000) refuses with stable codes, as the other
-- refusals the app shows do (20261129120000_error_codes.sql): a request that is gone, or already decided,
-- is told in the reader's language by its code, not by the English sentence. The body is otherwise the
-- same.
create or replace function public.answer_removal_request(request_id uuid, answer text)
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
    raise exception 'no removal request on your reports with this id'
      using errcode = 'P0002', hint = '{"code": "removal_request_missing"}';
  end if;
  if v_answer is null or char_length(v_answer) = 0 then
    raise exception 'an answer needs some words' using errcode = '22023';
  end if;
  if char_length(v_answer) > 5000 then
    raise exception 'an answer has at most 5000 characters' using errcode = '22023';
  end if;
  if v_request.decided_at is not null or not (v_request.status = 'open' or v_request.escalated_at is not null) then
    raise exception 'this removal request is already decided'
      using errcode = '42501', hint = '{"code": "removal_request_decided"}';
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
