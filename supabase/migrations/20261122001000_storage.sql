-- storage

-- Storage buckets for images (SPEC.md section 5: at most 500000 bytes, images only) and their policies.
--   evidence      private: the reporter reads and writes under '<uid>/...', admins read everything.
--   avatars       public read; users write under '<uid>/...'.
--   news-banners  public read; admins write.
-- Public buckets serve their files by public URL without any policy; a broad SELECT policy would also
-- let anyone list every file (and so every user id in avatars), so SELECT is granted only to the
-- writers, who need it to replace (upsert) and delete their files (splinter 0025).
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('evidence', 'evidence', false, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('avatars', 'avatars', true, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('news-banners', 'news-banners', true, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
-- Public bucket: files are served by their public URL to anyone; only the service role writes
-- (it bypasses RLS), so no policy is needed and none would let anyone list or write.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('open-data', 'open-data', true, 20000000, array['text/csv', 'application/json'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- evidence
create policy "Reporters and admins can read evidence" on storage.objects
  for select to authenticated
  using (
    bucket_id = 'evidence'
    and ((storage.foldername(name))[1] = (select auth.uid())::text or (select private.is_admin()))
  );

create policy "Users can delete evidence in their own folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'evidence' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- avatars
create policy "Users can list avatars in their own folder" on storage.objects
  for select to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Users can delete avatars in their own folder" on storage.objects
  for delete to authenticated
  using (bucket_id = 'avatars' and (storage.foldername(name))[1] = (select auth.uid())::text);

-- news banners
create policy "Admins can list news banners" on storage.objects
  for select to authenticated
  using (bucket_id = 'news-banners' and (select private.is_admin()));

create policy "Admins can delete news banners" on storage.objects
  for delete to authenticated
  using (bucket_id = 'news-banners' and (select private.is_admin()));
