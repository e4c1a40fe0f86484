-- Issue 34: the feeds' service-role entry points carry their comment for the dashboard, as every function
-- of ours does (supabase/tests/db/gates.test.ts).

comment on function public.feed_files_state() is
  'Service role only (the open-data job): the feed files written last time, with their SHA-256 and source key.';
comment on function public.feed_files_record(jsonb, text[]) is
  'Service role only (the open-data job): records the feed files it wrote (name, sha256, items, bytes, source_key) and forgets those it deleted.';
comment on function public.takedown_add(jsonb) is
  'Service role only (the open-data job): stores drafted XARF takedown reports, one per newly listed link at most.';
comment on function public.takedown_outbox(integer) is
  'Service role only (the open-data job): whether takedown sending is on, the reply address, and the approved unsent reports (none while sending is off).';
comment on function public.takedown_mark(uuid, text) is
  'Service role only (the open-data job): marks an approved takedown report sent, or records why sending failed.';
