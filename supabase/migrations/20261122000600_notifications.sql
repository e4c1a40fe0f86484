-- Notifications: Notify Me registrations (a user watches an identifier) and in-app notifications,
-- written by triggers when a watched identifier is reported or verified, a report's status changes or
-- its removal is requested. The dispatch job (supabase/functions/_shared/dispatch.ts) e-mails them,
-- batching a user's notifications into an hourly digest past a few an hour (limits email.user and
-- email.digest).

-- ---------------------------------------------------------------------------------------------
-- Types
-- ---------------------------------------------------------------------------------------------
create type public.notification_kind as enum ('identifier_reported', 'removal_requested', 'report_status_changed');
comment on type public.notification_kind is 'Why a user was notified.';

-- ---------------------------------------------------------------------------------------------
-- Notify Me registrations
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
alter table public.notify_registrations enable row level security;
revoke all on public.notify_registrations from anon, authenticated;
grant select, delete on public.notify_registrations to authenticated;
grant insert (user_id, asset_name) on public.notify_registrations to authenticated;
grant update (asset_name) on public.notify_registrations to authenticated;
comment on column public.notify_registrations.asset_name is 'The identifier as the user typed it.';
comment on column public.notify_registrations.identifier_canonical is 'canonical_identifier_auto(asset_name), set by trigger; matched against new reports.';
comment on table public.notify_registrations is 'One identifier a user wants to hear about (Notify Me); one row per canonical identifier per user.';

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
grant execute on function private.notify_registrations_before_write() to authenticated, service_role;
comment on function private.notify_registrations_before_write() is 'Trigger: sets identifier_kind and identifier_canonical from asset_name.';

create trigger notify_registrations_before_write before insert or update on public.notify_registrations
  for each row execute function private.notify_registrations_before_write();

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

create trigger rate_limit_writes before insert on public.notify_registrations
  for each row execute function private.limit_writes('notify');

-- ---------------------------------------------------------------------------------------------
-- Notifications
-- ---------------------------------------------------------------------------------------------
create table public.notifications (
  id uuid not null primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  kind public.notification_kind not null,
  report_id uuid references public.reports (id) on delete cascade,
  identifier text,
  read_at timestamptz,
  emailed_at timestamptz,
  created_at timestamptz not null default now(),
  -- Notification e-mails (issue 11): one watcher received 566. Past a few an hour (email.user), a user's
  -- pending notifications are batched into one digest an hour (email.digest); the dispatch job
  -- (supabase/functions/_shared/dispatch.ts) takes both from the rate limiter.
  email_deferred_until timestamptz
);
alter table public.notifications enable row level security;
revoke all on public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;
comment on column public.notifications.identifier is 'The canonical identifier the notification is about.';
comment on column public.notifications.emailed_at is 'Set by the edge function that e-mails the notification.';
comment on column public.notifications.email_deferred_until is
  'Set by the dispatch job when the user''s e-mail limit is spent: the notification waits for the next digest, not before this time.';
comment on table public.notifications is 'In-app notifications, created by the database (new report on a registered identifier, removal request, status change); e-mailed by an edge function.';

create index notifications_user_id_created_at_idx on public.notifications (user_id, created_at desc);

create index notifications_report_id_idx on public.notifications (report_id);

create index notifications_unemailed_idx on public.notifications (created_at) where emailed_at is null;

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
-- What notifies (triggers)
-- ---------------------------------------------------------------------------------------------
/** Notifies users who registered an identifier when it is reported, and reporters when an admin decides. */
create function private.reports_notify()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status not in ('pending', 'verified') then
    return null;
  end if;
  if tg_op = 'INSERT' or new.reported_account_canonical is distinct from old.reported_account_canonical then
    insert into public.notifications (user_id, kind, report_id, identifier)
    select nr.user_id, 'identifier_reported', new.id, new.reported_account_canonical
    from public.notify_registrations nr
    where nr.identifier_canonical = new.reported_account_canonical
      and nr.user_id is distinct from new.reporter_id;
  end if;
  return null;
end
$$;
revoke execute on function private.reports_notify() from public, anon, authenticated;
comment on function private.reports_notify() is 'Trigger: creates notifications for users who registered the reported identifier.';

create trigger reports_notify after insert or update of reported_account_type, reported_account on public.reports
  for each row execute function private.reports_notify();

/** Tells the reporter that a removal of their report was requested. */
create function private.removal_requests_notify()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, report_id, identifier)
  select r.reporter_id, 'removal_requested', r.id, r.reported_account_canonical
  from public.reports r
  where r.id = new.report_id and r.reporter_id is not null;
  return null;
end
$$;
revoke execute on function private.removal_requests_notify() from public, anon, authenticated;
comment on function private.removal_requests_notify() is 'Trigger: notifies the reporter of a new removal request.';

/** Queues an in-app notification (and so an e-mail) for every watcher when a report becomes verified. */
create function private.reports_notify_verified()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.notifications (user_id, kind, report_id, identifier)
  select nr.user_id, 'identifier_reported', new.id, new.reported_account_canonical
  from public.notify_registrations nr
  where nr.identifier_canonical = new.reported_account_canonical
    and nr.user_id is distinct from new.reporter_id
    and not exists (
      select 1 from public.notifications n
      where n.user_id = nr.user_id and n.report_id = new.id and n.kind = 'identifier_reported'
        and n.created_at = now() -- already queued by this same transaction
    );
  return null;
end
$$;
revoke execute on function private.reports_notify_verified() from public, anon, authenticated;
comment on function private.reports_notify_verified() is
  'Trigger: when a report becomes verified, notifies every user who registered its identifier.';

create trigger reports_notify_verified after update of status on public.reports
  for each row
  when (new.status = 'verified' and old.status is distinct from 'verified')
  execute function private.reports_notify_verified();

create trigger removal_requests_notify after update of contact_confirmed_at on public.removal_requests
  for each row when (old.contact_confirmed_at is null and new.contact_confirmed_at is not null and new.status = 'open')
  execute function private.removal_requests_notify();
