-- Reports and moderation (SPEC.md section 3, DESIGN.md section 3): reports, news, contact messages,
-- removal requests, the rollups kept per identifier and per user, and the entry points the app calls
-- (report_details, user_report_stats, set_report_status, the removal request jobs).
-- Row-level security is on for every table; what anonymous visitors see of reports goes through
-- public.search_reports (search and statistics), never through the table. Counters come from rollups
-- kept by triggers, never from count(*) over the big tables.
--
-- Removal requests: one open request per report per requester; the reporter's answer to any request on
-- a report answers the report's dispute; the requester's contact address is confirmed by an e-mailed
-- link before anything is sent to or about it (the reporter is notified, and the 7 days start, only at
-- confirmation); the expiry job removes a report only for an open request confirmed over 7 days ago,
-- on a report whose reporter answered no request.
-- Risk counts distinct reporters (private.identifier_weight), and a reporter who files the same
-- identifier again within duplicate_report_days is refused with a pointer to the existing report.

-- ---------------------------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------------------------
create type public.incident_type as enum ('scam', 'hacked', 'spam');
comment on type public.incident_type is 'What happened to the victim.';

create type public.reported_account_type as enum ('mobile', 'email', 'ewallet', 'crypto', 'website');
comment on type public.reported_account_type is 'Kind of identifier a report is about; drives canonical_identifier.';

create type public.report_status as enum ('pending', 'verified', 'rejected', 'removed');
comment on type public.report_status is 'Moderation state: pending until an admin verifies or rejects; removed after a granted removal request.';

create type public.removal_request_status as enum ('open', 'report_removed', 'dismissed');
comment on type public.removal_request_status is 'open until the report is removed (by an admin or after a week without the reporter answering) or the request is dismissed.';

-- ---------------------------------------------------------------------------------------------
-- Reports
-- ---------------------------------------------------------------------------------------------
create table public.reports (
  id uuid not null primary key default gen_random_uuid(),
  reporter_id uuid default auth.uid() references auth.users (id) on delete set null,
  incident_date date not null,
  incident_type public.incident_type not null,
  reported_account_type public.reported_account_type not null,
  reported_account text not null check (char_length(btrim(reported_account)) between 1 and 320),
  reported_account_canonical text not null,
  consent_to_contact boolean not null default false,
  evidence_path text check (char_length(evidence_path) <= 300)
    constraint reports_evidence_path_object_name check (private.check_object_path(evidence_path, 'evidence_path')),
  incident_description text check (char_length(incident_description) <= 5000),
  location text check (char_length(location) <= 200),
  report_date date not null default current_date,
  loc text check (loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'),
  country text check (char_length(country) <= 64),
  status public.report_status not null default 'pending',
  source text check (char_length(source) <= 200),
  amount_lost numeric(14, 2) check (amount_lost >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.reports enable row level security;
revoke all on public.reports from anon, authenticated;
grant select, delete on public.reports to authenticated;
grant insert (reporter_id, incident_date, incident_type, reported_account_type, reported_account, consent_to_contact,
  evidence_path, incident_description, location, report_date, loc, country, status, source, amount_lost)
  on public.reports to authenticated;
grant update (incident_date, incident_type, reported_account_type, reported_account, consent_to_contact,
  evidence_path, incident_description, location, report_date, loc, country, status, source, amount_lost)
  on public.reports to authenticated;
comment on column public.reports.reporter_id is 'Who filed the report (auth.uid() at insert); visible only to that user and admins.';
comment on column public.reports.reported_account_canonical is 'canonical_identifier(reported_account_type, reported_account), set by trigger; what search looks up.';
comment on column public.reports.consent_to_contact is 'Answer to "Have you notified authorities yet?"';
comment on column public.reports.evidence_path is 'Object path in the private evidence bucket (<reporter_id>/...).';
comment on column public.reports.loc is 'Victim location as ''lat,lng'' (from the visitor lookup), for the heatmap.';
comment on column public.reports.country is 'Victim country (ISO code or name from the visitor lookup).';
comment on column public.reports.amount_lost is 'Amount the victim lost, optional; summed over verified reports in search summaries.';
comment on column public.reports.status is 'Moderation status; only admins change it (set_report_status). Shown publicly as verified or not-verified.';
comment on table public.reports is 'Scam reports filed by signed-in users. Anonymous visitors see them only through search_reports.';

create index reports_reporter_id_created_at_idx on public.reports (reporter_id, created_at desc);

create index reports_status_created_at_idx on public.reports (status, created_at desc) where status = 'pending';

/**
 * Before insert or update of a report: computes the canonical identifier and keeps callers of the
 * Data API from choosing the reporter, the status or the creation time.
 */
create function private.reports_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  -- API requests run as anon/authenticated; security definer RPCs, seeds and operators as owners.
  api_caller boolean := current_user in ('anon', 'authenticated');
begin
  new.reported_account := btrim(new.reported_account);
  new.reported_account_canonical := public.canonical_identifier(new.reported_account_type::text, new.reported_account);
  if api_caller and new.incident_date > current_date + 1 then
    raise exception 'incident_date cannot be later than tomorrow' using errcode = '22023';
  end if;
  -- Evidence lives in the reporter's own folder of the evidence bucket ('<reporter_id>/...').
  if api_caller and new.evidence_path is not null
     and split_part(new.evidence_path, '/', 1) is distinct from new.reporter_id::text then
    raise exception 'evidence_path must be in the reporter''s own folder of the evidence bucket'
      using errcode = '42501';
  end if;
  if tg_op = 'INSERT' then
    if api_caller and new.reporter_id is distinct from (select auth.uid()) then
      raise exception 'reporter_id is taken from your login and cannot be set to another user'
        using errcode = '42501';
    end if;
    if api_caller and new.status <> 'pending' and not (select private.is_admin()) then
      raise exception 'only admins can set the status of a report; new reports are pending'
        using errcode = '42501';
    end if;
  else
    if api_caller then
      new.created_at := old.created_at;
    end if;
    new.updated_at := now();
    if api_caller and new.reporter_id is distinct from old.reporter_id then
      raise exception 'the reporter of a report cannot be changed' using errcode = '42501';
    end if;
    if api_caller and new.status is distinct from old.status and not (select private.is_admin()) then
      raise exception 'only admins can change the status of a report' using errcode = '42501';
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
$$;
grant execute on function private.reports_before_write() to authenticated, service_role;
comment on function private.reports_before_write() is 'Trigger: sets reported_account_canonical; guards reporter_id, status and created_at against API callers.';

create trigger reports_before_write before insert or update on public.reports
  for each row execute function private.reports_before_write();

create policy "Reporters can read their own reports and admins every report" on public.reports
  for select to authenticated
  using (reporter_id = (select auth.uid()) or (select private.is_admin()));

create policy "Signed-in users can file reports as themselves" on public.reports
  for insert to authenticated
  with check (reporter_id = (select auth.uid()));

create policy "Reporters can update their own reports and admins every report" on public.reports
  for update to authenticated
  using (reporter_id = (select auth.uid()) or (select private.is_admin()))
  with check (reporter_id = (select auth.uid()) or (select private.is_admin()));

create policy "Reporters can delete their own reports and admins every report" on public.reports
  for delete to authenticated
  using (reporter_id = (select auth.uid()) or (select private.is_admin()));

create index reports_canonical_created_at_idx on public.reports (reported_account_canonical, created_at desc) include (status);

create trigger rate_limit_writes before insert on public.reports
  for each row execute function private.limit_writes('report');

/**
 * Before insert (or a change of identifier) through the Data API: a reporter who already has a visible
 * report on the same identifier filed within duplicate_report_days (private.rate_limit_settings) is
 * refused with HTTP 409 (code PT409) naming the existing report, which they can edit instead.
 */
create function private.reports_refuse_duplicates()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
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
      'hint', format('Open /dashboard/edit-report/%s to edit it.', v_existing.id))::text,
    detail = json_build_object('status', 409, 'headers', json_build_object())::text;
end
$$;
revoke execute on function private.reports_refuse_duplicates() from public;
comment on function private.reports_refuse_duplicates() is
  'Trigger: refuses a second report by the same reporter on the same identifier within duplicate_report_days (409, PT409, details existing_report_id=<id>).';

-- Fires after reports_before_write (triggers run in name order), which computes the canonical identifier.
create trigger reports_refuse_duplicates before insert or update of reported_account_type, reported_account on public.reports
  for each row execute function private.reports_refuse_duplicates();

-- ---------------------------------------------------------------------------------------------
-- News
-- ---------------------------------------------------------------------------------------------
create table public.news (
  id uuid not null primary key default gen_random_uuid(),
  news_title text not null check (char_length(news_title) between 1 and 300),
  news_description text not null check (char_length(news_description) between 1 and 20000),
  tags text[] not null default '{}',
  img_url text check (img_url ~* '^https?://'),
  source text check (char_length(source) <= 500),
  source_desc text check (char_length(source_desc) <= 500),
  banner_path text check (char_length(banner_path) <= 300)
    constraint news_banner_path_object_name check (private.check_object_path(banner_path, 'banner_path')),
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.news enable row level security;
revoke all on public.news from anon, authenticated;
grant select on public.news to anon, authenticated;
grant insert, update, delete on public.news to authenticated;
comment on column public.news.source is 'Link to the original article.';
comment on column public.news.source_desc is 'Name of the original publisher.';
comment on column public.news.banner_path is 'Object path in the public news-banners bucket.';
comment on table public.news is 'Scam news articles; everyone reads them, admins write them.';

create index news_created_at_idx on public.news (created_at desc);

create index news_author_id_idx on public.news (author_id);

create trigger news_touch_updated_at before update on public.news
  for each row execute function private.touch_updated_at();

create policy "Anyone can read news" on public.news
  for select to anon, authenticated
  using (true);

create policy "Admins can add news" on public.news
  for insert to authenticated
  with check ((select private.is_admin()) and author_id = (select auth.uid()));

create policy "Admins can update news" on public.news
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins can delete news" on public.news
  for delete to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Contact messages
-- ---------------------------------------------------------------------------------------------
create table public.contact_messages (
  id uuid not null primary key default gen_random_uuid(),
  nickname text check (char_length(nickname) <= 100),
  email text check (char_length(email) <= 320),
  subject text check (char_length(subject) <= 200),
  message text not null check (char_length(btrim(message)) between 1 and 5000),
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  handled_at timestamptz,
  created_at timestamptz not null default now()
);
alter table public.contact_messages enable row level security;
revoke all on public.contact_messages from anon, authenticated;
grant insert (nickname, email, subject, message) on public.contact_messages to anon, authenticated;
grant select, delete on public.contact_messages to authenticated;
grant update (handled_at) on public.contact_messages to authenticated;
comment on column public.contact_messages.handled_at is 'When an admin dealt with the message; null while in the inbox.';
comment on table public.contact_messages is 'Messages from the contact form; anyone sends, only admins read (the admin inbox).';

create index contact_messages_created_at_idx on public.contact_messages (created_at desc);

create index contact_messages_user_id_idx on public.contact_messages (user_id);

create policy "Visitors can send contact messages" on public.contact_messages
  for insert to anon
  with check (user_id is null and handled_at is null);

create policy "Signed-in users can send contact messages as themselves" on public.contact_messages
  for insert to authenticated
  with check (user_id = (select auth.uid()) and handled_at is null);

create policy "Admins can read contact messages" on public.contact_messages
  for select to authenticated
  using ((select private.is_admin()));

create policy "Admins can mark contact messages handled" on public.contact_messages
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins can delete contact messages" on public.contact_messages
  for delete to authenticated
  using ((select private.is_admin()));

create trigger rate_limit_writes before insert on public.contact_messages
  for each row execute function private.limit_writes('contact');

-- ---------------------------------------------------------------------------------------------
-- Removal requests (disputes)
-- ---------------------------------------------------------------------------------------------
create table public.removal_requests (
  id uuid not null primary key default gen_random_uuid(),
  report_id uuid not null references public.reports (id) on delete cascade,
  requester_id uuid default auth.uid() references auth.users (id) on delete set null,
  reason text not null check (char_length(btrim(reason)) between 1 and 5000),
  contact_email text not null check (contact_email ~ '^[^\s@]+@[^\s@]+$' and char_length(contact_email) <= 320),
  status public.removal_request_status not null default 'open',
  reporter_response text check (char_length(reporter_response) <= 5000),
  responded_at timestamptz,
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  contact_confirmed_at timestamptz
);
alter table public.removal_requests enable row level security;
revoke all on public.removal_requests from anon, authenticated;
grant select, delete on public.removal_requests to authenticated;
grant insert (report_id, requester_id, reason, contact_email) on public.removal_requests to authenticated;
grant update (reporter_response, status, resolved_at) on public.removal_requests to authenticated;
comment on column public.removal_requests.reporter_response is 'The reporter''s answer; an answered request waits for an admin instead of expiring.';
comment on column public.removal_requests.contact_confirmed_at is
  'When the requester confirmed contact_email through the e-mailed link; until then the reporter is not told and the request cannot expire.';
comment on table public.removal_requests is 'Requests by a reported account holder to remove a report. The reporter is notified; without an answer in 7 days the report is removed (private.expire_removal_requests).';

create index removal_requests_report_id_idx on public.removal_requests (report_id);

create index removal_requests_requester_id_idx on public.removal_requests (requester_id);

create index removal_requests_open_created_at_idx on public.removal_requests (created_at) where status = 'open';

/** True when the caller filed the given report; lets policies on removal requests see past reports' RLS. */
create function private.is_reporter_of(report_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.reports r
    where r.id = is_reporter_of.report_id and r.reporter_id = (select auth.uid())
  )
$$;
revoke execute on function private.is_reporter_of(uuid) from public, anon;
grant execute on function private.is_reporter_of(uuid) to authenticated, service_role;
comment on function private.is_reporter_of(uuid) is 'True when auth.uid() is the reporter of the report.';

/** Only admins resolve requests; reporters may only answer; answering stamps responded_at. */
create function private.removal_requests_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  api_caller boolean := current_user in ('anon', 'authenticated');
begin
  if tg_op = 'INSERT' then
    if api_caller and (new.status <> 'open' or new.requester_id is distinct from (select auth.uid())) then
      raise exception 'a removal request is filed open, by yourself' using errcode = '42501';
    end if;
    return new;
  end if;
  if api_caller then
    new.created_at := old.created_at;
  end if;
  if api_caller and not (select private.is_admin()) and (new.status, new.resolved_at) is distinct from (old.status, old.resolved_at) then
    raise exception 'only admins can resolve removal requests' using errcode = '42501';
  end if;
  if new.reporter_response is distinct from old.reporter_response then
    new.responded_at := now();
  end if;
  if new.status <> 'open' and old.status = 'open' and new.resolved_at is null then
    new.resolved_at := now();
  end if;
  return new;
end
$$;
grant execute on function private.removal_requests_before_write() to authenticated, service_role;
comment on function private.removal_requests_before_write() is 'Trigger: keeps resolution to admins and stamps responded_at/resolved_at.';

create trigger removal_requests_before_write before insert or update on public.removal_requests
  for each row execute function private.removal_requests_before_write();

create policy "Requesters, the reporter and admins can read removal requests" on public.removal_requests
  for select to authenticated
  using (
    requester_id = (select auth.uid())
    or (select private.is_reporter_of(report_id))
    or (select private.is_admin())
  );

create policy "Signed-in users can request removal of a report" on public.removal_requests
  for insert to authenticated
  with check (requester_id = (select auth.uid()) and status = 'open');

create policy "The reporter can answer and admins can resolve removal requests" on public.removal_requests
  for update to authenticated
  using ((select private.is_reporter_of(report_id)) or (select private.is_admin()))
  with check ((select private.is_reporter_of(report_id)) or (select private.is_admin()));

create policy "Admins can delete removal requests" on public.removal_requests
  for delete to authenticated
  using ((select private.is_admin()));

/**
 * The 1-week removal policy: a report is removed when it has an open removal request whose contact
 * address was confirmed more than 7 days ago and its reporter answered none of the report's open
 * requests (nor any request since this one was filed): one answer answers the report's dispute.
 * Run hourly by the scheduled edge function (service role).
 */
create function public.expire_removal_requests()
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
revoke execute on function public.expire_removal_requests() from public, anon, authenticated;
grant execute on function public.expire_removal_requests() to service_role;
comment on function public.expire_removal_requests() is
  'Removes reports with an open removal request confirmed over 7 days ago whose reporter answered none of the report''s requests; returns how many. Service role only.';

create trigger rate_limit_writes before insert on public.removal_requests
  for each row execute function private.limit_writes('removal');

create unique index removal_requests_one_open_per_requester_idx
  on public.removal_requests (report_id, requester_id) where status = 'open';

create table private.removal_confirmations (
  request_id uuid not null primary key references public.removal_requests (id) on delete cascade,
  token_hash text,
  sent_at timestamptz not null default now(),
  expires_at timestamptz not null default now() + interval '48 hours',
  attempts integer not null default 0
);
alter table private.removal_confirmations enable row level security;
comment on table private.removal_confirmations is
  'The confirmation link of a removal request''s contact address: a SHA-256 of the token mailed (null when the mail was withheld by the address limit), its expiry and wrong attempts.';

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
revoke execute on function private.removal_requests_one_open() from public;
comment on function private.removal_requests_one_open() is 'Trigger: one open removal request per report per requester (409, PT409).';

create trigger removal_requests_one_open before insert on public.removal_requests
  for each row when (new.status = 'open') execute function private.removal_requests_one_open();

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
revoke execute on function public.confirm_removal_request(uuid, text) from public;
grant execute on function public.confirm_removal_request(uuid, text) to anon, authenticated, service_role;
comment on function public.confirm_removal_request(uuid, text) is
  'The e-mailed confirmation link: {confirmed, reason: confirmed|already|wrong|expired|closed|unknown}.';

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
revoke execute on function public.issue_removal_confirmations(integer) from public, anon, authenticated;
grant execute on function public.issue_removal_confirmations(integer) to service_role;
comment on function public.issue_removal_confirmations(integer) is
  'Service role (notify-dispatch): issues confirmation tokens for open, unconfirmed removal requests and returns them for mailing, with the requester''s language; addresses past removal_confirm.address get none.';

-- ---------------------------------------------------------------------------------------------
-- Rollups per identifier and per user, kept by triggers
-- ---------------------------------------------------------------------------------------------
create table private.user_report_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  incident_type public.incident_type not null,
  report_count bigint not null default 0,
  primary key (user_id, incident_type)
);
alter table private.user_report_counts enable row level security;
comment on table private.user_report_counts is 'Reports per reporter and incident type (stats cards), kept by triggers.';

create table private.user_monthly_report_counts (
  user_id uuid not null references auth.users (id) on delete cascade,
  month date not null,
  report_count bigint not null default 0,
  primary key (user_id, month)
);
alter table private.user_monthly_report_counts enable row level security;
comment on table private.user_monthly_report_counts is 'Reports per reporter and month of filing (UTC), kept by triggers.';

create table public.identifier_report_counts (
  identifier_canonical text not null primary key,
  report_count bigint not null default 0,
  verified_count bigint not null default 0
);
alter table public.identifier_report_counts enable row level security;
revoke all on public.identifier_report_counts from anon, authenticated;
grant select on public.identifier_report_counts to anon, authenticated;
grant all on public.identifier_report_counts to service_role;
revoke select on public.identifier_report_counts from anon;
comment on table public.identifier_report_counts is
  'Visible (pending or verified) reports per canonical identifier: the "N reported case" badge. Read through public.search_reports; signed-in users read the rows of identifiers they reported, admins all.';

/** Applies one report (added with +1, taken away with -1) to every rollup. */
create function private.apply_report_to_rollups(r public.reports, delta integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.bump_site_counter('reports', delta);
  if r.status = 'verified' then
    perform private.bump_site_counter('verified_reports', delta);
  end if;
  if r.reporter_id is not null then
    insert into private.user_report_counts as c (user_id, incident_type, report_count)
    values (r.reporter_id, r.incident_type, delta)
    on conflict (user_id, incident_type) do update set report_count = c.report_count + excluded.report_count;
    insert into private.user_monthly_report_counts as c (user_id, month, report_count)
    values (r.reporter_id, date_trunc('month', r.created_at at time zone 'UTC')::date, delta)
    on conflict (user_id, month) do update set report_count = c.report_count + excluded.report_count;
  end if;
  if r.status in ('pending', 'verified') then
    insert into public.identifier_report_counts as c (identifier_canonical, report_count, verified_count)
    values (r.reported_account_canonical, delta, case when r.status = 'verified' then delta else 0 end)
    on conflict (identifier_canonical) do update
      set report_count = c.report_count + excluded.report_count,
          verified_count = c.verified_count + excluded.verified_count;
  end if;
end
$$;
revoke execute on function private.apply_report_to_rollups(public.reports, integer) from public, anon, authenticated;
comment on function private.apply_report_to_rollups(public.reports, integer) is 'Adds (+1) or removes (-1) one report from every rollup.';

/** Keeps the rollups current as reports come, change and go. */
create function private.reports_after_write()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    perform private.apply_report_to_rollups(old, -1);
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    perform private.apply_report_to_rollups(new, 1);
  end if;
  return null;
end
$$;
revoke execute on function private.reports_after_write() from public, anon, authenticated;
comment on function private.reports_after_write() is 'Trigger: keeps rollups current for inserted, updated and deleted reports.';

create trigger reports_rollups_insert_delete after insert or delete on public.reports
  for each row execute function private.reports_after_write();

create trigger reports_rollups_update after update on public.reports
  for each row
  when ((old.status, old.reporter_id, old.incident_type, old.reported_account_canonical, old.created_at)
        is distinct from (new.status, new.reporter_id, new.incident_type, new.reported_account_canonical, new.created_at))
  execute function private.reports_after_write();

create view public.report_cards
with (security_invoker = true)
as
select r.*, coalesce(c.report_count, 0) as reported_case_count
from public.reports r
left join public.identifier_report_counts c on c.identifier_canonical = r.reported_account_canonical;
revoke all on public.report_cards from anon, authenticated;
grant select on public.report_cards to authenticated, service_role;
comment on view public.report_cards is 'Reports the caller may read (their own; admins all) with the real "N reported case" count for the card.';

create policy "Reporters read the counts of identifiers they reported and admins every count"
  on public.identifier_report_counts
  for select to authenticated
  using (
    (select private.is_admin())
    or exists (
      select 1 from public.reports r
      where r.reported_account_canonical = identifier_report_counts.identifier_canonical
        and r.reporter_id = (select auth.uid())
    )
  );

create index identifier_report_counts_hash_prefix_idx
  on public.identifier_report_counts (private.identifier_hash_prefix(identifier_canonical))
  where report_count > 0;

-- ---------------------------------------------------------------------------------------------
-- Entry points of the app and moderation
-- ---------------------------------------------------------------------------------------------
/** One visible report in full (without its reporter), for 'View full report'; signed-in users only. */
create function public.report_details(report_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'id', r.id,
    'reported_date', r.created_at::date,
    'incident_date', r.incident_date,
    'incident_type', r.incident_type,
    'reported_account_type', r.reported_account_type,
    'reported_account', r.reported_account,
    'location', r.location,
    'country', r.country,
    'incident_description', r.incident_description,
    'amount_lost', r.amount_lost,
    'source', r.source,
    'status', case when r.status = 'verified' then 'verified' else 'not-verified' end,
    'reported_case_count', coalesce(c.report_count, 0)
  )
  from public.reports r
  left join public.identifier_report_counts c on c.identifier_canonical = r.reported_account_canonical
  where r.id = report_details.report_id
    and r.status in ('pending', 'verified')
    and (select auth.uid()) is not null
$$;
revoke execute on function public.report_details(uuid) from public, anon;
grant execute on function public.report_details(uuid) to authenticated, service_role;
comment on function public.report_details(uuid) is 'A visible report in full except its reporter, for signed-in users; null when hidden or unknown.';

/** The caller's stats page: counts by incident type and reports per month (last 12 months with data). */
create function public.user_report_stats()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'defaultStats', jsonb_build_object(
      'scam', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'scam'), 0),
      'hacked', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'hacked'), 0),
      'spam', coalesce((select report_count from private.user_report_counts where user_id = (select auth.uid()) and incident_type = 'spam'), 0)
    ),
    'monthlyApplications', coalesce((
      select jsonb_agg(jsonb_build_object('date', to_char(m.month, 'YYYY-MM'), 'count', m.report_count) order by m.month)
      from (
        select month, report_count from private.user_monthly_report_counts
        where user_id = (select auth.uid()) and report_count > 0
        order by month desc limit 12
      ) m), '[]'::jsonb)
  )
$$;
revoke execute on function public.user_report_stats() from public, anon;
grant execute on function public.user_report_stats() to authenticated, service_role;
comment on function public.user_report_stats() is 'Stats of the caller''s own reports: {defaultStats {scam, hacked, spam}, monthlyApplications [{date YYYY-MM, count}]} from rollups.';

/** Verifies, rejects or removes a report; admins only. Tells the reporter. */
create function public.set_report_status(report_id uuid, status public.report_status)
returns public.reports
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_report public.reports;
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can change the status of a report' using errcode = '42501';
  end if;
  update public.reports r set status = set_report_status.status
  where r.id = set_report_status.report_id
  returning r.* into v_report;
  if v_report.id is null then
    raise exception 'report % not found', report_id using errcode = 'P0002';
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
$$;
revoke execute on function public.set_report_status(uuid, public.report_status) from public, anon;
grant execute on function public.set_report_status(uuid, public.report_status) to authenticated, service_role;
comment on function public.set_report_status(uuid, public.report_status) is 'Admins set a report''s moderation status (pending, verified, rejected, removed); the reporter is notified.';
