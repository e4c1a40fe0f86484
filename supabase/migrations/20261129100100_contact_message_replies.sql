-- Contact messages the admins can answer (issue 31 item 4): a reply by e-mail from the product, kept with
-- who wrote it and whether it was sent; who handled a message; the reports a message names.
--
--   * contact_messages.handled_by: the admin who marked it handled (kept by a trigger from auth.uid());
--   * public.contact_message_replies: the replies, append-only for the API roles (admins read them; the
--     contact-reply edge function writes them through the two functions below);
--   * public.admin_reply_contact_message(message_id, body): admins only; stores the reply, marks the
--     message handled by the caller, and returns what the e-mail needs (the address, the subject and the
--     original message); the function then sends it over SMTP and records the outcome with
--   * public.record_contact_reply_sent(reply_id, error): service role only;
--   * public.admin_contact_message_extras(message_ids): admins only; per message, who handled it, its
--     replies and the reports whose id the message or its subject names.

alter table public.contact_messages add column handled_by uuid references auth.users (id) on delete set null;
comment on column public.contact_messages.handled_by is 'The admin who marked the message handled (or replied to it); null while in the inbox.';
create index contact_messages_handled_by_idx on public.contact_messages (handled_by);

/** Marking a message handled records who did it; back to the inbox clears it. */
create function private.contact_messages_handled_by()
 returns trigger
 language plpgsql
 set search_path to ''
as $function$
begin
  if new.handled_at is null then
    new.handled_by := null;
  elsif old.handled_at is null or new.handled_by is not distinct from old.handled_by then
    new.handled_by := coalesce((select auth.uid()), new.handled_by);
  end if;
  return new;
end
$function$;
alter function private.contact_messages_handled_by() owner to postgres;
grant execute on function private.contact_messages_handled_by() to authenticated, service_role;
comment on function private.contact_messages_handled_by() is
  'Trigger: a message marked handled records the admin (auth.uid()); one put back in the inbox has no handler.';

create trigger contact_messages_handled_by before update of handled_at on public.contact_messages
  for each row when (old.handled_at is distinct from new.handled_at)
  execute function private.contact_messages_handled_by();

create table public.contact_message_replies (
  id uuid not null primary key default gen_random_uuid(),
  message_id uuid not null references public.contact_messages (id) on delete cascade,
  admin_id uuid references auth.users (id) on delete set null,
  sent_to text not null check (char_length(sent_to) <= 320),
  body text not null check (char_length(btrim(body)) between 1 and 5000),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  send_error text check (char_length(send_error) <= 500)
);
alter table public.contact_message_replies enable row level security;
revoke all on public.contact_message_replies from anon, authenticated;
grant select on public.contact_message_replies to authenticated;
grant all on public.contact_message_replies to service_role;
comment on table public.contact_message_replies is
  'Admins'' e-mailed replies to contact messages (issue 31): who, when, what, to which address, and whether the e-mail went out. Written only through admin_reply_contact_message and record_contact_reply_sent.';
create index contact_message_replies_message_id_idx on public.contact_message_replies (message_id, created_at);
create index contact_message_replies_admin_id_idx on public.contact_message_replies (admin_id);

create policy "Admins can read replies to contact messages" on public.contact_message_replies
  for select to authenticated
  using ((select private.is_admin()));

/**
 * An admin replies to a contact message: the reply is stored (sent_at null until the e-mail goes out)
 * and the message is marked handled by the caller. Returns the reply's id, the address, the subject and
 * the original message for the e-mail. Refuses a non-admin (42501), a missing message (P0002), a message
 * without an e-mail address and a blank or over-long reply (22023).
 */
create function public.admin_reply_contact_message(message_id uuid, body text)
 returns jsonb
 language plpgsql
 security definer
 set search_path to ''
as $function$
declare
  v_uid uuid := auth.uid();
  v_message public.contact_messages;
  v_body text := btrim(body);
  v_id uuid;
begin
  if v_uid is null or not (select private.is_admin()) then
    raise exception 'only admins can reply to contact messages' using errcode = '42501';
  end if;
  select * into v_message from public.contact_messages m where m.id = admin_reply_contact_message.message_id
  for update;
  if not found then
    raise exception 'no contact message with this id' using errcode = 'P0002';
  end if;
  if v_message.email is null or v_message.email !~ '^[^\s@]+@[^\s@]+\.[^\s@]+$' then
    raise exception 'this message has no e-mail address to reply to' using errcode = '22023';
  end if;
  if v_body is null or char_length(v_body) = 0 then
    raise exception 'a reply needs some words' using errcode = '22023';
  end if;
  if char_length(v_body) > 5000 then
    raise exception 'a reply has at most 5000 characters' using errcode = '22023';
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
alter function public.admin_reply_contact_message(uuid, text) owner to postgres;
revoke execute on function public.admin_reply_contact_message(uuid, text) from public, anon;
grant execute on function public.admin_reply_contact_message(uuid, text) to authenticated, service_role;
comment on function public.admin_reply_contact_message(uuid, text) is
  'Admins only: stores a reply to a contact message and marks it handled by the caller; returns what the e-mail needs (the contact-reply function sends it).';

/** The contact-reply function records whether the reply's e-mail went out (service role only). */
create function public.record_contact_reply_sent(reply_id uuid, error text default null)
 returns void
 language sql
 security definer
 set search_path to ''
as $function$
  update public.contact_message_replies r
  set sent_at = case when record_contact_reply_sent.error is null then now() end,
      send_error = left(record_contact_reply_sent.error, 500)
  where r.id = record_contact_reply_sent.reply_id and r.sent_at is null;
$function$;
alter function public.record_contact_reply_sent(uuid, text) owner to postgres;
revoke execute on function public.record_contact_reply_sent(uuid, text) from public, anon, authenticated;
grant execute on function public.record_contact_reply_sent(uuid, text) to service_role;
comment on function public.record_contact_reply_sent(uuid, text) is
  'Service role only: marks a reply sent, or keeps why its e-mail failed.';

/**
 * Admins only: for each of the given contact messages (at most 100), who handled it, its replies (oldest
 * first, with their author and outcome) and the reports whose id appears in its subject or text.
 */
create function public.admin_contact_message_extras(message_ids uuid[])
 returns jsonb
 language plpgsql
 stable
 security definer
 set search_path to ''
as $function$
begin
  if not (select private.is_admin()) then
    raise exception 'only admins can read contact messages' using errcode = '42501';
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
alter function public.admin_contact_message_extras(uuid[]) owner to postgres;
revoke execute on function public.admin_contact_message_extras(uuid[]) from public, anon;
grant execute on function public.admin_contact_message_extras(uuid[]) to authenticated, service_role;
comment on function public.admin_contact_message_extras(uuid[]) is
  'Admins only: per contact message (at most 100), who handled it, its e-mailed replies and the reports its subject or text names by id.';
