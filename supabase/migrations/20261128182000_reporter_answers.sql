-- The reporter's side of a removal request (issue 31 item 3): the reporter reads the requests on their own
-- reports (without the requester's contact address) and answers them from the dashboard, and sees the
-- admins' decision and its reason there.
--
-- The table's policies already let the reporter read and answer (the legacy API's PATCH does the same
-- update); this migration adds what the product screen needs and the rules the answer was missing:
--   * public.my_report_removal_requests(): the confirmed requests on the caller's own reports, with the
--     answer, the deadline and the decision; never the requester's identity or contact address;
--   * an answer is 1-5,000 characters that are not all white space, and is taken only while no admin
--     has decided the request (open, or escalated to the admins after its deadline); admins are exempt.

/**
 * Removal requests on the caller's own reports whose requester confirmed their contact address (until
 * then the reporter is not told, docs/behaviour.md §11), newest first: what the requester wrote, where
 * the request stands, the deadline for an answer (confirmation + 7 days), the reporter's answer, and
 * the admins' decision with its reason and note. Security invoker: the table's RLS applies as well.
 */
create function public.my_report_removal_requests()
 returns table (
  id uuid,
  report_id uuid,
  reason text,
  status public.removal_request_status,
  created_at timestamptz,
  answer_by timestamptz,
  reporter_response text,
  responded_at timestamptz,
  escalated_at timestamptz,
  decision text,
  decision_reason text,
  decision_note text,
  decided_at timestamptz,
  can_answer boolean
 )
 language sql
 stable
 set search_path to ''
as $function$
  select rr.id, rr.report_id, rr.reason, rr.status, rr.created_at,
         rr.contact_confirmed_at + interval '7 days',
         rr.reporter_response, rr.responded_at, rr.escalated_at,
         rr.decision, rr.decision_reason, rr.decision_note, rr.decided_at,
         rr.decided_at is null and (rr.status = 'open' or rr.escalated_at is not null)
  from public.removal_requests rr
  join public.reports r on r.id = rr.report_id
  where r.reporter_id = (select auth.uid())
    and rr.contact_confirmed_at is not null
  order by rr.created_at desc
  limit 200
$function$;
alter function public.my_report_removal_requests() owner to postgres;
revoke execute on function public.my_report_removal_requests() from public, anon;
grant execute on function public.my_report_removal_requests() to authenticated, service_role;
comment on function public.my_report_removal_requests() is
  'The confirmed removal requests on the caller''s own reports (no requester identity or contact address), with the answer deadline, the answer, whether it can still be answered, and the admins'' decision and reason.';

/** The reporter answers with words, and only while the request waits for a decision. */
create function private.removal_requests_answer_rules()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if current_user not in ('anon', 'authenticated') or (select private.is_admin()) then
    return new;
  end if;
  if new.reporter_response is null or char_length(btrim(new.reporter_response)) = 0 then
    raise exception 'an answer needs some words' using errcode = '22023';
  end if;
  if old.decided_at is not null or not (old.status = 'open' or old.escalated_at is not null) then
    raise exception 'this removal request is already decided' using errcode = '42501';
  end if;
  new.reporter_response := btrim(new.reporter_response);
  return new;
end
$function$;
alter function private.removal_requests_answer_rules() owner to postgres;
grant execute on function private.removal_requests_answer_rules() to authenticated, service_role;
comment on function private.removal_requests_answer_rules() is
  'Trigger: a reporter''s answer is not blank and is accepted only while no admin has decided the request (admins and the service role are exempt).';

create trigger removal_requests_answer_rules before update of reporter_response on public.removal_requests
  for each row when (old.reporter_response is distinct from new.reporter_response)
  execute function private.removal_requests_answer_rules();
