-- Core schema of ScamCheck (SPEC.md section 3, DESIGN.md section 3): roles, profiles, reports, news,
-- contact messages, notify registrations, notifications, removal requests, search and visitor logs.
-- Row-level security is on for every table; what anonymous visitors see of reports goes through
-- public.search_reports (next migration), never through the table.

-- ---------------------------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------------------------
create type public.incident_type as enum ('scam', 'hacked', 'spam');
comment on type public.incident_type is 'What happened to the victim.';
create type public.reported_account_type as enum ('mobile', 'email', 'ewallet', 'crypto', 'website');
comment on type public.reported_account_type is 'Kind of identifier a report is about; drives canonical_identifier.';
create type public.report_status as enum ('pending', 'verified', 'rejected', 'removed');
comment on type public.report_status is 'Moderation state: pending until an admin verifies or rejects; removed after a granted removal request.';
create type public.app_role as enum ('admin');
comment on type public.app_role is 'Roles beyond a signed-in user.';
create type public.removal_request_status as enum ('open', 'report_removed', 'dismissed');
comment on type public.removal_request_status is 'open until the report is removed (by an admin or after a week without the reporter answering) or the request is dismissed.';
create type public.notification_kind as enum ('identifier_reported', 'removal_requested', 'report_status_changed');
comment on type public.notification_kind is 'Why a user was notified.';

-- ---------------------------------------------------------------------------------------------
-- Roles
-- ---------------------------------------------------------------------------------------------
create table public.user_roles (
  user_id uuid not null references auth.users (id) on delete cascade,
  role public.app_role not null,
  granted_at timestamptz not null default now(),
  primary key (user_id, role)
);
comment on table public.user_roles is 'Roles granted to users (admin). Written only by private.grant_admin/revoke_admin; users read their own.';

/** True when the caller of the current request holds the admin role. */
create function private.is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.user_roles
    where user_id = (select auth.uid()) and role = 'admin'
  )
$$;
comment on function private.is_admin() is 'True when auth.uid() holds the admin role; used by policies and admin RPCs.';
revoke execute on function private.is_admin() from public, anon;
grant execute on function private.is_admin() to authenticated, service_role;

/** Gives a user the admin role (npm run admin:grant, or the SQL editor of the dashboard). */
create function private.grant_admin(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.user_roles (user_id, role) values (grant_admin.user_id, 'admin')
  on conflict do nothing
$$;
comment on function private.grant_admin(uuid) is 'Grants the admin role to a user; operators only.';

/** Takes the admin role away from a user. */
create function private.revoke_admin(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  delete from public.user_roles where user_roles.user_id = revoke_admin.user_id and role = 'admin'
$$;
comment on function private.revoke_admin(uuid) is 'Revokes the admin role from a user; operators only.';
revoke execute on function private.grant_admin(uuid), private.revoke_admin(uuid) from public, anon, authenticated;

alter table public.user_roles enable row level security;
revoke all on public.user_roles from anon, authenticated;
grant select on public.user_roles to authenticated;
create policy "Users can read their own roles and admins every role" on public.user_roles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Profiles
-- ---------------------------------------------------------------------------------------------
create table public.profiles (
  id uuid not null primary key references auth.users (id) on delete cascade,
  name text check (char_length(name) <= 100),
  email text,
  avatar_path text check (char_length(avatar_path) <= 300),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.profiles is 'Public face of a user: name and avatar (a path in the avatars bucket). Created by a trigger on auth.users.';
comment on column public.profiles.email is 'Copy of auth.users.email kept by triggers, for the admin user list; users cannot edit it here.';

alter table public.profiles enable row level security;
revoke all on public.profiles from anon, authenticated;
grant select on public.profiles to authenticated;
grant update (name, avatar_path) on public.profiles to authenticated;
create policy "Users can read their own profile and admins every profile" on public.profiles
  for select to authenticated
  using (id = (select auth.uid()) or (select private.is_admin()));
create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select auth.uid()))
  with check (
    id = (select auth.uid())
    and (avatar_path is null or split_part(avatar_path, '/', 1) = (select auth.uid())::text)
  );

/** Creates the profile of a new auth user from the name given at sign-up. */
create function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.profiles (id, name, email)
  values (
    new.id,
    coalesce(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), split_part(new.email, '@', 1)),
    new.email
  );
  return new;
end
$$;
comment on function private.handle_new_user() is 'Trigger: creates public.profiles for every new auth.users row.';
create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

/** Keeps profiles.email equal to the confirmed auth e-mail. */
create function private.handle_user_email_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles set email = new.email, updated_at = now() where id = new.id;
  return new;
end
$$;
comment on function private.handle_user_email_change() is 'Trigger: copies a changed auth.users.email to public.profiles.';
create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function private.handle_user_email_change();

/** Sets updated_at on every update. */
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;
comment on function private.touch_updated_at() is 'Trigger: sets updated_at to now() on update.';
grant execute on function private.touch_updated_at() to authenticated, service_role;
create trigger profiles_touch_updated_at before update on public.profiles
  for each row execute function private.touch_updated_at();

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
  evidence_path text check (char_length(evidence_path) <= 300),
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
comment on table public.reports is 'Scam reports filed by signed-in users. Anonymous visitors see them only through search_reports.';
comment on column public.reports.reporter_id is 'Who filed the report (auth.uid() at insert); visible only to that user and admins.';
comment on column public.reports.reported_account_canonical is 'canonical_identifier(reported_account_type, reported_account), set by trigger; what search looks up.';
comment on column public.reports.consent_to_contact is 'Answer to "Have you notified authorities yet?"';
comment on column public.reports.evidence_path is 'Object path in the private evidence bucket (<reporter_id>/...).';
comment on column public.reports.loc is 'Victim location as ''lat,lng'' (from the visitor lookup), for the heatmap.';
comment on column public.reports.country is 'Victim country (ISO code or name from the visitor lookup).';
comment on column public.reports.amount_lost is 'Amount the victim lost, optional; summed over verified reports in search summaries.';
comment on column public.reports.status is 'Moderation status; only admins change it (set_report_status). Shown publicly as verified or not-verified.';

create index reports_canonical_created_at_idx on public.reports (reported_account_canonical, created_at desc);
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
comment on function private.reports_before_write() is 'Trigger: sets reported_account_canonical; guards reporter_id, status and created_at against API callers.';
grant execute on function private.reports_before_write() to authenticated, service_role;
create trigger reports_before_write before insert or update on public.reports
  for each row execute function private.reports_before_write();

alter table public.reports enable row level security;
revoke all on public.reports from anon, authenticated;
grant select, delete on public.reports to authenticated;
grant insert (reporter_id, incident_date, incident_type, reported_account_type, reported_account, consent_to_contact,
  evidence_path, incident_description, location, report_date, loc, country, status, source, amount_lost)
  on public.reports to authenticated;
grant update (incident_date, incident_type, reported_account_type, reported_account, consent_to_contact,
  evidence_path, incident_description, location, report_date, loc, country, status, source, amount_lost)
  on public.reports to authenticated;
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
  banner_path text check (char_length(banner_path) <= 300),
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.news is 'Scam news articles; everyone reads them, admins write them.';
comment on column public.news.source is 'Link to the original article.';
comment on column public.news.source_desc is 'Name of the original publisher.';
comment on column public.news.banner_path is 'Object path in the public news-banners bucket.';
create index news_created_at_idx on public.news (created_at desc);
create index news_author_id_idx on public.news (author_id);
create trigger news_touch_updated_at before update on public.news
  for each row execute function private.touch_updated_at();

alter table public.news enable row level security;
revoke all on public.news from anon, authenticated;
grant select on public.news to anon, authenticated;
grant insert, update, delete on public.news to authenticated;
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
comment on table public.contact_messages is 'Messages from the contact form; anyone sends, only admins read (the admin inbox).';
comment on column public.contact_messages.handled_at is 'When an admin dealt with the message; null while in the inbox.';
create index contact_messages_created_at_idx on public.contact_messages (created_at desc);
create index contact_messages_user_id_idx on public.contact_messages (user_id);

alter table public.contact_messages enable row level security;
revoke all on public.contact_messages from anon, authenticated;
grant insert (nickname, email, subject, message) on public.contact_messages to anon, authenticated;
grant select, delete on public.contact_messages to authenticated;
grant update (handled_at) on public.contact_messages to authenticated;
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

-- ---------------------------------------------------------------------------------------------
-- Notify registrations and notifications
-- ---------------------------------------------------------------------------------------------
create table public.notify_registrations (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  asset_name text not null check (char_length(btrim(asset_name)) between 1 and 320),
  identifier_kind text not null,
  identifier_canonical text not null,
  created_at timestamptz not null default now(),
  unique (user_id, identifier_canonical)
);
comment on table public.notify_registrations is 'One identifier a user wants to hear about (Notify Me); one row per canonical identifier per user.';
comment on column public.notify_registrations.asset_name is 'The identifier as the user typed it.';
comment on column public.notify_registrations.identifier_canonical is 'canonical_identifier_auto(asset_name), set by trigger; matched against new reports.';
create index notify_registrations_identifier_canonical_idx on public.notify_registrations (identifier_canonical);

/** Canonical form and kind of a notify registration, whatever the caller sent. */
create function private.notify_registrations_before_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.asset_name := btrim(new.asset_name);
  new.identifier_kind := public.detect_identifier_kind(new.asset_name);
  new.identifier_canonical := public.canonical_identifier(new.identifier_kind, new.asset_name);
  return new;
end
$$;
comment on function private.notify_registrations_before_write() is 'Trigger: sets identifier_kind and identifier_canonical from asset_name.';
grant execute on function private.notify_registrations_before_write() to authenticated, service_role;
create trigger notify_registrations_before_write before insert or update on public.notify_registrations
  for each row execute function private.notify_registrations_before_write();

alter table public.notify_registrations enable row level security;
revoke all on public.notify_registrations from anon, authenticated;
grant select, delete on public.notify_registrations to authenticated;
grant insert (user_id, asset_name) on public.notify_registrations to authenticated;
grant update (asset_name) on public.notify_registrations to authenticated;
create policy "Users can read their own notify registrations" on public.notify_registrations
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can register identifiers for themselves" on public.notify_registrations
  for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Users can update their own notify registrations" on public.notify_registrations
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own notify registrations" on public.notify_registrations
  for delete to authenticated
  using (user_id = (select auth.uid()));

create table public.notifications (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind public.notification_kind not null,
  report_id uuid references public.reports (id) on delete cascade,
  identifier text,
  read_at timestamptz,
  emailed_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table public.notifications is 'In-app notifications, created by the database (new report on a registered identifier, removal request, status change); e-mailed by an edge function.';
comment on column public.notifications.identifier is 'The canonical identifier the notification is about.';
comment on column public.notifications.emailed_at is 'Set by the edge function that e-mails the notification.';
create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);
create index notifications_report_id_idx on public.notifications (report_id);
create index notifications_unemailed_idx on public.notifications (created_at) where emailed_at is null;

alter table public.notifications enable row level security;
revoke all on public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;
create policy "Users can read their own notifications" on public.notifications
  for select to authenticated
  using (user_id = (select auth.uid()));
create policy "Users can mark their own notifications read" on public.notifications
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy "Users can delete their own notifications" on public.notifications
  for delete to authenticated
  using (user_id = (select auth.uid()));

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
  resolved_at timestamptz
);
comment on table public.removal_requests is 'Requests by a reported account holder to remove a report. The reporter is notified; without an answer in 7 days the report is removed (private.expire_removal_requests).';
comment on column public.removal_requests.reporter_response is 'The reporter''s answer; an answered request waits for an admin instead of expiring.';
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
comment on function private.is_reporter_of(uuid) is 'True when auth.uid() is the reporter of the report.';
revoke execute on function private.is_reporter_of(uuid) from public, anon;
grant execute on function private.is_reporter_of(uuid) to authenticated, service_role;

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
comment on function private.removal_requests_before_write() is 'Trigger: keeps resolution to admins and stamps responded_at/resolved_at.';
grant execute on function private.removal_requests_before_write() to authenticated, service_role;
create trigger removal_requests_before_write before insert or update on public.removal_requests
  for each row execute function private.removal_requests_before_write();

alter table public.removal_requests enable row level security;
revoke all on public.removal_requests from anon, authenticated;
grant select, delete on public.removal_requests to authenticated;
grant insert (report_id, requester_id, reason, contact_email) on public.removal_requests to authenticated;
grant update (reporter_response, status, resolved_at) on public.removal_requests to authenticated;
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

-- ---------------------------------------------------------------------------------------------
-- Search and visitor logs (no raw IP addresses: at most a salted hash computed by the edge function)
-- ---------------------------------------------------------------------------------------------
create table public.search_log (
  id uuid not null primary key default gen_random_uuid(),
  search_string text not null check (char_length(search_string) <= 256),
  identifier_kind text,
  identifier_canonical text,
  result_count integer not null default 0,
  user_id uuid references auth.users (id) on delete set null,
  city text check (char_length(city) <= 100),
  region text check (char_length(region) <= 100),
  country text check (char_length(country) <= 64),
  loc text check (loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'),
  org text check (char_length(org) <= 200),
  postal text check (char_length(postal) <= 20),
  ip_hash text check (ip_hash ~ '^[0-9a-f]{16,128}$'),
  created_at timestamptz not null default now()
);
comment on table public.search_log is 'Every search (written by search_reports); admins read it (Search History). No raw IP: ip_hash is a salted hash.';
create index search_log_created_at_idx on public.search_log (created_at desc);
create index search_log_user_id_idx on public.search_log (user_id);

alter table public.search_log enable row level security;
revoke all on public.search_log from anon, authenticated;
grant select on public.search_log to authenticated;
create policy "Admins can read the search log" on public.search_log
  for select to authenticated
  using ((select private.is_admin()));

create table public.visitor_log (
  id uuid not null primary key default gen_random_uuid(),
  path text check (char_length(path) <= 300),
  city text check (char_length(city) <= 100),
  region text check (char_length(region) <= 100),
  country text check (char_length(country) <= 64),
  loc text check (loc ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$'),
  org text check (char_length(org) <= 200),
  postal text check (char_length(postal) <= 20),
  ip_hash text check (ip_hash ~ '^[0-9a-f]{16,128}$'),
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
comment on table public.visitor_log is 'Visits with their approximate location (Visitor Stats). No raw IP: ip_hash is a salted hash.';
create index visitor_log_created_at_idx on public.visitor_log (created_at desc);
create index visitor_log_user_id_idx on public.visitor_log (user_id);

alter table public.visitor_log enable row level security;
revoke all on public.visitor_log from anon, authenticated;
grant insert (path, city, region, country, loc, org, postal, ip_hash) on public.visitor_log to anon, authenticated;
grant select on public.visitor_log to authenticated;
create policy "Visitors can record a visit" on public.visitor_log
  for insert to anon
  with check (user_id is null);
create policy "Signed-in users can record a visit as themselves" on public.visitor_log
  for insert to authenticated
  with check (user_id = (select auth.uid()));
create policy "Admins can read the visitor log" on public.visitor_log
  for select to authenticated
  using ((select private.is_admin()));

-- The service role (edge functions after their own checks) keeps full access to everything above.
grant all on all tables in schema public to service_role;
