-- Storage buckets for images (SPEC.md section 5: at most 500000 bytes, images only) and open data:
--   evidence      private: the reporter reads under '<uid>/...', admins read everything.
--   avatars       public read; users read and delete under '<uid>/...'.
--   news-banners  public read; admins read and delete.
--   open-data     the open data exports.
-- Every image goes in through a function that checks its bytes and cleans it (the app's `upload-image`
-- function or the legacy API, with the service role), so users get no INSERT or UPDATE on the image
-- buckets; they keep reading and deleting in their own folder, which the forms need to remove a
-- replaced image. Public buckets serve files by public URL without any policy; a broad SELECT policy
-- would also let anyone list every file, so SELECT is granted only to the owners (splinter 0025).

-- open-data is public too: files are served by their public URL to anyone; only the service role
-- writes (it bypasses RLS), so no policy is needed and none would let anyone list or write.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('evidence', 'evidence', false, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('avatars', 'avatars', true, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('news-banners', 'news-banners', true, 500000, array['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
  ('open-data', 'open-data', true, 20000000, array['text/csv', 'application/json'])
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
