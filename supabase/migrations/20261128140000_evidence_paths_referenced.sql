-- Issue 33 after issue 28: a report's evidence images are all in reports.evidence_paths (up to five;
-- evidence_path is always the first, 20261127140000_evidence_images_and_incident_date.sql). The upload
-- cleanup (public.orphan_uploads, scheduled `upload-cleanup` function) must count every one of them as
-- referenced, or it would remove a report's second to fifth images a day after they were stored.

create index reports_evidence_paths_idx on public.reports using gin (evidence_paths);

/** Whether a row refers to the object `p_name` of image bucket `p_bucket`. */
create or replace function private.referenced_upload(p_bucket text, p_name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case p_bucket
    when 'avatars' then exists (select 1 from public.profiles p where p.avatar_path = p_name)
    -- evidence_paths holds evidence_path as its first element; @> uses reports_evidence_paths_idx.
    when 'evidence' then exists (select 1 from public.reports r where r.evidence_paths @> array[p_name])
    when 'news-banners' then exists (select 1 from public.news n where n.banner_path = p_name)
    else true
  end
$$;
comment on function private.referenced_upload(text, text) is
  'Whether a row refers to an object of an image bucket (profiles.avatar_path, any of reports.evidence_paths, news.banner_path); other buckets count as referenced.';
revoke all on function private.referenced_upload(text, text) from public, anon, authenticated;
