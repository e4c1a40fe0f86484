-- Issue 28 ("Security, third round"), uploads: one account stored 60 images of 469 KB in 6 seconds, and
-- files whose row was never saved (or was replaced) stayed in the buckets for ever.
--
-- * Limits per account and per client address, on the count of images and on their bytes per hour,
--   in the product's one limiter (private.rate_limits). Every upload passes public.upload_take before
--   its file is decoded: the app's `upload-image` function and the legacy API's avatar, evidence and
--   banner uploads (supabase/functions/_shared/uploads.ts), with the caller's X-Forwarded-For.
-- * public.orphan_uploads lists image objects no row refers to, older than a grace period; the
--   scheduled `upload-cleanup` function removes them through Storage. What counts as a reference is
--   private.referenced_upload, the one place to extend when a table gains an image column.

insert into private.rate_limits (name, max_calls, per_seconds, description) values
  ('upload.user', 30, 3600, 'Too many images uploaded from your account this hour'),
  ('upload.ip', 60, 3600, 'Too many images uploaded from your address this hour'),
  -- In KiB: 20 MiB an hour per account, 40 MiB per address.
  ('upload_kib.user', 20480, 3600, 'Too many megabytes of images uploaded from your account this hour'),
  ('upload_kib.ip', 40960, 3600, 'Too many megabytes of images uploaded from your address this hour');

/**
 * Spends one upload of `p_bytes` bytes for user `p_user` and for the caller's address (when the request
 * names one): {"ok": true}, or {"ok": false, "message", "retry_after"} at the first limit it is over.
 * Service role only (the functions that store images call it before decoding the file).
 */
create function public.upload_take(p_user uuid, p_bytes bigint)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
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
        'message', (select l.description from private.rate_limits l where l.name = v_check.name));
    end if;
  end loop;
  return jsonb_build_object('ok', true);
end
$$;
comment on function public.upload_take(uuid, bigint) is
  'Spends one image upload of p_bytes for the user and the caller''s address (upload.*, upload_kib.*): {ok} or {ok: false, message, retry_after}. Service role only.';
revoke all on function public.upload_take(uuid, bigint) from public, anon, authenticated;
grant execute on function public.upload_take(uuid, bigint) to service_role;

/** Whether a row refers to the object `p_name` of image bucket `p_bucket`. */
create function private.referenced_upload(p_bucket text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case p_bucket
    when 'avatars' then exists (select 1 from public.profiles p where p.avatar_path = p_name)
    when 'evidence' then exists (select 1 from public.reports r where r.evidence_path = p_name)
    when 'news-banners' then exists (select 1 from public.news n where n.banner_path = p_name)
    else true
  end
$$;
comment on function private.referenced_upload(text, text) is
  'Whether a row refers to an object of an image bucket (profiles.avatar_path, reports.evidence_path, news.banner_path); other buckets count as referenced.';
revoke all on function private.referenced_upload(text, text) from public, anon, authenticated;

/**
 * Image objects no row refers to, stored more than `p_grace_seconds` ago (a form uploads its image
 * before it saves its row, so a fresh object is not an orphan yet), oldest first, at most `p_limit`.
 * Service role only: the scheduled `upload-cleanup` function removes what it answers through Storage.
 */
create function public.orphan_uploads(p_grace_seconds integer default 86400, p_limit integer default 500)
returns table (bucket text, path text)
language sql
stable
security definer
set search_path = ''
as $$
  select o.bucket_id, o.name
    from storage.objects o
   where o.bucket_id in ('avatars', 'evidence', 'news-banners')
     and o.created_at < now() - make_interval(secs => greatest(p_grace_seconds, 3600))
     and not private.referenced_upload(o.bucket_id, o.name)
   order by o.created_at
   limit least(greatest(p_limit, 1), 1000)
$$;
comment on function public.orphan_uploads(integer, integer) is
  'Image objects no row refers to, older than the grace period (at least an hour): (bucket, path), oldest first. Service role only.';
revoke all on function public.orphan_uploads(integer, integer) from public, anon, authenticated;
grant execute on function public.orphan_uploads(integer, integer) to service_role;
