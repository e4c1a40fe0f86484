-- Codes across the wire, the last refusals without one (issue 36, item 4): every raise in the latest
-- definition of every function now carries a stable code in its hint, `{"code": "...", ...params}`, as
-- 20261129120000_error_codes.sql and 20261130040000_refusal_codes.sql began. The SQLSTATEs and English
-- messages stay as they were (the legacy API's words, docs/error-codes.md); hints that were English advice
-- or the bare '429' of the ownership limits become codes (the ownership function now tells its 429s by
-- code). A choice outside a function's fixed options is `choice_invalid` with the `argument` and its
-- `choices`; refusals only operators, jobs or the legacy API can meet (the feed builder's inputs, range
-- look-ups, the rate limiter's own arguments, a missing Vault secret) carry codes the app does not word
-- (SERVER_ONLY_CODES in src/lib/server-errors.test.ts). supabase/tests/error-codes.test.ts reads the
-- catalogue and fails for any raise without a code.
--
-- Each function below is its last definition again, with only hints added to (or replacing the words
-- of) its raises.

CREATE OR REPLACE FUNCTION private.account_suspensions_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception 'the suspension log is append-only: rows cannot be changed or deleted' using errcode = '42501', hint = '{"code": "append_only", "table": "account_suspensions"}';
end
$function$;

CREATE OR REPLACE FUNCTION private.moderation_log_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception 'the moderation log is append-only: rows cannot be changed or deleted'
    using errcode = '42501', hint = '{"code": "append_only", "table": "moderation_log"}';
end
$function$;

CREATE OR REPLACE FUNCTION private.call_edge_function(function_name text, body jsonb DEFAULT '{}'::jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  project_url text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  service_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
  request_id bigint;
begin
  if project_url is null or service_key is null then
    raise exception 'Vault secret % is missing: store it with vault.create_secret (docs/deploying.md)',
      case when project_url is null then 'project_url' else 'service_role_key' end
      using hint = jsonb_build_object('code', 'vault_secret_missing', 'name', case when project_url is null then 'project_url' else 'service_role_key' end)::text;
  end if;
  request_id := net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/' || function_name,
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || service_key),
    body := body || jsonb_build_object('scheduledAt', now()),
    -- The functions answer within hosted's 150 s request idle timeout; pg_net waits that long.
    timeout_milliseconds := 150000
  );
  delete from private.edge_function_calls where called_at < now() - interval '1 day';
  insert into private.edge_function_calls (request_id, function_name) values (request_id, function_name);
  return request_id;
end
$function$;

CREATE OR REPLACE FUNCTION private.check_object_path(path text, column_name text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_segment text;
begin
  if path is null then
    return true;
  end if;
  if path ~ '[\\[:cntrl:]]' then
    raise exception '% must be a storage object name without backslashes or control characters', column_name
      using errcode = '23514', hint = jsonb_build_object('code', 'object_path_invalid', 'column', column_name)::text;
  end if;
  foreach v_segment in array string_to_array(path, '/') loop
    if v_segment in ('', '.', '..') then
      raise exception '% must be a storage object name such as <folder>/<file>: empty, "." and ".." segments are not allowed', column_name
        using errcode = '23514', hint = jsonb_build_object('code', 'object_path_invalid', 'column', column_name)::text;
    end if;
    if octet_length(v_segment) > 255 then
      raise exception '% has a segment longer than 255 bytes', column_name using errcode = '23514', hint = jsonb_build_object('code', 'object_path_segment_too_long', 'column', column_name, 'max', 255)::text;
    end if;
  end loop;
  return true;
end
$function$;

CREATE OR REPLACE FUNCTION private.check_object_paths(paths text[], column_name text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO ''
AS $function$
declare
  v_path text;
begin
  if paths is null then
    return true;
  end if;
  foreach v_path in array paths loop
    if v_path is null then
      raise exception '% cannot hold an empty entry', column_name using errcode = '23514', hint = jsonb_build_object('code', 'object_paths_empty', 'column', column_name)::text;
    end if;
    perform private.check_object_path(v_path, column_name);
  end loop;
  if cardinality(paths) <> (select count(distinct p) from unnest(paths) as p) then
    raise exception '% names the same image twice', column_name using errcode = '23514', hint = jsonb_build_object('code', 'object_paths_duplicate', 'column', column_name)::text;
  end if;
  return true;
end
$function$;

CREATE OR REPLACE FUNCTION private.rate_limit_take(name text, subject text, cost integer DEFAULT 1, OUT allowed boolean, OUT max_calls integer, OUT remaining integer, OUT reset_seconds integer, OUT retry_after_seconds integer)
 RETURNS record
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_limit private.rate_limits;
  v_now timestamptz := clock_timestamp();
  v_interval float8;
  v_window interval;
  v_step interval;
  v_tat timestamptz;
begin
  select * into v_limit from private.rate_limits l where l.name = rate_limit_take.name;
  if v_limit.name is null then
    raise exception 'unknown rate limit %', rate_limit_take.name using errcode = '22023', hint = jsonb_build_object('code', 'rate_limit_unknown', 'name', rate_limit_take.name)::text;
  end if;
  if subject is null or char_length(subject) = 0 or char_length(subject) > 200 then
    raise exception 'a rate limit subject is 1 to 200 characters' using errcode = '22023', hint = '{"code": "rate_limit_subject", "min": 1, "max": 200}';
  end if;
  if cost is null or cost < 1 then
    raise exception 'a rate limit cost is at least 1' using errcode = '22023', hint = '{"code": "rate_limit_cost", "min": 1}';
  end if;
  max_calls := v_limit.max_calls;
  if not v_limit.enabled then
    allowed := true;
    remaining := v_limit.max_calls;
    reset_seconds := 0;
    retry_after_seconds := 0;
    return;
  end if;
  v_interval := v_limit.per_seconds::float8 / v_limit.max_calls;
  v_window := make_interval(secs => v_limit.per_seconds);
  v_step := make_interval(secs => v_interval * cost);

  if cost <= v_limit.max_calls then
    insert into private.rate_limit_buckets as b (name, subject, tat)
    values (rate_limit_take.name, rate_limit_take.subject, v_now + v_step)
    on conflict on constraint rate_limit_buckets_pkey do update
      set tat = greatest(b.tat, v_now) + v_step
      where greatest(b.tat, v_now) + v_step <= v_now + v_window
    returning b.tat into v_tat;
  end if;

  if v_tat is not null then
    allowed := true;
    retry_after_seconds := 0;
  else
    allowed := false;
    -- The refused call did not spend; the row (when there is one) is locked by the upsert above.
    select b.tat into v_tat from private.rate_limit_buckets b
    where b.name = rate_limit_take.name and b.subject = rate_limit_take.subject;
    v_tat := greatest(coalesce(v_tat, v_now), v_now);
    retry_after_seconds := case
      when cost > v_limit.max_calls then v_limit.per_seconds
      else greatest(1, ceil(extract(epoch from (v_tat + v_step - v_window - v_now))))::int
    end;
  end if;
  remaining := greatest(0, floor((v_limit.per_seconds - extract(epoch from (v_tat - v_now))) / v_interval))::int;
  reset_seconds := greatest(0, ceil(extract(epoch from (v_tat - v_now))))::int;

  -- Now and then, clear a batch of expired buckets, so the table stays small without a scheduler.
  if random() < 0.002 then
    perform private.rate_limit_cleanup(1000);
  end if;
end
$function$;

CREATE OR REPLACE FUNCTION private.refuse_suspended()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if current_user = 'authenticated' and (select private.caller_is_suspended()) then
    raise exception 'this account is suspended' using errcode = '42501', hint = '{"code": "account_suspended"}';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.removal_requests_answer_rules()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if current_user not in ('anon', 'authenticated') or (select private.is_admin()) then
    return new;
  end if;
  if new.reporter_response is null or char_length(btrim(new.reporter_response)) = 0 then
    raise exception 'an answer needs some words' using errcode = '22023', hint = '{"code": "answer_empty"}';
  end if;
  if old.decided_at is not null or not (old.status = 'open' or old.escalated_at is not null) then
    raise exception 'this removal request is already decided' using errcode = '42501', hint = '{"code": "removal_request_decided"}';
  end if;
  new.reporter_response := btrim(new.reporter_response);
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_account_kind()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  v_clean text := btrim(private.clean_identifier_text(new.reported_account));
  a record;
begin
  select * into a from private.platform_account(v_clean);
  if new.reported_account_type = 'website' and a.kind in ('social', 'mobile') then
    new.reported_account_type := a.kind::public.reported_account_type;
  elsif new.reported_account_type = 'social' and a.kind is distinct from 'social' then
    raise exception 'not a link to a social media or chat account: give the link to the page, profile, group or account (for example facebook.com/PageName or t.me/name)'
      using errcode = '22023', hint = '{"code": "social_link_invalid"}';
  elsif new.reported_account_type = 'website' and a.kind is null
        and private.canonical_host(v_clean) in ('facebook.com', 'fb.com', 'fb.me', 'm.me', 'messenger.com',
          'instagram.com', 'tiktok.com', 'x.com', 'twitter.com', 'youtube.com', 't.me', 'telegram.me', 'wa.me',
          'whatsapp.com', 'chat.whatsapp.com', 'shopee.ph', 'lazada.com.ph', 'docs.google.com', 'sites.google.com',
          'google.com', 'linktr.ee', 'bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'v.gd',
          'cutt.ly', 'rb.gy', 'shorturl.at', 'ow.ly', 's.id', 'tiny.cc', 'rebrand.ly', 't.ly', 'forms.gle',
          'vercel.app', 'netlify.app', 'pages.dev', 'web.app', 'firebaseapp.com', 'github.io', 'blogspot.com',
          'wixsite.com', 'weebly.com', 'herokuapp.com', 'glitch.me', 'repl.co', 'onrender.com') then
    raise exception 'a platform shared by many accounts cannot be reported as a whole: give the link to the account, page or short link itself'
      using errcode = '22023', hint = '{"code": "social_platform_shared"}';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_incident_date_not_future()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if current_user in ('anon', 'authenticated')
     and (tg_op = 'INSERT' or new.incident_date is distinct from old.incident_date)
     -- POSIX zone names count the other way: Etc/GMT-14 is UTC+14.
     and new.incident_date > (now() at time zone 'Etc/GMT-14')::date then
    raise exception 'incident_date cannot be in the future' using errcode = '22023', hint = '{"code": "incident_date_future"}';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION private.reports_amount_cap()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  if new.amount_lost > 100000000
     and (tg_op = 'INSERT' or new.amount_lost is distinct from old.amount_lost) then
    raise exception 'amount_lost must be at most PHP 100,000,000' using errcode = '22023',
      hint = '{"code": "amount_too_large", "max": 100000000}';
  end if;
  return new;
end
$function$;

CREATE OR REPLACE FUNCTION public.canonical_identifier(kind text, value text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
declare
  s text := btrim(private.clean_identifier_text(value));
  a record;
begin
  if s is null or s = '' then
    return null;
  end if;
  case lower(kind)
    when 'mobile' then
      -- a WhatsApp or Viber chat link is its number (its other digits are not)
      select * into a from private.platform_account(s);
      if a.kind = 'mobile' then
        return a.canonical;
      end if;
      return private.canonical_phone(s);
    when 'email' then
      return nullif(lower(replace(btrim(regexp_replace(s, '^(mailto: *)+', '', 'i')), U&'\0130', U&'i\0307')), '');
    when 'website' then
      -- an account on a shared platform, a chat link's number or a short link is that, not the platform
      select * into a from private.platform_account(s);
      return coalesce(a.canonical, private.canonical_host(s));
    when 'social' then
      select * into a from private.platform_account(s);
      return case when a.kind = 'social' then a.canonical end;
    when 'ewallet' then
      if s ~ '^\+?[0-9\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]+$' and s ~ '[0-9]' then
        return private.canonical_phone(s);
      end if;
      return lower(replace(s, U&'\0130', U&'i\0307'));
    when 'crypto' then
      s := regexp_replace(s, '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]', '', 'g');
      s := regexp_replace(s, '^(bitcoin|ethereum|litecoin|tron|solana|dogecoin|bitcoincash):', '', 'i');
      s := regexp_replace(s, '[?@].*$', '');
      if s ~* '^0x[0-9a-f]{40}$' or s ~* '^(bc|tb|ltc)1[02-9ac-hj-np-z]{6,87}$' then
        return lower(s);
      end if;
      return nullif(s, '');
    else
      raise exception 'unknown identifier kind: %', kind
        using errcode = '22023', hint = jsonb_build_object('code', 'identifier_kind_unknown', 'kind', kind, 'choices', 'mobile, email, website, ewallet, crypto, social')::text;
  end case;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_review_queue(search text DEFAULT NULL::text, incident_type public.incident_type DEFAULT NULL::public.incident_type, account_type public.reported_account_type DEFAULT NULL::public.reported_account_type, min_age_days integer DEFAULT NULL::integer, has_evidence boolean DEFAULT NULL::boolean, region text DEFAULT NULL::text, sort text DEFAULT 'oldest'::text, max_groups integer DEFAULT 25)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
declare
  v_result jsonb;
  v_search text := nullif(lower(btrim(search)), '');
  v_region text := nullif(lower(btrim(region)), '');
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the review queue' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if sort not in ('oldest', 'most_reported') then
    raise exception 'sort is oldest or most_reported' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "sort", "choices": "oldest, most_reported"}';
  end if;
  max_groups := least(greatest(coalesce(max_groups, 25), 1), 100);

  with candidates as (
    -- The oldest pending reports that pass the filters (bounded, through the pending index).
    select r.id, r.reported_account_canonical, r.created_at
    from public.reports r
    where r.status = 'pending'
      and (v_search is null or r.reported_account_canonical like '%' || v_search || '%'
           or lower(r.reported_account) like '%' || v_search || '%')
      and (admin_review_queue.incident_type is null or r.incident_type = admin_review_queue.incident_type)
      and (account_type is null or r.reported_account_type = account_type)
      and (min_age_days is null or r.created_at <= now() - make_interval(days => min_age_days))
      and (has_evidence is null or (r.evidence_path is not null) = has_evidence)
      and (v_region is null or lower(coalesce(r.location, '')) like '%' || v_region || '%'
           or lower(coalesce(r.country, '')) = v_region)
    order by r.created_at, r.id
    limit 1000
  ), groups as (
    select c.reported_account_canonical as identifier, min(c.created_at) as oldest, count(*) as pending_in_view,
           coalesce((select irc.report_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as report_count,
           coalesce((select irc.verified_count from public.identifier_report_counts irc
                     where irc.identifier_canonical = c.reported_account_canonical), 0) as verified_count
    from candidates c
    group by c.reported_account_canonical
    order by case when sort = 'most_reported' then -count(*) end, min(c.created_at)
    limit max_groups
  ), shown as materialized (
    -- The reports the page shows: the candidates of its groups.
    select r.id, r.reporter_id, r.reported_account_canonical, r.created_at, r.incident_date, r.incident_type,
           r.reported_account_type, r.reported_account, r.incident_description, r.amount_lost, r.location,
           r.country, r.evidence_path, r.source
    from candidates c
    join public.reports r on r.id = c.id
    where c.reported_account_canonical in (select g.identifier from groups g)
  ), signals as materialized (
    -- Issue 27's signals for all of them at once (report_signals takes up to 200 reports a call).
    select sg.report_id, sg.young_account, sg.shared_network_reporters
    from (select array_agg(n.id) as ids
          from (select s.id, (row_number() over (order by s.id) - 1) / 200 as chunk from shown s) n
          group by n.chunk) b
    cross join lateral public.report_signals(b.ids) sg
  ), reporters as materialized (
    -- Each reporter's history once, however many of their reports the page shows.
    select d.reporter_id, private.reporter_history(d.reporter_id) as history
    from (select distinct s.reporter_id from shown s where s.reporter_id is not null) d
  )
  select jsonb_build_object(
    'backlog', (select count(*) from candidates),
    'groups', coalesce(jsonb_agg(jsonb_build_object(
      'identifier', g.identifier,
      'oldest', g.oldest,
      'report_count', g.report_count,
      'verified_count', g.verified_count,
      'reports', (
        select jsonb_agg(jsonb_build_object(
          'id', s.id, 'created_at', s.created_at, 'incident_date', s.incident_date,
          'incident_type', s.incident_type, 'reported_account_type', s.reported_account_type,
          'reported_account', s.reported_account, 'incident_description', s.incident_description,
          'amount_lost', s.amount_lost, 'location', s.location, 'country', s.country,
          'evidence_path', s.evidence_path, 'source', s.source,
          'reporter', rp.history,
          'signal', case when sg.report_id is not null then
                      jsonb_build_object('young_account', sg.young_account,
                                         'shared_network_reporters', sg.shared_network_reporters) end)
          order by s.created_at)
        from shown s
        left join reporters rp on rp.reporter_id = s.reporter_id
        left join signals sg on sg.report_id = s.id
        where s.reported_account_canonical = g.identifier),
      'verified', (
        select coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'created_at', v.created_at,
                                                      'incident_type', v.incident_type,
                                                      'incident_description', left(v.incident_description, 300))
                                  order by v.created_at desc), '[]'::jsonb)
        from (select r.id, r.created_at, r.incident_type, r.incident_description
              from public.reports r
              where r.reported_account_canonical = g.identifier and r.status = 'verified'
              order by r.created_at desc limit 5) v)
    ) order by case when sort = 'most_reported' then -g.pending_in_view end, g.oldest), '[]'::jsonb)
  ) into v_result
  from groups g;
  return v_result;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_search_log(search text DEFAULT NULL::text, kind text DEFAULT NULL::text, country_code text DEFAULT NULL::text, no_results boolean DEFAULT NULL::boolean, since timestamp with time zone DEFAULT NULL::timestamp with time zone, until timestamp with time zone DEFAULT NULL::timestamp with time zone, before_created_at timestamp with time zone DEFAULT NULL::timestamp with time zone, before_id uuid DEFAULT NULL::uuid, max_rows integer DEFAULT 50)
 RETURNS TABLE(id uuid, search_string text, identifier_kind text, result_count integer, city text, region text, country text, signed_in boolean, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_search text := nullif(btrim(coalesce(search, '')), '');
  v_pattern text;
  v_canonical text;
  v_kind text := nullif(btrim(coalesce(kind, '')), '');
  v_country text := upper(nullif(btrim(coalesce(country_code, '')), ''));
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the search history' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_search) > 256 then
    raise exception 'search is at most 256 characters' using errcode = '22023', hint = '{"code": "search_too_long", "max": 256}';
  end if;
  if char_length(v_kind) > 32 or char_length(v_country) > 64 then
    raise exception 'kind or country is too long' using errcode = '22023', hint = '{"code": "filter_too_long"}';
  end if;
  if since is not null and until is not null and until <= since then
    raise exception 'until must be after since' using errcode = '22023', hint = '{"code": "range_reversed"}';
  end if;
  if (before_created_at is null) <> (before_id is null) then
    raise exception 'before_created_at and before_id go together' using errcode = '22023', hint = '{"code": "cursor_incomplete"}';
  end if;
  if v_search is not null then
    v_pattern := private.contains_pattern(v_search);
    v_canonical := public.canonical_identifier_auto(v_search);
  end if;
  -- Only the filters in use are in the statement (dynamic SQL, planned for its values each call), so
  -- every combination gets the plan of its own indexes, never a generic plan for "x is null or ...".
  return query execute
    'select l.id, l.search_string, l.identifier_kind, l.result_count, l.city, l.region, l.country,
            l.user_id is not null, l.created_at
     from public.search_log l where true'
    || case when v_search is null then ''
            when v_canonical is null then ' and l.search_string ilike $1'
            else ' and (l.search_string ilike $1 or l.identifier_canonical = $2)' end
    || case when v_kind is null then '' else ' and l.identifier_kind = $3' end
    || case when v_country is null then '' else ' and l.country = $4' end
    || case when no_results is null then ''
            when no_results then ' and l.result_count = 0' else ' and l.result_count <> 0' end
    || case when since is null then '' else ' and l.created_at >= $5' end
    || case when until is null then '' else ' and l.created_at < $6' end
    || case when before_created_at is null then ''
            else ' and l.created_at <= $7 and (l.created_at < $7 or l.id < $8)' end
    || ' order by l.created_at desc, l.id desc limit $9'
    using v_pattern, v_canonical, v_kind, v_country, since, until, before_created_at, before_id,
          least(greatest(coalesce(max_rows, 50), 1), 200);
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
    raise exception 'say whether to suspend or unsuspend' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "suspend", "choices": "true, false"}';
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

CREATE OR REPLACE FUNCTION public.admin_users(search text DEFAULT NULL::text, role text DEFAULT NULL::text, suspended boolean DEFAULT NULL::boolean, min_reports integer DEFAULT NULL::integer, before_created_at timestamp with time zone DEFAULT NULL::timestamp with time zone, before_id uuid DEFAULT NULL::uuid, max_rows integer DEFAULT 50)
 RETURNS TABLE(id uuid, name text, email text, created_at timestamp with time zone, last_sign_in_at timestamp with time zone, is_admin boolean, reports_filed bigint, reports_verified bigint, reports_rejected bigint, reports_removed bigint, suspended_until timestamp with time zone, suspension_reason text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
declare
  v_pattern text;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can list users' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if role is not null and role not in ('admin', 'user') then
    raise exception 'role is admin or user' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "role", "choices": "admin, user"}';
  end if;
  if char_length(search) > 200 then
    raise exception 'search is at most 200 characters' using errcode = '22023', hint = jsonb_build_object('code', 'search_too_long', 'max', 200)::text;
  end if;
  v_pattern := '%' || replace(replace(replace(btrim(coalesce(search, '')), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query
  with page as (
    select u.id, u.created_at, u.last_sign_in_at, u.banned_until, u.email::text as auth_email, p.name,
           p.email as profile_email
    from auth.users u
    left join public.profiles p on p.id = u.id
    where (coalesce(btrim(search), '') = ''
           or p.name ilike v_pattern or coalesce(p.email, u.email::text) ilike v_pattern
           or u.id::text = lower(btrim(search)))
      and (admin_users.role is null
           or (admin_users.role = 'admin') = exists (
                select 1 from public.user_roles ur where ur.user_id = u.id and ur.role = 'admin'))
      and (admin_users.suspended is null or admin_users.suspended = coalesce(u.banned_until > now(), false))
      and (min_reports is null or coalesce((select sum(c.n) from private.reporter_report_counts c
                                            where c.user_id = u.id), 0) >= min_reports)
      and (before_created_at is null or (u.created_at, u.id) < (before_created_at, coalesce(before_id, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)))
      and u.deleted_at is null
    order by u.created_at desc, u.id desc
    limit least(greatest(coalesce(max_rows, 50), 1), 200)
  )
  select pg.id, pg.name, coalesce(pg.profile_email, pg.auth_email), pg.created_at, pg.last_sign_in_at,
         exists (select 1 from public.user_roles ur where ur.user_id = pg.id and ur.role = 'admin'),
         coalesce(c.filed, 0)::bigint, coalesce(c.verified, 0)::bigint, coalesce(c.rejected, 0)::bigint,
         coalesce(c.removed, 0)::bigint,
         case when pg.banned_until > now() then pg.banned_until end,
         case when pg.banned_until > now() then (
           select s.reason from public.account_suspensions s
           where s.user_id = pg.id and s.action = 'suspend' order by s.id desc limit 1) end
  from page pg
  left join lateral (
    select sum(rc.n) as filed,
           sum(rc.n) filter (where rc.status = 'verified') as verified,
           sum(rc.n) filter (where rc.status = 'rejected') as rejected,
           sum(rc.n) filter (where rc.status = 'removed') as removed
    from private.reporter_report_counts rc where rc.user_id = pg.id) c on true
  order by pg.created_at desc, pg.id desc;
end
$function$;

CREATE OR REPLACE FUNCTION public.admin_visitor_log(search text DEFAULT NULL::text, place text DEFAULT NULL::text, country_code text DEFAULT NULL::text, since timestamp with time zone DEFAULT NULL::timestamp with time zone, until timestamp with time zone DEFAULT NULL::timestamp with time zone, before_created_at timestamp with time zone DEFAULT NULL::timestamp with time zone, before_id uuid DEFAULT NULL::uuid, max_rows integer DEFAULT 50)
 RETURNS TABLE(id uuid, path text, city text, region text, country text, signed_in boolean, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_search text := nullif(btrim(coalesce(search, '')), '');
  v_place text := nullif(btrim(coalesce(place, '')), '');
  v_country text := upper(nullif(btrim(coalesce(country_code, '')), ''));
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read the visitors' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if char_length(v_search) > 300 or char_length(v_place) > 200 or char_length(v_country) > 64 then
    raise exception 'search, place or country is too long' using errcode = '22023', hint = '{"code": "filter_too_long"}';
  end if;
  if since is not null and until is not null and until <= since then
    raise exception 'until must be after since' using errcode = '22023', hint = '{"code": "range_reversed"}';
  end if;
  if (before_created_at is null) <> (before_id is null) then
    raise exception 'before_created_at and before_id go together' using errcode = '22023', hint = '{"code": "cursor_incomplete"}';
  end if;
  return query execute
    'select v.id, v.path, v.city, v.region, v.country, v.user_id is not null, v.created_at
     from public.visitor_log v where true'
    || case when v_search is null then '' else ' and v.path ilike $1' end
    || case when v_place is null then ''
            else ' and (coalesce(v.city, '''') || '' '' || coalesce(v.region, '''')) ilike $2' end
    || case when v_country is null then '' else ' and v.country = $3' end
    || case when since is null then '' else ' and v.created_at >= $4' end
    || case when until is null then '' else ' and v.created_at < $5' end
    || case when before_created_at is null then ''
            else ' and v.created_at <= $6 and (v.created_at < $6 or v.id < $7)' end
    || ' order by v.created_at desc, v.id desc limit $8'
    using private.contains_pattern(v_search), private.contains_pattern(v_place), v_country, since, until,
          before_created_at, before_id, least(greatest(coalesce(max_rows, 50), 1), 200);
end
$function$;

CREATE OR REPLACE FUNCTION public.claim_phone_ownership(kind text, value text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v_phone text;
  v_confirmed timestamptz;
  v public.ownership_proofs;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  if kind is null or lower(kind) not in ('mobile', 'ewallet') then
    raise exception 'only mobile numbers and e-wallets are proved by SMS' using errcode = '22023', hint = '{"code": "ownership_method_invalid"}';
  end if;
  v_canonical := public.canonical_identifier(lower(kind), value);
  if v_canonical is null or v_canonical !~ '^\+[0-9]{8,15}$' then
    raise exception 'not a valid mobile number' using errcode = '22023', hint = '{"code": "mobile_invalid"}';
  end if;
  select u.phone, u.phone_confirmed_at into v_phone, v_confirmed from auth.users u where u.id = v_uid;
  if v_phone is null or v_phone = '' or public.canonical_identifier('mobile', '+' || ltrim(v_phone, '+')) <> v_canonical
     or v_confirmed is null
     or v_confirmed < now() - make_interval(mins => private.ownership_setting('ownership_code_minutes', 15)) then
    raise exception 'confirm this number by SMS code first' using errcode = '22023', hint = '{"code": "phone_not_confirmed"}';
  end if;
  v := private.live_proof(v_uid, v_canonical);
  if v.id is not null and v.method = 'sms' then
    return private.proof_json(v);
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method)
  values (v_uid, lower(kind)::public.reported_account_type, v_canonical, 'sms')
  returning * into v;
  perform private.log_proof(v.id, 'started', null, 'sms');
  return private.proof_json(private.verify_proof(v.id, 'phone_change code confirmed ' || v_confirmed::text));
end
$function$;

CREATE OR REPLACE FUNCTION public.decide_ownership_evidence(evidence_id uuid, approve boolean, reason text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_evidence public.ownership_evidence;
  v public.ownership_proofs;
  v_reason text := nullif(btrim(reason), '');
begin
  if v_uid is null or not private.is_admin() then
    raise exception 'only admins review ownership evidence' using errcode = '42501', hint = '{"code": "admin_only"}';
  end if;
  if approve is null then
    raise exception 'approve or reject' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "decision", "choices": "approve, reject"}';
  end if;
  if v_reason is not null and char_length(v_reason) > 500 then
    raise exception 'a reason is at most 500 characters' using errcode = '22023', hint = '{"code": "reason_too_long", "max": 500}';
  end if;
  if not approve and v_reason is null then
    raise exception 'give a reason for the rejection (1 to 500 characters)' using errcode = '22023', hint = '{"code": "reason_length", "min": 1, "max": 500}';
  end if;
  select * into v_evidence from public.ownership_evidence e
   where e.id = decide_ownership_evidence.evidence_id for update;
  if v_evidence.id is null then
    raise exception 'no such evidence' using errcode = '22023', hint = '{"code": "evidence_missing"}';
  end if;
  if v_evidence.user_id = v_uid then
    raise exception 'you cannot review your own evidence' using errcode = '42501', hint = '{"code": "evidence_own_review"}';
  end if;
  if v_evidence.decision is not null then
    raise exception 'this evidence was already decided' using errcode = '22023', hint = '{"code": "evidence_decided"}';
  end if;
  select * into v from public.ownership_proofs p where p.id = v_evidence.proof_id for update;
  if v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'this proof is no longer waiting' using errcode = '22023', hint = '{"code": "ownership_proof_closed"}';
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
    raise exception 'a decision is keep, hide or remove' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "decision", "choices": "keep, hide, remove"}';
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

CREATE OR REPLACE FUNCTION public.feed_build_start(rules_key text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_full boolean;
  v_changes integer;
begin
  if coalesce(feed_build_start.rules_key, '') = '' then
    raise exception 'rules_key is required' using errcode = '22023', hint = '{"code": "argument_required", "argument": "rules_key"}';
  end if;
  select b.full_at is null or b.full_at < now() - interval '1 day'
         or b.rules_key is distinct from feed_build_start.rules_key
  into v_full
  from private.feed_build b where b.id = 1;
  truncate private.feed_changes;
  -- The queue is taken before the reports are read (each statement reads what was committed when it
  -- started): an identifier queued meanwhile stays queued for the next build.
  if v_full then
    delete from private.feed_dirty;
    truncate private.feed_candidate_rows;
    insert into private.feed_candidate_rows
    select c.kind, c.canonical, c.written, c.first_reported, c.last_reported, c.reports, c.reporters, c.scam_type
    from public.feed_candidates() c;
    insert into private.feed_changes (kind, canonical)
    select c.kind, c.canonical from private.feed_candidate_rows c;
    insert into private.feed_changes (kind, canonical)
    select f.kind, f.canonical from private.feed_items f where f.withdrawn_at is null
    on conflict do nothing;
  else
    with taken as (delete from private.feed_dirty returning kind, canonical)
    insert into private.feed_changes (kind, canonical)
    select t.kind, t.canonical from taken t
    on conflict do nothing;
    delete from private.feed_candidate_rows c
    using private.feed_changes ch
    where c.kind = ch.kind and c.canonical = ch.canonical;
    -- public.feed_candidates' aggregation, for the changed identifiers only.
    insert into private.feed_candidate_rows
    select r.reported_account_type::text, r.reported_account_canonical,
           (array_agg(r.reported_account order by r.created_at, r.id))[1],
           min(r.created_at), max(r.created_at), count(*)::int, count(distinct r.reporter_id)::int,
           (mode() within group (order by r.incident_type))::text
    from private.feed_changes ch
    join public.reports r
      on r.reported_account_canonical = ch.canonical and r.reported_account_type::text = ch.kind
    where r.status = 'verified'
    group by r.reported_account_type, r.reported_account_canonical;
  end if;
  select count(*)::int into v_changes from private.feed_changes;
  analyze private.feed_changes;
  if v_full then
    analyze private.feed_candidate_rows;
  end if;
  update private.feed_build
  set step = 'classify', started_at = now(), updated_at = now(), synced_at = null, requests = 1,
      full_at = case when v_full then now() else full_at end, rules_key = feed_build_start.rules_key
  where id = 1;
  return jsonb_build_object('full', v_full, 'changes', v_changes,
                            'candidates', (select count(*) from private.feed_candidate_rows));
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_classify_store(classes jsonb, rules_key text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  if jsonb_typeof(feed_classify_store.classes) is distinct from 'array' then
    raise exception 'classes must be a JSON array' using errcode = '22023', hint = '{"code": "argument_not_array", "argument": "classes"}';
  end if;
  if coalesce(feed_classify_store.rules_key, '') = '' then
    raise exception 'rules_key is required' using errcode = '22023', hint = '{"code": "argument_required", "argument": "rules_key"}';
  end if;
  insert into private.feed_classes (kind, canonical, listed, tlp, indicator_type, value, brand, rules_key, classified_at)
  select x.kind, x.canonical, x.listed, x.tlp, x.indicator_type, x.value, x.brand, feed_classify_store.rules_key, now()
  from jsonb_to_recordset(feed_classify_store.classes)
    as x(kind text, canonical text, listed boolean, tlp text, indicator_type text, value text, brand text)
  on conflict (kind, canonical) do update
    set listed = excluded.listed, tlp = excluded.tlp, indicator_type = excluded.indicator_type,
        value = excluded.value, brand = excluded.brand, rules_key = excluded.rules_key,
        classified_at = excluded.classified_at;
  get diagnostics v_count = row_count;
  return v_count;
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_file_body(tlp text, part text, grp text, period text, format_key text, prefix text, separator text, suffix text)
 RETURNS TABLE(body text, sha256 text, bytes integer, items integer)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_body text;
  v_items integer;
  v_missing integer;
begin
  if feed_file_body.part not in ('csv', 'json', 'list', 'misp', 'stix') then
    raise exception 'part is csv, json, list, misp or stix' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "part", "choices": "csv, json, list, misp, stix"}';
  end if;
  if feed_file_body.grp not in ('all', 'day', 'month') then
    raise exception 'grp is all, day or month' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "grp", "choices": "all, day, month"}';
  end if;
  select count(*) filter (where r.item_id is null or r.version_at <> f.version_at or r.format_key <> feed_file_body.format_key)::int,
         count(*)::int,
         string_agg(case feed_file_body.part when 'csv' then r.csv when 'json' then r.json when 'list' then f.value
                                             when 'misp' then r.misp else r.stix end,
                    feed_file_body.separator order by f.id)
  into v_missing, v_items, v_body
  from private.feed_items f
  left join private.feed_renders r on r.item_id = f.id
  where f.tlp = feed_file_body.tlp
    and f.withdrawn_at is null
    and (feed_file_body.part <> 'list' or feed_file_body.tlp <> 'clear' or f.indicator_type in ('url', 'domain', 'ip'))
    and (feed_file_body.grp = 'all'
         or (feed_file_body.grp = 'day' and f.event_day = feed_file_body.period::date)
         or (feed_file_body.grp = 'month' and f.event_day >= (feed_file_body.period || '-01')::date
             and f.event_day < (feed_file_body.period || '-01')::date + interval '1 month'));
  if v_missing > 0 and feed_file_body.part <> 'list' then
    raise exception '% items of this file are not rendered for this format', v_missing using errcode = '55000', hint = jsonb_build_object('code', 'feed_not_rendered', 'missing', v_missing)::text;
  end if;
  v_body := feed_file_body.prefix || coalesce(v_body, '') || feed_file_body.suffix;
  return query select v_body, encode(pg_catalog.sha256(convert_to(v_body, 'UTF8')), 'hex'),
                      octet_length(v_body), v_items;
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_render_store(renders jsonb, format_key text)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  if jsonb_typeof(feed_render_store.renders) is distinct from 'array' then
    raise exception 'renders must be a JSON array' using errcode = '22023', hint = '{"code": "argument_not_array", "argument": "renders"}';
  end if;
  insert into private.feed_renders (item_id, version_at, format_key, csv, json, misp, stix)
  select x.id, x.version_at, feed_render_store.format_key, x.csv, x.json, x.misp, x.stix
  from jsonb_to_recordset(feed_render_store.renders)
    as x(id bigint, version_at timestamptz, csv text, json text, misp text, stix text)
  join private.feed_items f on f.id = x.id and f.version_at = x.version_at
  on conflict (item_id) do update
    set version_at = excluded.version_at, format_key = excluded.format_key, csv = excluded.csv,
        json = excluded.json, misp = excluded.misp, stix = excluded.stix;
  get diagnostics v_count = row_count;
  return v_count;
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_sync(items jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_added integer;
  v_updated integer;
  v_withdrawn integer;
  v_new bigint[];
  -- Milliseconds, as STIX timestamps and TAXII's added_after carry them: a client's cursor is exact.
  v_now timestamptz := date_trunc('milliseconds', now());
begin
  if jsonb_typeof(feed_sync.items) is distinct from 'array' then
    raise exception 'items must be a JSON array' using errcode = '22023', hint = '{"code": "argument_not_array", "argument": "items"}';
  end if;
  -- One sync at a time: two jobs overlapping would withdraw each other's rows.
  perform pg_advisory_xact_lock(hashtextextended('feed_sync', 0));
  drop table if exists pg_temp.feed_incoming;
  create temporary table feed_incoming on commit drop as
  select x.kind, x.canonical, x.tlp, x.indicator_type, x.value, x.written, x.first_reported, x.last_reported,
         x.reports, x.reporters, x.scam_type, x.brand
  from jsonb_to_recordset(feed_sync.items) as x(
    kind text, canonical text, tlp text, indicator_type text, value text, written text,
    first_reported timestamptz, last_reported timestamptz, reports integer, reporters integer,
    scam_type text, brand text);
  if exists (select 1 from feed_incoming i group by i.kind, i.canonical having count(*) > 1) then
    raise exception 'items lists an identifier twice' using errcode = '22023', hint = '{"code": "feed_item_duplicate"}';
  end if;
  if exists (select 1 from feed_incoming i
             where i.kind is null or i.canonical is null or i.tlp is null or i.indicator_type is null
                or i.value is null or i.written is null or i.first_reported is null or i.last_reported is null
                or i.reports is null or i.reporters is null or i.scam_type is null) then
    raise exception 'every item needs kind, canonical, tlp, indicator_type, value, written, first_reported, last_reported, reports, reporters and scam_type' using errcode = '22023', hint = '{"code": "feed_item_incomplete"}';
  end if;
  analyze feed_incoming;

  with changed as (
    update private.feed_items f
    set tlp = i.tlp, indicator_type = i.indicator_type, value = i.value, written = i.written,
        first_reported = i.first_reported, last_reported = i.last_reported, reports = i.reports,
        reporters = i.reporters, scam_type = i.scam_type, brand = i.brand,
        version_at = v_now, withdrawn_at = null
    from feed_incoming i
    where i.kind = f.kind and i.canonical = f.canonical
      and (f.withdrawn_at is not null
           or (f.tlp, f.indicator_type, f.value, f.written, f.first_reported, f.last_reported, f.reports,
               f.reporters, f.scam_type, f.brand)
              is distinct from
              (i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported, i.reports,
               i.reporters, i.scam_type, i.brand))
    returning 1)
  select count(*) into v_updated from changed;

  with gone as (
    update private.feed_items f
    set withdrawn_at = v_now, version_at = v_now
    where f.withdrawn_at is null
      and not exists (select 1 from feed_incoming i where i.kind = f.kind and i.canonical = f.canonical)
    returning 1)
  select count(*) into v_withdrawn from gone;

  with added as (
    insert into private.feed_items (kind, canonical, tlp, indicator_type, value, written, first_reported,
                                    last_reported, reports, reporters, scam_type, brand, event_day, added_at, version_at)
    select i.kind, i.canonical, i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported,
           i.reports, i.reporters, i.scam_type, i.brand, (i.first_reported at time zone 'UTC')::date, v_now, v_now
    from feed_incoming i
    where not exists (select 1 from private.feed_items f where f.kind = i.kind and f.canonical = i.canonical)
    returning id, tlp, indicator_type)
  select count(*)::int,
         coalesce(array_agg(a.id order by a.id) filter (where a.tlp = 'clear' and a.indicator_type in ('url', 'domain')), '{}')
  into v_added, v_new
  from added a;

  return jsonb_build_object('added', v_added, 'updated', v_updated, 'withdrawn', v_withdrawn,
                            'new_links', to_jsonb(v_new));
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_sync_changes()
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_added integer;
  v_updated integer;
  v_withdrawn integer;
  v_new bigint[];
  v_candidates integer;
  v_listed jsonb;
  v_clear integer;
  v_amber integer;
  -- Milliseconds, as STIX timestamps and TAXII's added_after carry them: a client's cursor is exact.
  v_now timestamptz := date_trunc('milliseconds', now());
begin
  -- One sync at a time (the lock public.feed_sync takes).
  perform pg_advisory_xact_lock(hashtextextended('feed_sync', 0));
  if exists (select 1 from private.feed_changes ch
             join private.feed_candidate_rows c on c.kind = ch.kind and c.canonical = ch.canonical
             where not exists (select 1 from private.feed_classes k where k.kind = c.kind and k.canonical = c.canonical)) then
    raise exception 'some identifiers of the build are not classified yet' using errcode = '55000', hint = '{"code": "feed_not_classified"}';
  end if;
  drop table if exists pg_temp.feed_incoming_changes;
  create temporary table feed_incoming_changes on commit drop as
  select c.kind, c.canonical, k.tlp, k.indicator_type, k.value, c.written, c.first_reported, c.last_reported,
         c.reports, c.reporters, c.scam_type, k.brand
  from private.feed_changes ch
  join private.feed_candidate_rows c on c.kind = ch.kind and c.canonical = ch.canonical
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where k.listed;
  analyze feed_incoming_changes;

  with changed as (
    update private.feed_items f
    set tlp = i.tlp, indicator_type = i.indicator_type, value = i.value, written = i.written,
        first_reported = i.first_reported, last_reported = i.last_reported, reports = i.reports,
        reporters = i.reporters, scam_type = i.scam_type, brand = i.brand,
        version_at = v_now, withdrawn_at = null
    from feed_incoming_changes i
    where i.kind = f.kind and i.canonical = f.canonical
      and (f.withdrawn_at is not null
           or (f.tlp, f.indicator_type, f.value, f.written, f.first_reported, f.last_reported, f.reports,
               f.reporters, f.scam_type, f.brand)
              is distinct from
              (i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported, i.reports,
               i.reporters, i.scam_type, i.brand))
    returning 1)
  select count(*) into v_updated from changed;

  with gone as (
    update private.feed_items f
    set withdrawn_at = v_now, version_at = v_now
    from private.feed_changes ch
    where ch.kind = f.kind and ch.canonical = f.canonical
      and f.withdrawn_at is null
      and not exists (select 1 from feed_incoming_changes i where i.kind = f.kind and i.canonical = f.canonical)
    returning 1)
  select count(*) into v_withdrawn from gone;

  with added as (
    insert into private.feed_items (kind, canonical, tlp, indicator_type, value, written, first_reported,
                                    last_reported, reports, reporters, scam_type, brand, event_day, added_at, version_at)
    select i.kind, i.canonical, i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported,
           i.reports, i.reporters, i.scam_type, i.brand, (i.first_reported at time zone 'UTC')::date, v_now, v_now
    from feed_incoming_changes i
    where not exists (select 1 from private.feed_items f where f.kind = i.kind and f.canonical = i.canonical)
    returning id, tlp, indicator_type)
  select count(*)::int,
         coalesce(array_agg(a.id order by a.id) filter (where a.tlp = 'clear' and a.indicator_type in ('url', 'domain')), '{}')
  into v_added, v_new
  from added a;

  -- After the sync the listed items are the listed candidates, so the counts come from the items.
  select count(*) filter (where f.tlp = 'clear')::int, count(*) filter (where f.tlp = 'amber')::int
  into v_clear, v_amber
  from private.feed_items f where f.withdrawn_at is null;
  select count(*)::int into v_candidates from private.feed_candidate_rows;
  v_listed := jsonb_build_object('clear', v_clear, 'amber', v_amber);
  update private.feed_build
  set step = 'render', updated_at = now(), synced_at = v_now
  where id = 1;
  return jsonb_build_object('added', v_added, 'updated', v_updated, 'withdrawn', v_withdrawn,
                            'new_links', to_jsonb(v_new), 'synced_at', v_now,
                            'left_out', v_candidates - v_clear - v_amber, 'listed', v_listed,
                            'candidates', v_candidates);
end
$function$;

CREATE OR REPLACE FUNCTION public.feed_sync_classified()
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_items jsonb;
  v_sync jsonb;
  v_left_out integer;
  v_listed jsonb;
begin
  if exists (select 1 from private.feed_candidate_rows c
             where not exists (select 1 from private.feed_classes k where k.kind = c.kind and k.canonical = c.canonical)) then
    raise exception 'some identifiers of the build are not classified yet' using errcode = '55000', hint = '{"code": "feed_not_classified"}';
  end if;
  select coalesce(jsonb_agg(jsonb_build_object(
           'kind', c.kind, 'canonical', c.canonical, 'tlp', k.tlp, 'indicator_type', k.indicator_type,
           'value', k.value, 'written', c.written, 'first_reported', c.first_reported,
           'last_reported', c.last_reported, 'reports', c.reports, 'reporters', c.reporters,
           'scam_type', c.scam_type, 'brand', k.brand)), '[]'::jsonb)
  into v_items
  from private.feed_candidate_rows c
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical
  where k.listed;
  select count(*) filter (where not k.listed)::int,
         jsonb_build_object('clear', count(*) filter (where k.listed and k.tlp = 'clear'),
                            'amber', count(*) filter (where k.listed and k.tlp = 'amber'))
  into v_left_out, v_listed
  from private.feed_candidate_rows c
  join private.feed_classes k on k.kind = c.kind and k.canonical = c.canonical;
  v_sync := public.feed_sync(v_items);
  update private.feed_build
  set step = 'render', updated_at = now(), synced_at = date_trunc('milliseconds', now())
  where id = 1;
  return v_sync || jsonb_build_object('synced_at', date_trunc('milliseconds', now()), 'left_out', v_left_out,
                                      'listed', v_listed,
                                      'candidates', (select count(*) from private.feed_candidate_rows));
end
$function$;

CREATE OR REPLACE FUNCTION public.issue_ownership_code(proof_id uuid)
 RETURNS TABLE(address text, code text, language text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v public.ownership_proofs;
  v_code text;
begin
  select * into v from public.ownership_proofs p where p.id = issue_ownership_code.proof_id for update;
  if v.id is null or v.method <> 'email' or v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'no e-mail proof waiting for a code' using errcode = '22023', hint = '{"code": "ownership_proof_closed"}';
  end if;
  -- Serialises codes to one address, so two proofs cannot both pass the checks below at once.
  perform pg_advisory_xact_lock(hashtextextended('ownership_code:' || v.identifier_canonical, 0));
  if exists (select 1 from public.ownership_proofs p
              where p.identifier_canonical = v.identifier_canonical and p.method = 'email'
                and p.code_sent_at > now() - interval '1 minute') then
    raise exception 'A code was sent to this address less than a minute ago' using errcode = 'P0001', hint = '{"code": "ownership_code_too_soon", "retry_after": 60}';
  end if;
  if (select count(*) from public.ownership_proof_log l join public.ownership_proofs p on p.id = l.proof_id
       where p.identifier_canonical = v.identifier_canonical and p.method = 'email'
         and l.event = 'code_sent' and l.created_at > now() - interval '1 hour') >= 5 then
    raise exception 'Too many codes sent to this address; try again in an hour' using errcode = 'P0001', hint = '{"code": "ownership_codes_too_many"}';
  end if;
  v_code := lpad((('x' || encode(extensions.gen_random_bytes(4), 'hex'))::bit(32)::bigint % 1000000)::text, 6, '0');
  update public.ownership_proofs p
     set code_hash = encode(sha256(convert_to(v_code, 'UTF8')), 'hex'), code_sent_at = now(), wrong_tries = 0
   where p.id = v.id;
  perform private.log_proof(v.id, 'code_sent', null, null);
  return query select v.identifier_canonical, v_code,
    coalesce((select pr.language from public.profiles pr where pr.id = v.user_id), 'en');
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
    raise exception 'a decision is verified, rejected or removed (use undo to take one back)' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "decision", "choices": "verified, rejected, removed"}';
  end if;
  if moderate_reports.status in ('rejected', 'removed') and reason is null then
    raise exception 'a % decision needs a reason', moderate_reports.status using errcode = '22023', hint = '{"code": "reason_required"}';
  end if;
  if reason is not null and not (reason = any (public.moderation_reasons())) then
    raise exception 'unknown reason %', reason using errcode = '22023', hint = jsonb_build_object('code', 'reason_unknown', 'reason', reason)::text;
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

CREATE OR REPLACE FUNCTION public.owner_statements_in_ranges(prefixes text[])
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if prefixes is null or cardinality(prefixes) > 50
     or exists (select 1 from unnest(prefixes) p where p is null or p !~ '^[0-9a-f]{5}$') then
    raise exception 'prefixes: up to 50 prefixes of 5 lower-case hex characters' using errcode = '22023', hint = '{"code": "range_prefixes_invalid", "max": 50}';
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'hash', h.hash,
             'statement', s.body,
             'updated_at', s.updated_at,
             'verified_by', p.method,
             'verified_at', p.verified_at
           ) order by h.hash, s.updated_at desc), '[]'::jsonb)
    from public.owner_statements s
    cross join lateral (select encode(sha256(convert_to(s.identifier_canonical, 'UTF8')), 'hex') as hash) h
    cross join lateral private.live_proof(s.user_id, s.identifier_canonical) p
    where s.hidden_at is null
      and p.id is not null
      and left(h.hash, 5) = any (prefixes)
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.public_statistics(period text DEFAULT 'last_12_months'::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_today date := (now() at time zone 'UTC')::date;
  v_from date;
  v_amount_total numeric;
  v_amount_reports bigint;
begin
  if period is null or period not in ('last_30_days', 'last_12_months', 'all_time') then
    raise exception 'period must be last_30_days, last_12_months or all_time' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "period", "choices": "last_30_days, last_12_months, all_time"}';
  end if;
  if period = 'last_30_days' then
    v_from := v_today - 29;
  elsif period = 'last_12_months' then
    v_from := (date_trunc('month', v_today::timestamp) - interval '11 months')::date;
  else
    -- The first month with reports: its shards summed (one shard may hold a report's removal and
    -- another its filing).
    v_from := coalesce((select min(m.month) from (
                          select month from private.stats_monthly group by month having sum(report_count) > 0
                        ) m),
                       date_trunc('month', v_today::timestamp)::date);
  end if;

  -- The period's verified amounts (issue 27), from the rollups instead of the reports themselves: the
  -- sum over every verified report of the period read half a million rows at 1M reports (2.3 s all
  -- time, issue 37). Whole months (12 months, all time) carry how many verified reports gave an amount;
  -- the last 30 days sum the days' amounts, and since only "at least 5" matters there, the count stops
  -- at five rows of the partial index below.
  if period = 'last_30_days' then
    select coalesce(sum(d.amount_total), 0) into v_amount_total
      from private.stats_daily d
      where d.status = 'verified' and d.day between v_from and v_today;
    select count(*) into v_amount_reports
      from (select 1 from public.reports r
            where r.status = 'verified' and r.amount_lost > 0
              and r.created_at >= v_from::timestamp at time zone 'UTC'
            limit 5) five;
  else
    select coalesce(sum(m.amount_total), 0), coalesce(sum(m.amount_reports), 0)
      into v_amount_total, v_amount_reports
      from private.stats_monthly m
      where m.status = 'verified' and m.month >= v_from and m.month <= v_today;
  end if;

  return jsonb_build_object(
    'period', period,
    'from', v_from,
    'to', v_today,
    'generated_at', now(),
    'small_count_threshold', 5,
    'totals', (
      -- 12 months and all time start on the first of a month and end today, so whole months of
      -- stats_monthly hold the same sums as their days (about 1/30 of the rows); the last 30 days
      -- start mid-month and are summed by day.
      select jsonb_build_object(
        'reports', coalesce(sum(t.report_count), 0),
        'verified', coalesce(sum(t.report_count) filter (where t.status = 'verified'), 0),
        'pending', coalesce(sum(t.report_count) filter (where t.status = 'pending'), 0),
        -- Issue 27: verified amounts only, and only as the sum of at least 5 of them.
        'amount_lost', case when v_amount_reports >= 5 then v_amount_total end,
        'amount_fewer_than_5', v_amount_reports < 5)
      from (
        select d.status, d.report_count from private.stats_daily d
        where period = 'last_30_days' and d.day between v_from and v_today
        union all
        select m.status, m.report_count from private.stats_monthly m
        where period <> 'last_30_days' and m.month >= v_from and m.month <= v_today
      ) t
    ),
    'weekly', private.stats_series('week', v_from, v_today),
    'monthly', private.stats_series('month', v_from, v_today),
    'amounts', (
      -- Issue 27: each month's verified amounts only, shown as a total of at least 5 of them.
      select coalesce(jsonb_agg(jsonb_build_object(
               'month', m.month,
               'total', case when coalesce(t.n, 0) >= 5 then t.total when coalesce(t.n, 0) = 0 then 0 end,
               'reports_with_amount', coalesce(t.n, 0),
               'median', case when coalesce(t.n, 0) >= 5 and md.amount_reports >= 5 then md.median_amount end,
               'fewer_than_5', coalesce(t.n, 0) between 1 and 4) order by m.month), '[]'::jsonb)
      from generate_series(date_trunc('month', v_from::timestamp), date_trunc('month', v_today::timestamp), interval '1 month') m0
      cross join lateral (select m0::date as month) m
      left join (
        select s.month, sum(s.amount_total) as total, sum(s.amount_reports) as n
        from private.stats_monthly s
        where s.month >= date_trunc('month', v_from::timestamp)::date and s.status = 'verified'
        group by s.month
      ) t on t.month = m.month
      left join private.stats_monthly_medians md on md.month = m.month
    ),
    'regions', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'code', g.code, 'name', g.name, 'lat', g.lat, 'lng', g.lng,
               'count', case when coalesce(c.n, 0) between 1 and 4 then null else coalesce(c.n, 0) end,
               'fewer_than_5', coalesce(c.n, 0) between 1 and 4) order by g.sort_order), '[]'::jsonb)
      from private.ph_regions g
      left join (
        select d.region_code, sum(d.report_count) as n from private.stats_region_daily d
        where period = 'last_30_days' and d.day between v_from and v_today
        group by d.region_code
        union all
        select m.region_code, sum(m.report_count) from private.stats_region_monthly m
        where period <> 'last_30_days' and m.month >= v_from
        group by m.region_code
      ) c on c.region_code = g.code
    ),
    'top_identifiers', (
      select coalesce(jsonb_agg(jsonb_build_object(
               'rank', t.rank,
               'identifier', private.mask_identifier(t.reported_account_type, t.identifier_canonical),
               'masked', t.reported_account_type in ('mobile', 'email', 'ewallet'),
               -- Masked kinds link through ref (public.search_top_identifier), the others by their value.
               'search', case when t.reported_account_type in ('mobile', 'email', 'ewallet') then null else t.identifier_canonical end,
               'ref', t.ref,
               'reported_account_type', t.reported_account_type,
               'verified_reports', t.verified_count) order by t.rank), '[]'::jsonb)
      from private.stats_top_identifiers t
    ),
    'top_identifiers_refreshed_at', (select max(refreshed_at) from private.stats_top_identifiers)
  );
end
$function$;

CREATE OR REPLACE FUNCTION public.range_lookup(prefix text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if prefix is null or prefix !~ '^[0-9a-fA-F]{5}$' then
    raise exception 'prefix must be 5 hex characters' using errcode = '22023', hint = '{"code": "range_prefix_invalid"}';
  end if;
  return coalesce((select e.entries from private.range_entries(array[lower(range_lookup.prefix)]) e), '[]'::jsonb);
end
$function$;

CREATE OR REPLACE FUNCTION public.range_lookup_limited_many(requests jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
  v_now timestamptz := clock_timestamp();
  v_kind text[];
  v_subject text[];
  v_revoked timestamptz[];
  v_addr text[];
  v_answers jsonb;
begin
  if jsonb_typeof(requests) is distinct from 'array' then
    raise exception 'requests must be a JSON array' using errcode = '22023', hint = '{"code": "argument_not_array", "argument": "requests"}';
  end if;
  v_count := jsonb_array_length(requests);
  if v_count > 256 then
    raise exception 'at most 256 requests in one call' using errcode = '22023', hint = '{"code": "range_requests_too_many", "max": 256}';
  end if;
  if exists (
    select 1 from jsonb_array_elements(requests) e(value)
    where jsonb_typeof(e.value) is distinct from 'array'
       or jsonb_typeof(e.value -> 0) is distinct from 'string'
       or jsonb_typeof(e.value -> 1) not in ('string', 'null')
       or jsonb_typeof(e.value -> 2) not in ('string', 'null')
       or (e.value ->> 0) !~ '^[0-9a-f]{5}$') then
    raise exception 'each request is [prefix (5 lowercase hex), key_hash or null, x_forwarded_for or null]'
      using errcode = '22023', hint = '{"code": "range_request_invalid"}';
  end if;
  if v_count = 0 then
    return '[]'::jsonb;
  end if;

  -- 1. Who each caller is: 'key' (its bucket 'key:<id>'), 'unknown', 'revoked', or 'anon' (its
  -- bucket the salted hash of its address, null without a public one).
  select array_agg(q.kind order by q.ord), array_agg(q.subject order by q.ord),
         array_agg(q.revoked_at order by q.ord), array_agg(q.addr order by q.ord)
    into v_kind, v_subject, v_revoked, v_addr
  from (
    select e.ord,
           case
             when e.value ->> 1 is null then 'anon'
             when k.id is null then 'unknown'
             when k.revoked_at is not null then 'revoked'
             else 'key'
           end as kind,
           case
             when e.value ->> 1 is not null then
               case when k.revoked_at is null then 'user:' || k.user_id end
             else private.address_key(
               case
                 when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
                 else private.client_address()
               end)
           end as subject,
           k.revoked_at,
           -- A keyed request's address: its second budget (range.address), shared by every account there.
           case when e.value ->> 1 is not null and k.id is not null and k.revoked_at is null then
             private.address_key(
               case
                 when e.value ->> 2 is not null then private.forwarded_client_address(e.value ->> 2)
                 else private.client_address()
               end)
           end as addr
    from jsonb_array_elements(requests) with ordinality e(value, ord)
    left join private.api_key_hashes h on h.key_hash = lower(e.value ->> 1)
    left join public.api_keys k on k.id = h.key_id
  ) q;

  -- A valid key's last use, at most once a minute (as private.api_limit_for), its row locked in key
  -- hash order.
  update public.api_keys k set last_used_at = now()
  from (
    select k2.id
    from private.api_key_hashes h
    join public.api_keys k2 on k2.id = h.key_id
    where h.key_hash in (select distinct lower(e.value ->> 1) from jsonb_array_elements(requests) e(value))
      and k2.revoked_at is null
      and (k2.last_used_at is null or k2.last_used_at < now() - interval '1 minute')
    order by h.key_hash
    for update of k2
  ) stale
  where k.id = stale.id;

  -- 2. Every bucket of an enabled limit, inserted empty or locked as it is, in (name, subject) order.
  insert into private.rate_limit_buckets as b (name, subject, tat)
  select r.name, r.subject, v_now
  from (
    select distinct case when s.kind = 'key' then 'range.account' else 'api.anon' end as name, s.subject
    from unnest(v_kind, v_subject) s(kind, subject)
    where s.subject is not null
    union
    select distinct 'range.address', s.addr
    from unnest(v_kind, v_addr) s(kind, addr)
    where s.kind = 'key' and s.addr is not null
  ) r
  join private.rate_limits l on l.name = r.name and l.enabled
  order by r.name, r.subject
  on conflict on constraint rate_limit_buckets_pkey do update set tat = b.tat where false;
  -- Now, read once the buckets are ours: the insert above may have waited for another call that took
  -- the same bucket, and a time from before that wait would make this call's state older than that
  -- call's (one call fewer remaining, or a refusal where calls one after another would be admitted),
  -- as private.rate_limit_take's clock, read after its own wait, is not. A new bucket's empty time
  -- above needs only to be no later than this.
  v_now := clock_timestamp();

  with req as (
    select s.ord, e.value ->> 0 as prefix, s.kind, s.subject, s.revoked_at, s.addr,
           case when s.kind = 'key' then 'range.account' else 'api.anon' end as name
    from unnest(v_kind, v_subject, v_revoked, v_addr) with ordinality s(kind, subject, revoked_at, addr, ord)
    join jsonb_array_elements(requests) with ordinality e(value, ord) on e.ord = s.ord
  ),
  -- Each limited request's place in each of its buckets (1 for the first of them in request order): the
  -- caller's own (range.account for a key, api.anon without one) and, for a key, its address's.
  buckets_of as (
    select r.ord, r.name, r.subject, true as primary_bucket from req r
    where r.kind in ('key', 'anon') and r.subject is not null
    union all
    select r.ord, 'range.address', r.addr, false from req r
    where r.kind = 'key' and r.subject is not null and r.addr is not null
  ),
  placed as (
    select b.ord, b.name, b.subject, b.primary_bucket,
           row_number() over (partition by b.name, b.subject order by b.ord) as place
    from buckets_of b
  ),
  -- Each bucket as it was (locked above), its limit, and how many of its requests it admits.
  bucket as (
    select b.name, b.subject, l.per_seconds,
           l.per_seconds::float8 / l.max_calls as step_s,
           greatest(b.tat, v_now) as base,
           (select count(*) from placed p
            where p.name = b.name and p.subject = b.subject
              and greatest(b.tat, v_now) + make_interval(secs => l.per_seconds::float8 / l.max_calls * p.place)
                  <= v_now + make_interval(secs => l.per_seconds)) as admitted
    from private.rate_limit_buckets b
    join private.rate_limits l on l.name = b.name and l.enabled
    where (b.name, b.subject) in (select p.name, p.subject from placed p)
  ),
  taken as (
    update private.rate_limit_buckets b
    set tat = t.base + make_interval(secs => t.step_s * t.admitted)
    from bucket t
    where b.name = t.name and b.subject = t.subject and t.admitted > 0
  ),
  -- Each limited request's state, as private.rate_limit_take computes it from its bucket's time once it
  -- is taken (admitted) or as the admitted ones left it (refused).
  state_each as (
    select p.ord, p.primary_bucket, p.name, a.allowed,
           greatest(0, floor((t.per_seconds - extract(epoch from (a.tat - v_now))) / t.step_s))::int as remaining,
           greatest(0, ceil(extract(epoch from (a.tat - v_now))))::int as reset,
           case
             when a.allowed then 0
             else greatest(1, ceil(extract(epoch from (
               a.tat + make_interval(secs => t.step_s) - make_interval(secs => t.per_seconds) - v_now))))::int
           end as retry_after
    from placed p
    join bucket t on t.name = p.name and t.subject = p.subject
    cross join lateral (
      select p.place <= t.admitted as allowed,
             t.base + make_interval(secs => t.step_s * least(p.place, t.admitted)) as tat
    ) a
  ),
  -- A request is served when each of its buckets admits it; its state is that of the bucket that
  -- refused it, else of its own bucket. (A request one bucket admits and the other refuses still spends
  -- from the one that admitted it: the budgets err on the caller's side of strict, never the other.)
  state as (
    select distinct on (s.ord) s.ord, bool_and(s.allowed) over (partition by s.ord) as allowed,
           s.name, s.remaining, s.reset, s.retry_after
    from state_each s
    order by s.ord, s.allowed, s.primary_bucket desc
  ),
  -- A request without a state has a disabled limit: always allowed, nothing spent.
  limit_state as (
    select r.ord,
           case
             when r.kind = 'unknown' then jsonb_build_object('status', 'unknown')
             when r.kind = 'revoked' then jsonb_build_object('status', 'revoked', 'revoked_at', r.revoked_at)
             when r.subject is null then jsonb_build_object('status', 'ok', 'allowed', true, 'subject_kind', 'none')
             else jsonb_build_object(
               'status', 'ok', 'allowed', coalesce(s.allowed, true), 'limit', l.max_calls,
               'remaining', coalesce(s.remaining, l.max_calls),
               'reset', coalesce(s.reset, 0),
               'retry_after', coalesce(s.retry_after, 0),
               'window', l.per_seconds,
               'subject_kind', case when r.kind = 'key' then 'key' else 'address' end,
               'message', case when not s.allowed then
                 format('%s: at most %s per %s. Please try again in %s.', l.description, l.max_calls,
                        private.rate_limit_duration(l.per_seconds), private.rate_limit_duration(s.retry_after))
               end)
           end as lim,
           r.kind in ('key', 'anon') and (r.subject is null or coalesce(s.allowed, true)) as served,
           r.prefix
    from req r
    left join state s on s.ord = r.ord
    left join private.rate_limits l on l.name = coalesce(s.name, r.name)
  ),
  -- 3. The ranges of the admitted prefixes, in one scan.
  ranges as (
    select e.prefix, e.entries
    from private.range_entries(array(select distinct x.prefix from limit_state x where x.served)) e
  )
  -- 4. The answers in request order.
  select jsonb_agg(
           case when x.served then jsonb_build_object('limit', x.lim, 'entries', coalesce(g.entries, '[]'::jsonb))
                else jsonb_build_object('limit', x.lim) end
           order by x.ord)
    into v_answers
  from limit_state x
  left join ranges g on g.prefix = x.prefix;

  -- Now and then, clear a batch of expired buckets (as each private.rate_limit_take call may).
  if random() < 1 - power(0.998, v_count) then
    perform private.rate_limit_cleanup(1000);
  end if;
  return v_answers;
end
$function$;

CREATE OR REPLACE FUNCTION public.record_bio_check(proof_id uuid, ok boolean, detail text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p where p.id = record_bio_check.proof_id for update;
  if v.id is null or v.method <> 'bio' then
    raise exception 'no such bio proof' using errcode = '22023', hint = '{"code": "ownership_proof_missing"}';
  end if;
  perform private.log_proof(v.id, 'checked', ok, detail);
  if ok and v.verified_at is null and v.withdrawn_at is null then
    v := private.verify_proof(v.id, detail);
  end if;
  return private.proof_json(v);
end
$function$;

CREATE OR REPLACE FUNCTION public.record_ownership_check(proof_id uuid, ok boolean, detail text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v public.ownership_proofs;
begin
  select * into v from public.ownership_proofs p where p.id = record_ownership_check.proof_id for update;
  if v.id is null or v.method not in ('dns', 'wellknown') then
    raise exception 'no such website proof' using errcode = '22023', hint = '{"code": "ownership_proof_missing"}';
  end if;
  perform private.log_proof(v.id, 'checked', ok, detail);
  if ok and v.verified_at is null and v.withdrawn_at is null then
    v := private.verify_proof(v.id, detail);
  end if;
  return private.proof_json(v);
end
$function$;

CREATE OR REPLACE FUNCTION public.record_visits(paths text[], visitor_id uuid, visit jsonb, client_address inet)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_count integer;
begin
  if paths is null or cardinality(paths) = 0 or cardinality(paths) > 20 then
    raise exception 'record 1 to 20 visits at a time' using errcode = '22023', hint = '{"code": "batch_size", "min": 1, "max": 20}';
  end if;
  perform private.limit_verified_caller('visit', visitor_id, client_address, cardinality(paths));
  insert into public.visitor_log (path, city, region, country, loc, org, postal, ip_hash, user_id)
  select case when p ~ '^/[^\x01-\x1f\x7f]*$' and char_length(p) <= 300 then p end,
         left(visit ->> 'city', 100), left(visit ->> 'region', 100), left(visit ->> 'country', 64),
         case when visit ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visit ->> 'loc' end,
         left(visit ->> 'org', 200), left(visit ->> 'postal', 20),
         case when visit ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visit ->> 'ip_hash' end,
         visitor_id
  from unnest(paths) as p;
  get diagnostics v_count = row_count;
  return v_count;
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
    raise exception 'ask for 1 to 200 reports at a time' using errcode = '22023', hint = '{"code": "batch_size", "min": 1, "max": 200}';
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
    raise exception 'The decision is approve or dismiss' using errcode = '22023', hint = '{"code": "choice_invalid", "argument": "decision", "choices": "approve, dismiss"}';
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

CREATE OR REPLACE FUNCTION public.start_ownership_proof(kind text, value text, method public.ownership_method)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v public.ownership_proofs;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  if kind is null or lower(kind) not in ('email', 'website') then
    raise exception 'only e-mail addresses and websites are proved this way' using errcode = '22023',
      hint = '{"code": "ownership_method_invalid"}';
  end if;
  if method is null or method = 'sms' or (lower(kind) = 'email') <> (method = 'email') then
    raise exception 'an e-mail address is proved by e-mail, a website by dns or wellknown' using errcode = '22023', hint = '{"code": "ownership_method_invalid"}';
  end if;
  v_canonical := public.canonical_identifier(lower(kind), value);
  if v_canonical is null or char_length(v_canonical) > 320 then
    raise exception 'not a valid %', lower(kind) using errcode = '22023', hint = jsonb_build_object('code', 'identifier_invalid', 'kind', lower(kind))::text;
  end if;
  if lower(kind) = 'email' and v_canonical !~ '^[^[:space:]@]+@[^[:space:]@]+[.][^[:space:]@]+$' then
    raise exception 'not a valid e-mail address' using errcode = '22023', hint = '{"code": "email_invalid"}';
  end if;
  if lower(kind) = 'website' and v_canonical !~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?([.][a-z0-9]([a-z0-9-]*[a-z0-9])?)+$' then
    raise exception 'not a valid website host name' using errcode = '22023', hint = '{"code": "website_invalid"}';
  end if;
  if (select count(*) from public.ownership_proofs p
       where p.user_id = v_uid and p.created_at > now() - interval '1 hour')
     >= private.ownership_setting('ownership_starts_per_hour', 10) then
    raise exception 'Too many ownership proofs started; try again in an hour' using errcode = 'P0001', hint = '{"code": "ownership_proofs_too_many"}';
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method, challenge)
  values (v_uid, lower(kind)::public.reported_account_type, v_canonical, method,
          case when method in ('dns', 'wellknown') then 'scamcheck-verify=' || encode(extensions.gen_random_bytes(16), 'hex') end)
  returning * into v;
  perform private.log_proof(v.id, 'started', null, method::text);
  return private.proof_json(v);
end
$function$;

CREATE OR REPLACE FUNCTION public.start_social_proof(value text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v_canonical text;
  v public.ownership_proofs;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  v_canonical := public.canonical_identifier('social', value);
  if v_canonical is null or char_length(v_canonical) > 320 then
    raise exception 'not a link to a social media or chat account' using errcode = '22023', hint = '{"code": "social_link_invalid"}';
  end if;
  if (select count(*) from public.ownership_proofs p
       where p.user_id = v_uid and p.created_at > now() - interval '1 hour')
     >= private.ownership_setting('ownership_starts_per_hour', 10) then
    raise exception 'Too many ownership proofs started; try again in an hour' using errcode = 'P0001', hint = '{"code": "ownership_proofs_too_many"}';
  end if;
  insert into public.ownership_proofs (user_id, identifier_kind, identifier_canonical, method, challenge)
  values (v_uid, 'social', v_canonical, 'bio', 'scamcheck-' || encode(extensions.gen_random_bytes(6), 'hex'))
  returning * into v;
  perform private.log_proof(v.id, 'started', null, 'bio');
  return private.proof_json(v);
end
$function$;

CREATE OR REPLACE FUNCTION public.submit_ownership_evidence(proof_id uuid, profile_url text, image_path text DEFAULT NULL::text, note text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  v_uid uuid := auth.uid();
  v public.ownership_proofs;
  v_url text := btrim(profile_url);
  v_image text := nullif(btrim(image_path), '');
  v_note text := nullif(btrim(note), '');
  v_evidence public.ownership_evidence;
begin
  if v_uid is null then
    raise exception 'sign in to prove an identifier' using errcode = '42501', hint = '{"code": "sign_in_required"}';
  end if;
  select * into v from public.ownership_proofs p
   where p.id = submit_ownership_evidence.proof_id and p.user_id = v_uid for update;
  if v.id is null or v.method not in ('bio', 'review') then
    raise exception 'no such social account proof' using errcode = '22023', hint = '{"code": "ownership_proof_missing"}';
  end if;
  if v.verified_at is not null or v.withdrawn_at is not null then
    raise exception 'this proof is no longer waiting' using errcode = '22023', hint = '{"code": "ownership_proof_closed"}';
  end if;
  if v_url is null or char_length(v_url) > 500 or v_url !~* '^https?://'
     or public.canonical_identifier('social', v_url) is distinct from v.identifier_canonical then
    raise exception 'the profile link must be a link to %', v.identifier_canonical using errcode = '22023', hint = jsonb_build_object('code', 'profile_link_mismatch', 'account', v.identifier_canonical)::text;
  end if;
  if v_note is not null and char_length(v_note) > 1000 then
    raise exception 'a note is at most 1000 characters' using errcode = '22023', hint = '{"code": "note_too_long", "max": 1000}';
  end if;
  if v_image is not null and (split_part(v_image, '/', 1) <> v_uid::text or not exists (
       select 1 from storage.objects o where o.bucket_id = 'evidence' and o.name = v_image)) then
    raise exception 'the screenshot must be one you uploaded' using errcode = '22023', hint = '{"code": "screenshot_not_own"}';
  end if;
  if exists (select 1 from public.ownership_evidence e
              where e.proof_id = v.id and e.decision is null) then
    raise exception 'your evidence is already waiting for review' using errcode = '22023', hint = '{"code": "evidence_waiting"}';
  end if;
  if (select count(*) from public.ownership_evidence e
       where e.user_id = v_uid and e.created_at > now() - interval '1 day')
     >= private.ownership_setting('ownership_evidence_per_day', 5) then
    raise exception 'Too much evidence sent today; try again tomorrow' using errcode = 'P0001', hint = '{"code": "evidence_too_many"}';
  end if;
  insert into public.ownership_evidence (proof_id, user_id, profile_url, image_path, note)
  values (v.id, v_uid, v_url, v_image, v_note)
  returning * into v_evidence;
  perform private.log_proof(v.id, 'evidence_submitted', null, v_evidence.id::text);
  return jsonb_build_object('id', v_evidence.id, 'proof_id', v.id, 'created_at', v_evidence.created_at);
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
    raise exception 'an upload needs its user' using errcode = '22023', hint = '{"code": "argument_required", "argument": "user"}';
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
