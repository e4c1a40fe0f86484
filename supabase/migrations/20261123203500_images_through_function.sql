-- Issue 11 (medium, images): the app uploaded avatars, evidence and news banners straight to Storage,
-- so no check of the legacy API applied (a JPEG kept its GPS position in the public avatars bucket; SVG
-- or HTML went in as image/png). Now every image goes through a function that checks its bytes, limits
-- its pixels and cleans it to its pixels (supabase/functions/_shared/image.ts), then stores it with the
-- service role: the app's `upload-image` function or the legacy API.
--
-- So users get no INSERT or UPDATE on the image buckets any more. Storage runs every write (upload,
-- upsert, signed upload URL, resumable/TUS and S3 uploads, copy and move) as the caller under these
-- policies, on hosted Supabase as locally, so a direct write is refused before a byte is stored. Users
-- keep reading and deleting in their own folder (admins: news banners), which the forms need to remove
-- a replaced image.
drop policy "Users can upload evidence to their own folder" on storage.objects;
drop policy "Users can replace evidence in their own folder" on storage.objects;
drop policy "Users can upload an avatar to their own folder" on storage.objects;
drop policy "Users can replace avatars in their own folder" on storage.objects;
drop policy "Admins can upload news banners" on storage.objects;
drop policy "Admins can replace news banners" on storage.objects;
