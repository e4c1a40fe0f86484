-- Codes across the wire, the refusals still without one (issue 36, items 3 and 4 leftovers): the
-- admin-only refusals ({"code": "admin_only"}), acting on a row that is not the caller's (an identifier
-- not proved, a proof or removal request of someone else: ownership_required, ownership_proof_missing,
-- removal_request_not_own, evidence_not_own), the search inputs (search_length, search_too_long,
-- check_too_many, check_identifier_invalid) and the other refusals of the same functions that the app
-- shows (a reply, reason or note too long or missing, a record that is gone, an undo too late). As in
-- 20261129120000_error_codes.sql the code and its parameters travel as JSON in the error's hint, the
-- SQLSTATE and the English message stay as they were (the legacy API's words, docs/error-codes.md).
-- Each function below is its last definition again with only hints added to its raises. public.admin_users
-- and public.admin_review_queue carry theirs in 20261130010100_reporter_counts.sql and
-- 20261130010200_review_queue_batch.sql, their last definitions. Refusals only
-- a hand-made call can meet (a decision, sort or role outside the app's fixed choices) keep their
-- message alone.

CREATE OR REPLACE FUNCTION private.removal_requests_before_write()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  api_caller boolean := current_user in ('anon', 'authenticated');
begin
  if tg_op = 'INSERT' then
    if api_caller and (new.status <> 'open' or new.requester_id is distinct from (select auth.uid())) then
      raise exception 'a removal request is filed open, by yourself' using errcode = '42501', hint = '{"code": "removal_request_not_own"}';
    end if;
    return new;
  end if;
  if api_caller then
    new.created_at := old.created_at;
  end if;
  if api_caller and not (select private.is_admin()) and (new.status, new.resolved_at) is distinct from (old.status, old.resolved_at) then
    raise exception 'only admins can resolve removal requests' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if new.reporter_response is distinct from old.reporter_response then
    new.responded_at := now();
  end if;
  if new.status <> 'open' and old.status = 'open' and new.resolved_at is null then
    new.resolved_at := now();
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_sync_evidence_paths()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_path text;
begin
  if tg_op = 'INSERT' then
    if cardinality(new.evidence_paths) = 0 and new.evidence_path is not null then
      new.evidence_paths := array[new.evidence_path];
    end if;
  elsif new.evidence_paths is not distinct from old.evidence_paths
        and new.evidence_path is distinct from old.evidence_path then
    new.evidence_paths := case
      when new.evidence_path is null then coalesce(old.evidence_paths[2:], '{}')
      else array[new.evidence_path] || coalesce(old.evidence_paths[2:], '{}')
    end;
  end if;
  new.evidence_path := new.evidence_paths[1];
  if current_user in ('anon', 'authenticated') then
    foreach v_path in array new.evidence_paths loop
      if split_part(v_path, '/', 1) is distinct from new.reporter_id::text then
        raise exception 'evidence_paths must be in the reporter''s own folder of the evidence bucket'
          using errcode = '42501', hint = '{"code": "evidence_not_own"}';
      end if;
    end loop;
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.search_reports(search_string text, searcher uuid, visitor jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_kind text;
  v_key text;
  v_signed_in boolean := searcher is not null;
  v_count integer;
  v_verdict record;
  v_amount numeric;
  v_amounts integer;
  v_country text;
  v_reports jsonb;
  v_points jsonb;
begin
  if search_string is null or char_length(btrim(search_string)) = 0 or char_length(search_string) > 256 then
    raise exception 'search_string must be 1 to 256 characters' using errcode = '22023', hint = jsonb_build_object('code', 'search_length', 'min', 1, 'max', 256)::text;
  end if;
  v_kind := public.detect_identifier_kind(search_string);
  v_key := public.canonical_identifier(v_kind, search_string);

  select count(*)::int,
         sum(r.amount_lost) filter (where r.status = 'verified'),
         count(r.amount_lost) filter (where r.status = 'verified')::int,
         (array_agg(r.country order by r.created_at desc) filter (where r.country is not null))[1]
  into v_count, v_amount, v_amounts, v_country
  from public.reports r
  where r.reported_account_canonical = v_key and r.status in ('pending', 'verified');

  if v_count = 0 then
    select 0 as verified_count, 0 as pending_count, 0 as risk_level, 'low' as risk_label into v_verdict;
    v_reports := '[]'::jsonb;
    v_points := '[]'::jsonb;
  else
    select * into v_verdict from private.identifier_verdict(v_key);
    select coalesce(jsonb_agg(
             jsonb_build_object(
               'reported_date', l.created_at::date,
               'incident_date', l.incident_date,
               'incident_type', l.incident_type,
               'reported_account_type', l.reported_account_type,
               'location', l.location,
               'status', case when l.status = 'verified' then 'verified' else 'not-verified' end
             ) || case when v_signed_in then jsonb_build_object(
               'id', l.id,
               'reported_account', l.reported_account,
               'country', l.country,
               'incident_description', l.incident_description,
               'amount_lost', case when l.reporter_id = searcher then l.amount_lost end
             ) else '{}'::jsonb end
             order by l.created_at desc), '[]'::jsonb)
    into v_reports
    from (
      select * from public.reports r
      where r.reported_account_canonical = v_key and r.status in ('pending', 'verified')
      order by r.created_at desc
      limit 10
    ) l;

    select coalesce(jsonb_agg(jsonb_build_array(split_part(p.loc, ',', 1)::float8, split_part(p.loc, ',', 2)::float8)), '[]'::jsonb)
    into v_points
    from (
      select r.loc from public.reports r
      where r.reported_account_canonical = v_key and r.status in ('pending', 'verified') and r.loc is not null
      order by r.created_at desc
      limit 1000
    ) p;
  end if;

  insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                 city, region, country, loc, org, postal, ip_hash)
  values (
    left(search_string, 256), v_kind, v_key, v_count, searcher,
    left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
    case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
    left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
    case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
  );
  return jsonb_build_object(
    'count', v_count,
    'reports', v_reports,
    'summary', jsonb_build_object(
      'count', v_count,
      'last_victim_country', v_country,
      'risk_level', v_verdict.risk_level,
      'risk_label', v_verdict.risk_label,
      'estimated_amount_lost', case when v_amounts >= 5 then v_amount end,
      'verified_count', v_verdict.verified_count,
      'pending_count', v_verdict.pending_count,
      'risk_basis', case when v_verdict.verified_count > 0 then 'verified'
                         when v_verdict.pending_count > 0 then 'unverified_only' else 'none' end,
      'risk_note', private.unverified_note(v_verdict.verified_count, v_verdict.pending_count)
    ),
    'points', v_points
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.check_identifiers(identifiers jsonb, visitor jsonb DEFAULT NULL::jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_result jsonb;
  v_key text := private.client_address_key();
  v_uid uuid := (select auth.uid());
begin
  if v_key is not null then
    perform private.rate_limit('check.ip', v_key);
  end if;
  if v_uid is not null then
    perform private.rate_limit('check.user', 'user:' || v_uid);
  end if;
  if identifiers is null or jsonb_typeof(identifiers) <> 'array' or jsonb_array_length(identifiers) > 50 then
    raise exception 'identifiers must be an array of at most 50 {type, value}' using errcode = '22023', hint = jsonb_build_object('code', 'check_too_many', 'max', 50)::text;
  end if;
  if exists (
    select 1 from jsonb_array_elements(identifiers) e
    where jsonb_typeof(e) <> 'object'
       or coalesce(e ->> 'type', '') not in ('mobile', 'email', 'website', 'ewallet', 'crypto')
       or char_length(btrim(coalesce(e ->> 'value', ''))) not between 1 and 256
  ) then
    raise exception 'each identifier needs a type (mobile, email, website, ewallet or crypto) and a value of 1 to 256 characters'
      using errcode = '22023', hint = jsonb_build_object('code', 'check_identifier_invalid', 'max', 256)::text;
  end if;

  with input as (
    select e.ord, e.v ->> 'type' as kind, e.v ->> 'value' as value,
           public.canonical_identifier(e.v ->> 'type', e.v ->> 'value') as canonical
    from jsonb_array_elements(identifiers) with ordinality as e(v, ord)
  ),
  found as (
    select i.ord, i.kind, i.value, i.canonical, d.verified_count, d.pending_count, d.risk_level, d.risk_label,
           d.verified_count + d.pending_count as n
    from input i
    cross join lateral private.identifier_verdict(i.canonical) d
  ),
  logged as (
    insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                   city, region, country, loc, org, postal, ip_hash)
    select left(f.value, 256), f.kind, f.canonical, f.n, v_uid,
           left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
           case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
           left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
           case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
    from found f
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'type', f.kind,
           'value', f.value,
           'canonical', f.canonical,
           'count', f.n,
           'risk_level', f.risk_level,
           'risk_label', f.risk_label,
           'verified_count', f.verified_count,
           'pending_count', f.pending_count,
           'risk_note', private.unverified_note(f.verified_count, f.pending_count)
         ) order by f.ord), '[]'::jsonb)
  into v_result
  from found f;
  return v_result;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_app_stats()
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read site statistics' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  return (
    select jsonb_build_object(
      'contact', coalesce(sum(value) filter (where name = 'contact_messages'), 0)::bigint,
      'verifiedReports', coalesce(sum(value) filter (where name = 'verified_reports'), 0)::bigint,
      'users', coalesce(sum(value) filter (where name = 'users'), 0)::bigint,
      'reports', coalesce(sum(value) filter (where name = 'reports'), 0)::bigint,
      'search', coalesce(sum(value) filter (where name = 'searches'), 0)::bigint,
      'visitor', coalesce(sum(value) filter (where name = 'visitors'), 0)::bigint
    )
    from private.site_counters
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_contact_message_extras(message_ids uuid[])
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read contact messages' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  return coalesce((
    select jsonb_object_agg(m.id, jsonb_build_object(
      'handled_by_email', (select u.email from auth.users u where u.id = m.handled_by),
      'replies', coalesce((
        select jsonb_agg(jsonb_build_object(
                 'id', r.id, 'body', r.body, 'sent_to', r.sent_to, 'created_at', r.created_at,
                 'sent_at', r.sent_at, 'send_error', r.send_error,
                 'admin_email', (select u.email from auth.users u where u.id = r.admin_id))
               order by r.created_at)
        from public.contact_message_replies r where r.message_id = m.id), '[]'::jsonb),
      'reports', coalesce((
        select jsonb_agg(jsonb_build_object('id', rep.id, 'reported_account', rep.reported_account,
                                            'status', rep.status) order by rep.created_at)
        from public.reports rep
        where rep.id in (
          select distinct x[1]::uuid
          from regexp_matches(coalesce(m.subject, '') || ' ' || m.message,
                              '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})',
                              'g') as x
          limit 10)), '[]'::jsonb)))
    from public.contact_messages m
    where m.id = any (message_ids[1:100])), '{}'::jsonb);
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_moderation_log(before_id bigint DEFAULT NULL::bigint, report uuid DEFAULT NULL::uuid, max_rows integer DEFAULT 50)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the moderation log' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  return coalesce((
    select jsonb_agg(to_jsonb(x) order by x.id desc) from (
      select l.*, u.email as actor_email,
             (select k.id from public.moderation_log k where k.undo_of = l.id) as undone_by_log_id
      from public.moderation_log l
      left join auth.users u on u.id = l.actor_id
      where (before_id is null or l.id < before_id) and (report is null or l.report_id = report)
      order by l.id desc
      limit least(greatest(coalesce(max_rows, 50), 1), 200)) x), '[]'::jsonb);
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_removal_decisions(max_rows integer DEFAULT 30)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read removal decisions' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  return coalesce((
    select jsonb_agg(to_jsonb(x) order by x.decided_at desc) from (
      select rr.id as request_id, rr.report_id, r.reported_account, rr.decision, rr.decision_reason,
             rr.decision_note, rr.decided_at, u.email as decided_by_email
      from public.removal_requests rr
      join public.reports r on r.id = rr.report_id
      left join auth.users u on u.id = rr.decided_by
      where rr.decided_at is not null
      order by rr.decided_at desc
      limit least(greatest(coalesce(max_rows, 30), 1), 200)) x), '[]'::jsonb);
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_removal_queue()
 RETURNS TABLE(request_id uuid, report_id uuid, reported_account text, report_status public.report_status, request_status public.removal_request_status, reason text, contact_email text, requested_at timestamp with time zone, contact_confirmed_at timestamp with time zone, deadline timestamp with time zone, reporter_response text, responded_at timestamp with time zone, escalated_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_admin() then
    raise exception 'only admins can read the removal queue' using errcode = '42501', hint = '{"code": "admin_only"}';
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
$function$;

CREATE OR REPLACE FUNCTION public.admin_reply_contact_message(message_id uuid, body text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_message public.contact_messages;
  v_body text := btrim(body);
  v_id uuid;
begin
  if v_uid is null or not (select private.is_admin()) then
    raise exception 'only admins can reply to contact messages' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  select * into v_message from public.contact_messages m where m.id = admin_reply_contact_message.message_id
  for update;
  if not found then
    raise exception 'no contact message with this id' using errcode = 'P0002', hint = '{"code": "contact_message_missing"}';
  end if;
  if v_message.email is null or v_message.email !~ '^[^\s@]+@[^\s@]+\.[^\s@]+$' then
    raise exception 'this message has no e-mail address to reply to' using errcode = '22023', hint = '{"code": "contact_message_no_email"}';
  end if;
  if v_body is null or char_length(v_body) = 0 then
    raise exception 'a reply needs some words' using errcode = '22023', hint = '{"code": "reply_empty"}';
  end if;
  if char_length(v_body) > 5000 then
    raise exception 'a reply has at most 5000 characters' using errcode = '22023', hint = jsonb_build_object('code', 'reply_too_long', 'max', 5000)::text;
  end if;
  insert into public.contact_message_replies (message_id, admin_id, sent_to, body)
  values (v_message.id, v_uid, v_message.email, v_body)
  returning id into v_id;
  update public.contact_messages m set handled_at = coalesce(m.handled_at, now()), handled_by = v_uid
  where m.id = v_message.id;
  return jsonb_build_object(
    'reply_id', v_id,
    'to', v_message.email,
    'nickname', v_message.nickname,
    'subject', v_message.subject,
    'message', v_message.message,
    'received_at', v_message.created_at,
    'body', v_body);
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_set_suspension(user_id uuid, suspend boolean, reason text, days integer DEFAULT NULL::integer)
 RETURNS public.account_suspensions
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_reason text := btrim(coalesce(reason, ''));
  v_until timestamptz;
  v_row public.account_suspensions;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can suspend accounts' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_reason) < 3 or char_length(v_reason) > 500 then
    raise exception 'a suspension needs a reason of 3 to 500 characters' using errcode = '22023', hint = jsonb_build_object('code', 'suspension_reason', 'min', 3, 'max', 500)::text;
  end if;
  if suspend is null then
    raise exception 'say whether to suspend or unsuspend' using errcode = '22023';
  end if;
  if days is not null and (days < 1 or days > 3650) then
    raise exception 'days is between 1 and 3650' using errcode = '22023', hint = jsonb_build_object('code', 'suspension_days', 'min', 1, 'max', 3650)::text;
  end if;
  if admin_set_suspension.user_id = (select auth.uid()) then
    raise exception 'you cannot suspend yourself' using errcode = '42501', hint = '{"code": "suspend_self"}';
  end if;
  if not exists (select 1 from auth.users u where u.id = admin_set_suspension.user_id and u.deleted_at is null) then
    raise exception 'no such user' using errcode = 'P0002', hint = '{"code": "user_missing"}';
  end if;
  if suspend and exists (
      select 1 from public.user_roles ur where ur.user_id = admin_set_suspension.user_id and ur.role = 'admin') then
    raise exception 'an admin cannot be suspended; revoke the role first' using errcode = '42501', hint = '{"code": "suspend_admin"}';
  end if;
  -- Without days: as long as Auth's longest ban (GoTrue's Admin API takes durations in hours; 100 years).
  v_until := case when suspend then now() + coalesce(make_interval(days => days), interval '876000 hours') end;
  update auth.users u set banned_until = v_until, updated_at = now() where u.id = admin_set_suspension.user_id;
  if suspend then
    delete from auth.sessions s where s.user_id = admin_set_suspension.user_id;
  end if;
  insert into public.account_suspensions (user_id, actor_id, action, reason, suspended_until)
  values (admin_set_suspension.user_id, (select auth.uid()), case when suspend then 'suspend' else 'unsuspend' end,
          v_reason, v_until)
  returning * into v_row;
  return v_row;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_suspension_log(for_user uuid DEFAULT NULL::uuid, max_rows integer DEFAULT 50)
 RETURNS TABLE(id bigint, user_id uuid, user_email text, actor_id uuid, actor_email text, action text, reason text, suspended_until timestamp with time zone, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the suspension log' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  return query
  select s.id, s.user_id, tu.email::text, s.actor_id, au.email::text, s.action, s.reason, s.suspended_until, s.created_at
  from public.account_suspensions s
  left join auth.users tu on tu.id = s.user_id
  left join auth.users au on au.id = s.actor_id
  where for_user is null or s.user_id = for_user
  order by s.id desc
  limit least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;

CREATE OR REPLACE FUNCTION public.answer_removal_request(request_id uuid, answer text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_request public.removal_requests;
  v_answer text := btrim(answer);
begin
  if v_uid is null then
    raise exception 'sign in to answer a removal request' using errcode = '42501', hint = '{"code": "sign_in_required"}';
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
    raise exception 'an answer needs some words' using errcode = '22023', hint = '{"code": "answer_empty"}';
  end if;
  if char_length(v_answer) > 5000 then
    raise exception 'an answer has at most 5000 characters' using errcode = '22023', hint = jsonb_build_object('code', 'answer_too_long', 'max', 5000)::text;
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

CREATE OR REPLACE FUNCTION public.decide_removal_request(request_id uuid, decision text, reason text DEFAULT NULL::text, note text DEFAULT NULL::text)
 RETURNS public.removal_requests
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_request public.removal_requests;
  v_note text := nullif(btrim(note), '');
  v_status public.report_status;
  v_report public.reports;
  v_hidden_by_rule bigint;
  v_rows integer;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can decide removal requests' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if decision is null or decision not in ('keep', 'hide', 'remove') then
    raise exception 'a decision is keep, hide or remove' using errcode = '22023';
  end if;
  if decide_removal_request.reason is null
     or not (decide_removal_request.reason = any (public.moderation_reasons())) then
    raise exception 'a decision on a removal request needs a reason from the list' using errcode = '22023', hint = '{"code": "reason_required"}';
  end if;
  if char_length(v_note) > 1000 then
    raise exception 'the note is at most 1000 characters' using errcode = '22023', hint = jsonb_build_object('code', 'note_too_long', 'max', 1000)::text;
  end if;
  select * into v_request from public.removal_requests rr where rr.id = decide_removal_request.request_id for update;
  if v_request.id is null then
    raise exception 'no such removal request' using errcode = 'P0002', hint = '{"code": "removal_request_missing"}';
  end if;
  if v_request.decided_at is not null then
    raise exception 'this removal request was already decided' using errcode = '22023', hint = '{"code": "removal_request_decided"}';
  end if;
  select * into v_report from public.reports r where r.id = v_request.report_id for update;

  perform set_config('scamcheck.removal_request', v_request.id::text, true);
  perform set_config('scamcheck.decision', '1', true);
  if decision in ('hide', 'remove') then
    v_status := case decision when 'hide' then 'rejected' else 'removed' end::public.report_status;
    update public.reports r
    set status = v_status, status_reason = decide_removal_request.reason, status_note = v_note
    where r.id = v_report.id and r.status is distinct from v_status;
    get diagnostics v_rows = row_count;
    if v_rows = 0 then
      -- Already in that status (the 1-week rule hid it): the reason is still the admins' now.
      update public.reports r set status_reason = decide_removal_request.reason, status_note = v_note
      where r.id = v_report.id;
    end if;
    -- The report's other open requests are settled with it.
    update public.removal_requests rr set status = 'report_removed', resolved_at = coalesce(rr.resolved_at, now())
    where rr.report_id = v_report.id and rr.status = 'open';
    perform private.after_decision(v_report.id);
  else
    -- A report the 1-week rule hid comes back for review (issue 27); the rule's log row is undone, so
    -- the published figures do not count it. One removed otherwise stays removed.
    if v_request.escalated_at is not null and v_request.status = 'report_removed' and v_report.status = 'removed' then
      select l.id into v_hidden_by_rule from public.moderation_log l
      where l.report_id = v_report.id and l.actor_id is null and l.to_status = 'removed' and l.undo_of is null
        and not exists (select 1 from public.moderation_log k where k.undo_of = l.id)
        and not exists (select 1 from public.moderation_log n where n.report_id = l.report_id and n.id > l.id)
      order by l.id desc limit 1;
      perform set_config('scamcheck.undo_of', coalesce(v_hidden_by_rule::text, ''), true);
      update public.reports r set status = 'pending' where r.id = v_report.id and r.status = 'removed';
      perform set_config('scamcheck.undo_of', '', true);
      perform private.after_decision(v_report.id);
    elsif v_report.reporter_id is not null then
      -- The report stays: its reporter is told the request was refused, and why.
      insert into public.notifications (user_id, kind, report_id, identifier)
      values (v_report.reporter_id, 'report_status_changed', v_report.id, v_report.reported_account_canonical);
    end if;
    update public.removal_requests rr set status = 'dismissed', resolved_at = now()
    where rr.id = v_request.id;
  end if;
  perform set_config('scamcheck.removal_request', '', true);
  update public.removal_requests rr
  set decision = decide_removal_request.decision, decision_reason = decide_removal_request.reason,
      decision_note = v_note, decided_at = now(), decided_by = (select auth.uid())
  where rr.id = v_request.id
  returning * into v_request;
  return v_request;
end
$function$;

CREATE OR REPLACE FUNCTION public.hide_owner_statement(statement_id uuid, reason text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_admin() then
    raise exception 'only admins can hide statements' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if reason is null or char_length(btrim(reason)) not between 1 and 500 then
    raise exception 'give a reason (1 to 500 characters)' using errcode = '22023', hint = jsonb_build_object('code', 'reason_length', 'min', 1, 'max', 500)::text;
  end if;
  update public.owner_statements s
     set hidden_at = now(), hidden_reason = btrim(reason), hidden_by = auth.uid()
   where s.id = statement_id;
  if not found then
    raise exception 'no such statement' using errcode = '22023', hint = '{"code": "statement_missing"}';
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION public.unhide_owner_statement(statement_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_admin() then
    raise exception 'only admins can show statements again' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  update public.owner_statements s set hidden_at = null, hidden_reason = null, hidden_by = null where s.id = statement_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.moderate_reports(report_ids uuid[], status public.report_status, reason text DEFAULT NULL::text, note text DEFAULT NULL::text)
 RETURNS SETOF public.moderation_log
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_id uuid;
  v_note text := nullif(btrim(note), '');
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can moderate reports' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if report_ids is null or cardinality(report_ids) = 0 then
    raise exception 'choose at least one report' using errcode = '22023', hint = '{"code": "moderation_none"}';
  end if;
  if cardinality(report_ids) > 200 then
    raise exception 'at most 200 reports at once' using errcode = '22023', hint = jsonb_build_object('code', 'moderation_too_many', 'max', 200)::text;
  end if;
  if moderate_reports.status not in ('verified', 'rejected', 'removed') then
    raise exception 'a decision is verified, rejected or removed (use undo to take one back)' using errcode = '22023';
  end if;
  if moderate_reports.status in ('rejected', 'removed') and reason is null then
    raise exception 'a % decision needs a reason', moderate_reports.status using errcode = '22023', hint = '{"code": "reason_required"}';
  end if;
  if reason is not null and not (reason = any (public.moderation_reasons())) then
    raise exception 'unknown reason %', reason using errcode = '22023';
  end if;
  if char_length(v_note) > 1000 then
    raise exception 'the note is at most 1000 characters' using errcode = '22023', hint = jsonb_build_object('code', 'note_too_long', 'max', 1000)::text;
  end if;
  perform set_config('scamcheck.decision', '1', true);
  foreach v_id in array report_ids loop
    update public.reports r
    set status = moderate_reports.status,
        status_reason = case when moderate_reports.status = 'verified' then null else reason end,
        status_note = case when moderate_reports.status = 'verified' then null else v_note end
    where r.id = v_id and r.status is distinct from moderate_reports.status;
    if not found then
      if not exists (select 1 from public.reports r where r.id = v_id) then
        raise exception 'report % not found', v_id using errcode = 'P0002', hint = jsonb_build_object('code', 'report_missing', 'report_id', v_id)::text;
      end if;
      continue; -- already in that status: nothing to decide
    end if;
    perform private.after_decision(v_id);
    return query select * from public.moderation_log l where l.report_id = v_id order by l.id desc limit 1;
  end loop;
end
$function$;

CREATE OR REPLACE FUNCTION public.undo_moderation(log_id bigint)
 RETURNS public.moderation_log
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_log public.moderation_log;
  v_prev public.moderation_log;
  v_result public.moderation_log;
  v_rows integer;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can undo a decision' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  select * into v_log from public.moderation_log where id = log_id;
  if v_log.id is null then
    raise exception 'decision % not found', log_id using errcode = 'P0002', hint = '{"code": "decision_missing"}';
  end if;
  if v_log.undo_of is not null then
    raise exception 'an undo cannot itself be undone; decide again instead' using errcode = '22023', hint = '{"code": "undo_of_undo"}';
  end if;
  if exists (select 1 from public.moderation_log where undo_of = v_log.id) then
    raise exception 'this decision was already undone' using errcode = '22023', hint = '{"code": "decision_undone"}';
  end if;
  if v_log.created_at < now() - interval '7 days' then
    raise exception 'a decision can be undone for 7 days; decide again instead' using errcode = '22023', hint = jsonb_build_object('code', 'undo_expired', 'days', 7)::text;
  end if;
  if exists (select 1 from public.moderation_log where report_id = v_log.report_id and id > v_log.id) then
    raise exception 'the report was decided again since; undo the later decision first' using errcode = '22023', hint = '{"code": "decided_again"}';
  end if;
  -- The reason of the status being restored, if it was rejected or removed before.
  select * into v_prev from public.moderation_log
  where report_id = v_log.report_id and id < v_log.id and to_status = v_log.from_status
  order by id desc limit 1;
  perform set_config('scamcheck.undo_of', v_log.id::text, true);
  perform set_config('scamcheck.decision', '1', true);
  update public.reports r
  set status = v_log.from_status,
      status_reason = case when v_log.from_status in ('rejected', 'removed') then v_prev.reason end,
      status_note = case when v_log.from_status in ('rejected', 'removed') then v_prev.note end
  where r.id = v_log.report_id;
  get diagnostics v_rows = row_count;
  perform set_config('scamcheck.undo_of', '', true);
  if v_rows = 0 then
    raise exception 'report % no longer exists', v_log.report_id using errcode = 'P0002', hint = jsonb_build_object('code', 'report_missing', 'report_id', v_log.report_id)::text;
  end if;
  perform private.after_decision(v_log.report_id);
  select * into v_result from public.moderation_log where undo_of = v_log.id;
  return v_result;
end
$function$;

CREATE OR REPLACE FUNCTION public.report_signals(report_ids uuid[])
 RETURNS TABLE(report_id uuid, young_account boolean, shared_network_reporters integer, network_known boolean)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not private.is_admin() then
    raise exception 'only admins can read report signals' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if report_ids is null or cardinality(report_ids) > 200 then
    raise exception 'ask for 1 to 200 reports at a time' using errcode = '22023';
  end if;
  return query
  select r.id,
         not coalesce(p.established, false),
         (select count(distinct coalesce(o.reporter_id::text, o.id::text))::int
            from public.reports o
            join private.report_provenance op on op.report_id = o.id
           where o.reported_account_canonical = r.reported_account_canonical
             and o.id <> r.id
             and coalesce(o.reporter_id::text, o.id::text) <> coalesce(r.reporter_id::text, r.id::text)
             and o.status in ('pending', 'verified')
             and ((p.filed_network is not null and op.filed_network in (p.filed_network, p.signup_network))
               or (p.signup_network is not null and op.signup_network in (p.filed_network, p.signup_network)))),
         p.filed_network is not null or p.signup_network is not null
  from public.reports r
  left join private.report_provenance p on p.report_id = r.id
  where r.id = any (report_ids);
end
$function$;

CREATE OR REPLACE FUNCTION public.review_takedown_report(report_id uuid, decision text, abuse_contact text DEFAULT NULL::text)
 RETURNS public.takedown_reports
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_row public.takedown_reports;
  v_contact text := nullif(lower(btrim(coalesce(review_takedown_report.abuse_contact, ''))), '');
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can review takedown reports' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if review_takedown_report.decision is null or review_takedown_report.decision not in ('approve', 'dismiss') then
    raise exception 'The decision is approve or dismiss' using errcode = '22023';
  end if;
  select * into v_row from public.takedown_reports t where t.id = review_takedown_report.report_id for update;
  if v_row.id is null then
    raise sqlstate 'PT404' using message = 'No such takedown report', hint = '{"code": "takedown_missing"}';
  end if;
  if v_row.status = 'sent' then
    raise exception 'This report has already been sent' using errcode = '22023', hint = '{"code": "takedown_sent"}';
  end if;
  if review_takedown_report.decision = 'approve' then
    if v_contact is null or v_contact !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_contact) > 254 then
      raise exception 'Give the abuse contact''s e-mail address' using errcode = '22023', hint = '{"code": "takedown_email_required"}';
    end if;
    update public.takedown_reports t
    set status = 'approved', abuse_contact = v_contact, reviewed_by = (select auth.uid()), reviewed_at = now(),
        send_error = null
    where t.id = v_row.id returning * into v_row;
  else
    update public.takedown_reports t
    set status = 'dismissed', reviewed_by = (select auth.uid()), reviewed_at = now()
    where t.id = v_row.id returning * into v_row;
  end if;
  return v_row;
end
$function$;

CREATE OR REPLACE FUNCTION public.set_api_key_partner(key_id uuid, organisation text)
 RETURNS public.api_keys
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_org text := nullif(btrim(coalesce(set_api_key_partner.organisation, '')), '');
  v_row public.api_keys;
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can mark partner keys' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if v_org is not null and char_length(v_org) > 100 then
    raise exception 'An organisation''s name is at most 100 characters' using errcode = '22023', hint = jsonb_build_object('code', 'partner_name_too_long', 'max', 100)::text;
  end if;
  update public.api_keys k
  set partner_organisation = v_org,
      partner_since = case when v_org is null then null else coalesce(k.partner_since, now()) end
  where k.id = set_api_key_partner.key_id
  returning * into v_row;
  if v_row.id is null then
    raise sqlstate 'PT404' using message = 'No such API key', hint = '{"code": "api_key_missing"}';
  end if;
  if v_row.revoked_at is not null and v_org is not null then
    raise exception 'This API key has been revoked' using errcode = '22023', hint = '{"code": "api_key_revoked"}';
  end if;
  return v_row;
end
$function$;

CREATE OR REPLACE FUNCTION public.owned_identifier_reports(identifier text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if auth.uid() is null or (private.live_proof(auth.uid(), identifier)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501', hint = '{"code": "ownership_required"}';
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', r.id, 'incident_type', r.incident_type, 'status', r.status, 'created_at', r.created_at
           ) order by r.created_at desc), '[]'::jsonb)
    from (select r.id, r.incident_type, r.status, r.created_at from public.reports r
           where r.reported_account_canonical = owned_identifier_reports.identifier
             and r.status in ('pending', 'verified')
           order by r.created_at desc
           limit 100) r
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.owner_request_removal(report_id uuid, reason text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v_email text;
  v_id uuid;
begin
  select r.reported_account_canonical into v_canonical from public.reports r
   where r.id = owner_request_removal.report_id and r.status in ('pending', 'verified');
  if v_canonical is null then
    raise exception 'no such report' using errcode = '22023', hint = '{"code": "report_missing"}';
  end if;
  if v_uid is null or (private.live_proof(v_uid, v_canonical)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501', hint = '{"code": "ownership_required"}';
  end if;
  select u.email into v_email from auth.users u where u.id = v_uid;
  insert into public.removal_requests (report_id, requester_id, reason, contact_email)
  values (owner_request_removal.report_id, v_uid, btrim(reason), v_email)
  returning id into v_id;
  update public.removal_requests rr set contact_confirmed_at = now() where rr.id = v_id;
  return v_id;
end
$function$;

CREATE OR REPLACE FUNCTION public.set_owner_statement(identifier text, body text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_proof public.ownership_proofs;
  v public.owner_statements;
  v_body text := btrim(body);
begin
  v_proof := private.live_proof(v_uid, identifier);
  if v_uid is null or v_proof.id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501', hint = '{"code": "ownership_required"}';
  end if;
  if v_body is null or char_length(v_body) not between 1 and 500 then
    raise exception 'a statement is 1 to 500 characters' using errcode = '22023', hint = jsonb_build_object('code', 'statement_length', 'min', 1, 'max', 500)::text;
  end if;
  if private.has_link(v_body) then
    raise exception 'a statement may not hold links, web or e-mail addresses' using errcode = '22023', hint = '{"code": "statement_links"}';
  end if;
  insert into public.owner_statements as s (user_id, identifier_canonical, body)
  values (v_uid, identifier, v_body)
  on conflict (user_id, identifier_canonical) do update
    set body = excluded.body, updated_at = now()
  returning * into v;
  return jsonb_build_object('id', v.id, 'body', v.body, 'updated_at', v.updated_at, 'hidden', v.hidden_at is not null);
end
$function$;

CREATE OR REPLACE FUNCTION public.watch_owned_identifier(identifier text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if auth.uid() is null or (private.live_proof(auth.uid(), identifier)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501', hint = '{"code": "ownership_required"}';
  end if;
  if not exists (select 1 from public.notify_registrations nr
                  where nr.user_id = auth.uid() and nr.identifier_canonical = identifier) then
    insert into public.notify_registrations (user_id, asset_name)
    values (auth.uid(), identifier);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION public.withdraw_ownership_proof(proof_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v public.ownership_proofs;
begin
  update public.ownership_proofs p set withdrawn_at = now(), code_hash = null
   where p.id = withdraw_ownership_proof.proof_id and p.user_id = auth.uid() and p.withdrawn_at is null
  returning * into v;
  if v.id is null then
    raise exception 'no such proof' using errcode = '22023', hint = '{"code": "ownership_proof_missing"}';
  end if;
  perform private.log_proof(v.id, 'withdrawn', null, null);
  return private.proof_json(v);
end
$function$;

CREATE OR REPLACE FUNCTION public.verify_ownership_code(proof_id uuid, code text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p
   where p.id = verify_ownership_code.proof_id and p.user_id = auth.uid() for update;
  if v.id is null or v.method <> 'email' then
    raise exception 'no such e-mail proof' using errcode = '22023', hint = '{"code": "ownership_proof_missing"}';
  end if;
  if v.verified_at is not null then
    return private.proof_json(v);
  end if;
  if v.code_hash is null or v.withdrawn_at is not null or v.wrong_tries >= 5
     or v.code_sent_at < now() - make_interval(mins => private.ownership_setting('ownership_code_minutes', 15)) then
    raise exception 'The code has expired; ask for a new one' using errcode = '22023', hint = '{"code": "ownership_code_expired"}';
  end if;
  if code is null or encode(sha256(convert_to(btrim(code), 'UTF8')), 'hex') <> v.code_hash then
    update public.ownership_proofs p set wrong_tries = p.wrong_tries + 1 where p.id = v.id;
    perform private.log_proof(v.id, 'code_wrong', false, null);
    -- The wrong try is kept (the function returns instead of raising, so the update commits).
    return private.proof_json(v) || jsonb_build_object('error', 'wrong_code');
  end if;
  return private.proof_json(private.verify_proof(v.id, 'e-mail code'));
end
$function$;
