-- Codes across the wire (issue 36, part 4): the database's refusals that the app shows carry a stable
-- code and their parameters as a JSON object in the error's hint ({"code": "...", ...}), which
-- PostgREST hands to supabase-js unchanged (hosted and locally: PostgrestError.hint), so the app
-- translates the code and never the English sentence. The messages stay as they were: they are the
-- legacy API's words (docs/behaviour.md §7). For the 409s and the 429 raised with sqlstate 'PGRST',
-- the hint is the one inside the JSON message; details keep their 'key=value' text, which the legacy
-- API reads. Each function below is its last definition again with only its raises (and upload_take's
-- answer, which now names the limit it met) changed.

CREATE OR REPLACE FUNCTION private.rate_limit(name text, subject text, cost integer DEFAULT 1)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  r record;
  v_limit private.rate_limits;
begin
  select * into r from private.rate_limit_take(rate_limit.name, rate_limit.subject, rate_limit.cost);
  if r.allowed then
    return;
  end if;
  select * into v_limit from private.rate_limits l where l.name = rate_limit.name;
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT429',
      'message', format('%s: at most %s per %s. Please try again in %s.',
                        v_limit.description, v_limit.max_calls,
                        private.rate_limit_duration(v_limit.per_seconds),
                        private.rate_limit_duration(r.retry_after_seconds)),
      'details', format('limit=%s; retry_after=%s', v_limit.name, r.retry_after_seconds),
      'hint', jsonb_build_object('code', 'rate_limited', 'limit', v_limit.name, 'max', v_limit.max_calls,
                                 'per_seconds', v_limit.per_seconds, 'retry_after', r.retry_after_seconds)::text)::text,
    detail = json_build_object(
      'status', 429,
      'headers', json_build_object(
        'Retry-After', r.retry_after_seconds::text,
        'RateLimit-Limit', v_limit.max_calls::text,
        'RateLimit-Remaining', r.remaining::text,
        'RateLimit-Reset', r.reset_seconds::text,
        'RateLimit-Policy', format('%s;w=%s', v_limit.max_calls, v_limit.per_seconds)))::text;
end
$function$;

CREATE OR REPLACE FUNCTION private.removal_requests_one_open()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
      'hint', jsonb_build_object('code', 'removal_open', 'request_id', v_open.id,
                                 'date', to_char(v_open.created_at at time zone 'UTC', 'YYYY-MM-DD'))::text)::text,
    detail = json_build_object('status', 409, 'headers', json_build_object())::text;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_refuse_duplicates()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_days integer;
  v_existing public.reports;
begin
  if coalesce(private.request_role(), '') <> 'authenticated'
     or coalesce(current_setting('request.method', true), '') = ''
     or new.reporter_id is null
     or (tg_op = 'UPDATE' and new.reported_account_canonical is not distinct from old.reported_account_canonical) then
    return new;
  end if;
  select coalesce(max(value::int), 30) into v_days from private.rate_limit_settings where name = 'duplicate_report_days';
  select * into v_existing from public.reports r
  where r.reporter_id = new.reporter_id
    and r.reported_account_canonical = new.reported_account_canonical
    and r.id <> new.id
    and r.status in ('pending', 'verified')
    and r.created_at > now() - make_interval(days => v_days)
  order by r.created_at desc
  limit 1;
  if v_existing.id is null then
    return new;
  end if;
  raise sqlstate 'PGRST' using
    message = json_build_object(
      'code', 'PT409',
      'message', format('You already reported %s on %s. Edit that report to add what happened instead of filing a new one.',
                        v_existing.reported_account, to_char(v_existing.created_at at time zone 'UTC', 'FMMonth FMDD, YYYY')),
      'details', format('existing_report_id=%s', v_existing.id),
      'hint', jsonb_build_object('code', 'report_duplicate', 'report_id', v_existing.id,
                                 'account', v_existing.reported_account,
                                 'date', to_char(v_existing.created_at at time zone 'UTC', 'YYYY-MM-DD'))::text)::text,
    detail = json_build_object('status', 409, 'headers', json_build_object())::text;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_before_write()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  -- API requests run as anon/authenticated; security definer RPCs, seeds and operators as owners.
  api_caller boolean := current_user in ('anon', 'authenticated');
begin
  new.reported_account := btrim(new.reported_account);
  new.reported_account_canonical := public.canonical_identifier(new.reported_account_type::text, new.reported_account);
  if api_caller and new.incident_date > current_date + 1 then
    raise exception 'incident_date cannot be later than tomorrow' using errcode = '22023',
      hint = '{"code": "incident_date_future"}';
  end if;
  -- Evidence lives in the reporter's own folder of the evidence bucket ('<reporter_id>/...').
  if api_caller and new.evidence_path is not null
     and split_part(new.evidence_path, '/', 1) is distinct from new.reporter_id::text then
    raise exception 'evidence_path must be in the reporter''s own folder of the evidence bucket'
      using errcode = '42501', hint = '{"code": "evidence_not_own"}';
  end if;
  if tg_op = 'INSERT' then
    if api_caller and new.reporter_id is distinct from (select auth.uid()) then
      raise exception 'reporter_id is taken from your login and cannot be set to another user'
        using errcode = '42501', hint = '{"code": "reporter_not_own"}';
    end if;
    if api_caller and new.status <> 'pending' and not (select private.is_admin()) then
      raise exception 'only admins can set the status of a report; new reports are pending'
        using errcode = '42501', hint = '{"code": "report_status_admin_only"}';
    end if;
  else
    if api_caller then
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
    if api_caller and new.reporter_id is distinct from old.reporter_id then
      raise exception 'the reporter of a report cannot be changed' using errcode = '42501',
        hint = '{"code": "reporter_not_own"}';
    end if;
    if api_caller and new.status is distinct from old.status and not (select private.is_admin()) then
      raise exception 'only admins can change the status of a report' using errcode = '42501',
        hint = '{"code": "report_status_admin_only"}';
    end if;
    -- An edited verified report goes back to review, so a verified badge always covers what is shown.
    if api_caller and old.status = 'verified' and new.status = 'verified' and not (select private.is_admin())
       and (new.reported_account_canonical, new.incident_type, new.incident_description, new.amount_lost)
           is distinct from (old.reported_account_canonical, old.incident_type, old.incident_description, old.amount_lost) then
      new.status := 'pending';
    end if;
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION public.create_api_key(name text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_name text := btrim(coalesce(create_api_key.name, ''));
  v_key text;
  v_max integer;
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to make an API key' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  if char_length(v_name) not between 1 and 60 then
    raise exception 'An API key''s name is 1 to 60 characters' using errcode = '22023',
      hint = '{"code": "api_key_name"}';
  end if;
  perform private.rate_limit('api_key.create', 'user:' || v_uid);
  select coalesce(max(value::int), 10) into v_max from private.rate_limit_settings where rate_limit_settings.name = 'api_keys_per_user';
  -- One caller at a time, so parallel requests cannot overshoot the count.
  perform pg_advisory_xact_lock(hashtextextended('api_keys:' || v_uid, 0));
  if (select count(*) from public.api_keys k where k.user_id = v_uid and k.revoked_at is null) >= v_max then
    raise sqlstate 'PT409' using
      message = format('You already have %s API keys; revoke one before making another', v_max),
      hint = jsonb_build_object('code', 'api_key_too_many', 'max', v_max)::text;
  end if;
  v_key := 'sck_' || encode(extensions.gen_random_bytes(32), 'hex');
  insert into public.api_keys (user_id, name, prefix)
  values (v_uid, v_name, left(v_key, 12))
  returning * into v_row;
  insert into private.api_key_hashes (key_id, key_hash)
  values (v_row.id, encode(sha256(convert_to(v_key, 'UTF8')), 'hex'));
  return jsonb_build_object('id', v_row.id, 'name', v_row.name, 'prefix', v_row.prefix, 'key', v_key,
                            'created_at', v_row.created_at);
end
$function$;

CREATE OR REPLACE FUNCTION public.revoke_api_key(key_id uuid)
 RETURNS public.api_keys
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := (select auth.uid());
  v_row public.api_keys;
begin
  if v_uid is null then
    raise exception 'Sign in to revoke an API key' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  select * into v_row from public.api_keys k where k.id = revoke_api_key.key_id for update;
  -- Someone else's key is "not found" to a non-admin, as RLS hides it from them.
  if v_row.id is null or (v_row.user_id <> v_uid and not private.is_admin()) then
    raise sqlstate 'PT404' using message = 'No such API key', hint = '{"code": "api_key_missing"}';
  end if;
  if v_row.revoked_at is null then
    update public.api_keys k set revoked_at = now(), revoked_by = v_uid
    where k.id = v_row.id
    returning * into v_row;
  end if;
  return v_row;
end
$function$;

CREATE OR REPLACE FUNCTION public.search_top_identifier(ref uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_canonical text;
begin
  select t.identifier_canonical into v_canonical from private.stats_top_identifiers t where t.ref = search_top_identifier.ref;
  if v_canonical is null then
    raise exception 'this list entry has expired; the list is refreshed every hour' using errcode = 'PT404',
      hint = '{"code": "top_entry_expired"}';
  end if;
  return public.search_reports(v_canonical);
end
$function$;

CREATE OR REPLACE FUNCTION public.set_report_status(report_id uuid, status public.report_status)
 RETURNS public.reports
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_report public.reports;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can change the status of a report' using errcode = '42501',
      hint = '{"code": "report_status_admin_only"}';
  end if;
  update public.reports r set status = set_report_status.status
  where r.id = set_report_status.report_id
  returning r.* into v_report;
  if v_report.id is null then
    raise exception 'report % not found', report_id using errcode = 'P0002',
      hint = jsonb_build_object('code', 'report_missing', 'report_id', report_id)::text;
  end if;
  if v_report.reporter_id is not null then
    insert into public.notifications (user_id, kind, report_id, identifier)
    values (v_report.reporter_id, 'report_status_changed', v_report.id, v_report.reported_account_canonical);
  end if;
  if set_report_status.status = 'removed' then
    update public.removal_requests rr set status = 'report_removed'
    where rr.report_id = v_report.id and rr.status = 'open';
  end if;
  return v_report;
end
$function$;

CREATE OR REPLACE FUNCTION public.upload_take(p_user uuid, p_bytes bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_kib integer := greatest(1, ceil(greatest(coalesce(p_bytes, 0), 0) / 1024.0))::integer;
  v_address text := private.client_address_key();
  v_take record;
  v_check record;
begin
  if p_user is null then
    raise exception 'an upload needs its user' using errcode = '22023';
  end if;
  for v_check in
    select * from (values
      (1, 'upload.user', 'user:' || p_user::text, 1),
      (2, 'upload_kib.user', 'user:' || p_user::text, v_kib),
      (3, 'upload.ip', v_address, 1),
      (4, 'upload_kib.ip', v_address, v_kib)) c(n, name, subject, cost)
    where c.subject is not null
    order by c.n
  loop
    select * into v_take from private.rate_limit_take(v_check.name, v_check.subject, v_check.cost);
    if not v_take.allowed then
      return jsonb_build_object(
        'ok', false,
        'retry_after', greatest(1, v_take.retry_after_seconds),
        'message', (select l.description from private.rate_limits l where l.name = v_check.name),
        'limit', v_check.name);
    end if;
  end loop;
  return jsonb_build_object('ok', true);
end
$function$;

comment on function private.rate_limit(pg_catalog.text,pg_catalog.text,integer) is 'Enforces the named limit for subject: returns, or raises HTTP 429 (code PT429) with Retry-After and RateLimit-* headers through PostgREST; hint {code: rate_limited, limit, max, per_seconds, retry_after}.';

comment on function private.reports_refuse_duplicates() is 'Trigger: refuses a second report by the same reporter on the same identifier within duplicate_report_days (409, PT409, details existing_report_id=<id>, hint {code: report_duplicate, report_id, account, date}).';

comment on function private.removal_requests_one_open() is 'Trigger: one open removal request per report per requester (409, PT409, hint {code: removal_open, request_id, date}).';

comment on function public.upload_take(pg_catalog.uuid,bigint) is 'Spends one image upload of p_bytes for the user and the caller''s address (upload.*, upload_kib.*): {ok} or {ok: false, message, limit, retry_after}. Service role only.';
