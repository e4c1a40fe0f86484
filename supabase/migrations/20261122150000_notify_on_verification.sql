-- Notify Me on verification (issue 5): watchers of an identifier hear about a report when it is filed
-- (private.reports_notify) and again when a moderator verifies it, because "verified" is the news a
-- watcher acts on. The notify-dispatch edge function e-mails the new rows within a minute.

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
comment on function private.reports_notify_verified() is
  'Trigger: when a report becomes verified, notifies every user who registered its identifier.';
revoke execute on function private.reports_notify_verified() from public, anon, authenticated;

create trigger reports_notify_verified after update of status on public.reports
  for each row
  when (new.status = 'verified' and old.status is distinct from 'verified')
  execute function private.reports_notify_verified();
