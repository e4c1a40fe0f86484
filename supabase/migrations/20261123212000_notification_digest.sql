-- Notification e-mails (issue 11): one watcher received 566. Past a few an hour (email.user), a user's
-- pending notifications are batched into one digest an hour (email.digest); the dispatch job
-- (supabase/functions/_shared/dispatch.ts) takes both from the rate limiter.
alter table public.notifications add column email_deferred_until timestamptz;
comment on column public.notifications.email_deferred_until is
  'Set by the dispatch job when the user''s e-mail limit is spent: the notification waits for the next digest, not before this time.';

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('email.user', 4, 3600, 'Too many notification e-mails to this user'),
  ('email.digest', 1, 3600, 'Too many notification digests to this user');
