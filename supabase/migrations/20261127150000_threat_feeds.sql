-- Issue 34: threat-intelligence feeds of verified identifiers (docs/feeds.md).
--
-- The hourly `open-data` job (supabase/functions/open-data) builds the feeds:
--   1. public.feed_candidates(): every identifier with at least one verified report, aggregated (no
--      amounts: the feeds carry identifiers only);
--   2. the job decides, in TypeScript (_shared/feeds/classify.ts, tldts), what each one is listed as:
--      its TLP (clear: links, domains and crypto addresses; amber: phones, e-wallets, e-mails and any
--      other kind), its indicator type and value, and leaves out whole domains of shared platforms and
--      link shorteners;
--   3. public.feed_sync(items) stores that list in private.feed_items: new identifiers are added,
--      changed ones get a new version, those no longer verified are withdrawn. version_at is when a
--      version entered the collection (TAXII's date_added);
--   4. the job writes the files (CSV, JSON, list, MISP, STIX) to the public `feeds` bucket (TLP:CLEAR)
--      and the private `feeds-partner` bucket (TLP:AMBER), remembering each file's SHA-256 in
--      private.feed_files so unchanged files are not rewritten;
--   5. takedown reports (XARF v4) are drafted for newly listed phishing links (public.takedown_reports).
-- TAXII 2.1 is served by the api function from private.feed_items (public.taxii_page). The partner
-- feed is served by the api function to API keys an admin marked as a partner (public.set_api_key_partner),
-- and every download is logged (public.partner_feed_downloads).

-- ---------------------------------------------------------------------------------------------
-- Partner API keys
-- ---------------------------------------------------------------------------------------------
alter table public.api_keys
  add column partner_organisation text
    check (partner_organisation is null or (char_length(partner_organisation) between 1 and 100 and partner_organisation = btrim(partner_organisation))),
  add column partner_since timestamptz;
comment on column public.api_keys.partner_organisation is
  'Set by an admin (set_api_key_partner): the bank, e-wallet, telco or CERT this key belongs to; such a key may download the TLP:AMBER partner feed. Null: not a partner.';
comment on column public.api_keys.partner_since is 'When an admin marked the key as a partner.';

/** Admins: marks an API key as a partner's (organisation) or unmarks it (organisation null or empty). */
create function public.set_api_key_partner(key_id uuid, organisation text)
returns public.api_keys
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_org text := nullif(btrim(coalesce(set_api_key_partner.organisation, '')), '');
  v_row public.api_keys;
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can mark partner keys' using errcode = '42501';
  end if;
  if v_org is not null and char_length(v_org) > 100 then
    raise exception 'An organisation''s name is at most 100 characters' using errcode = '22023';
  end if;
  update public.api_keys k
  set partner_organisation = v_org,
      partner_since = case when v_org is null then null else coalesce(k.partner_since, now()) end
  where k.id = set_api_key_partner.key_id
  returning * into v_row;
  if v_row.id is null then
    raise sqlstate 'PT404' using message = 'No such API key';
  end if;
  if v_row.revoked_at is not null and v_org is not null then
    raise exception 'This API key has been revoked' using errcode = '22023';
  end if;
  return v_row;
end
$$;
comment on function public.set_api_key_partner(uuid, text) is
  'Admins: marks an API key as a partner''s (organisation) so it may download the TLP:AMBER feed, or unmarks it (null).';
revoke execute on function public.set_api_key_partner(uuid, text) from public, anon;
grant execute on function public.set_api_key_partner(uuid, text) to authenticated, service_role;

create table public.partner_feed_downloads (
  id bigint generated always as identity primary key,
  key_id uuid references public.api_keys (id) on delete set null,
  organisation text not null,
  file text not null check (char_length(file) <= 200),
  items integer not null check (items >= 0),
  not_modified boolean not null default false,
  downloaded_at timestamptz not null default now()
);
comment on table public.partner_feed_downloads is
  'Every download of the partner (TLP:AMBER) feed: which key and organisation, which file, how many identifiers, when (items 0 and not_modified when the client already had it). Admins read; written by public.partner_feed_access only.';
create index partner_feed_downloads_key_idx on public.partner_feed_downloads (key_id, downloaded_at desc);
create index partner_feed_downloads_at_idx on public.partner_feed_downloads (downloaded_at desc);
alter table public.partner_feed_downloads enable row level security;
revoke all on public.partner_feed_downloads from anon, authenticated;
grant select on public.partner_feed_downloads to authenticated;
grant all on public.partner_feed_downloads to service_role;
create policy "Admins read the partner feed's download log" on public.partner_feed_downloads
  for select to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Feed items
-- ---------------------------------------------------------------------------------------------
create table private.feed_items (
  id bigint generated always as identity primary key,
  kind text not null,
  canonical text not null,
  tlp text not null check (tlp in ('clear', 'amber')),
  indicator_type text not null check (indicator_type ~ '^[a-z][a-z0-9-]{0,19}$'),
  value text not null check (char_length(value) between 1 and 2100),
  written text not null check (char_length(written) <= 2100),
  first_reported timestamptz not null,
  last_reported timestamptz not null,
  reports integer not null check (reports > 0),
  reporters integer not null check (reporters >= 0),
  scam_type text not null,
  brand text,
  stix_id uuid not null default gen_random_uuid() unique,
  event_day date not null,
  added_at timestamptz not null default date_trunc('milliseconds', now()),
  version_at timestamptz not null default date_trunc('milliseconds', now()),
  withdrawn_at timestamptz,
  unique (kind, canonical)
);
comment on table private.feed_items is
  'What the feeds list: one row per verified identifier (kind, canonical), as the open-data job classified it (tlp, indicator_type, value). version_at: when the current version entered the feed (TAXII date_added, STIX modified); withdrawn_at: no longer verified or no longer listed (kept so TAXII clients learn of it, as a revoked indicator). event_day: the MISP event and STIX day bundle it belongs to (its first report''s day, fixed when added).';
create index feed_items_taxii_idx on private.feed_items (tlp, version_at, id);
alter table private.feed_items enable row level security;

create table private.feed_files (
  name text primary key,
  sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
  items integer not null check (items >= 0),
  bytes bigint not null check (bytes >= 0),
  source_key text not null default '',
  updated_at timestamptz not null default now()
);
comment on table private.feed_files is
  'Each feed file the open-data job wrote (clear/... in the public feeds bucket, amber/... in feeds-partner): its SHA-256 (the partner feed''s ETag), how many identifiers it lists (the partner download log counts them) and source_key, what it was built from (a file whose items did not change is not built or written again).';
alter table private.feed_files enable row level security;

create table private.feed_settings (
  name text primary key,
  value text not null
);
comment on table private.feed_settings is
  'Feed and takedown settings: takedown_sending (on/off, default off: XARF reports are only drafted for admins to review), takedown_reporter_contact (the e-mail address abuse desks answer).';
alter table private.feed_settings enable row level security;
insert into private.feed_settings (name, value) values
  ('takedown_sending', 'off'),
  ('takedown_reporter_contact', 'abuse@scamcheck.ph');

/**
 * Every identifier with at least one verified report, aggregated: kind, canonical form, the written
 * form of its first verified report, first and last report, verified reports, distinct reporters and
 * the most common incident type. Amounts are left out on purpose. Service role only.
 */
create function public.feed_candidates()
returns table (
  kind text, canonical text, written text, first_reported timestamptz, last_reported timestamptz,
  reports integer, reporters integer, scam_type text
)
language sql
stable
security definer
set search_path = ''
as $$
  select r.reported_account_type::text, r.reported_account_canonical,
         (array_agg(r.reported_account order by r.created_at, r.id))[1],
         min(r.created_at), max(r.created_at), count(*)::int, count(distinct r.reporter_id)::int,
         (mode() within group (order by r.incident_type))::text
  from public.reports r
  where r.status = 'verified'
  group by r.reported_account_type, r.reported_account_canonical
$$;
comment on function public.feed_candidates() is
  'Service role only (the open-data job): every identifier with a verified report, aggregated for the feeds (no amounts).';
revoke execute on function public.feed_candidates() from public, anon, authenticated;
grant execute on function public.feed_candidates() to service_role;

/**
 * Stores the feed's list (items: [{kind, canonical, tlp, indicator_type, value, written, first_reported,
 * last_reported, reports, reporters, scam_type, brand}], the whole list each time). New identifiers are
 * added, changed ones get a new version (version_at now), withdrawn ones come back; identifiers missing
 * from the list are withdrawn. Answers {added, updated, withdrawn, new_links: [ids of newly added
 * clear url/domain items]}. Service role only.
 */
create function public.feed_sync(items jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_added integer;
  v_updated integer;
  v_withdrawn integer;
  v_new bigint[];
  -- Milliseconds, as STIX timestamps and TAXII's added_after carry them: a client's cursor is exact.
  v_now timestamptz := date_trunc('milliseconds', now());
begin
  if jsonb_typeof(feed_sync.items) is distinct from 'array' then
    raise exception 'items must be a JSON array' using errcode = '22023';
  end if;
  -- One sync at a time: two jobs overlapping would withdraw each other's rows.
  perform pg_advisory_xact_lock(hashtextextended('feed_sync', 0));
  drop table if exists pg_temp.feed_incoming;
  create temporary table feed_incoming on commit drop as
  select x.kind, x.canonical, x.tlp, x.indicator_type, x.value, x.written, x.first_reported, x.last_reported,
         x.reports, x.reporters, x.scam_type, x.brand
  from jsonb_to_recordset(feed_sync.items) as x(
    kind text, canonical text, tlp text, indicator_type text, value text, written text,
    first_reported timestamptz, last_reported timestamptz, reports integer, reporters integer,
    scam_type text, brand text);
  if exists (select 1 from feed_incoming i group by i.kind, i.canonical having count(*) > 1) then
    raise exception 'items lists an identifier twice' using errcode = '22023';
  end if;
  if exists (select 1 from feed_incoming i
             where i.kind is null or i.canonical is null or i.tlp is null or i.indicator_type is null
                or i.value is null or i.written is null or i.first_reported is null or i.last_reported is null
                or i.reports is null or i.reporters is null or i.scam_type is null) then
    raise exception 'every item needs kind, canonical, tlp, indicator_type, value, written, first_reported, last_reported, reports, reporters and scam_type' using errcode = '22023';
  end if;
  analyze feed_incoming;

  with changed as (
    update private.feed_items f
    set tlp = i.tlp, indicator_type = i.indicator_type, value = i.value, written = i.written,
        first_reported = i.first_reported, last_reported = i.last_reported, reports = i.reports,
        reporters = i.reporters, scam_type = i.scam_type, brand = i.brand,
        version_at = v_now, withdrawn_at = null
    from feed_incoming i
    where i.kind = f.kind and i.canonical = f.canonical
      and (f.withdrawn_at is not null
           or (f.tlp, f.indicator_type, f.value, f.written, f.first_reported, f.last_reported, f.reports,
               f.reporters, f.scam_type, f.brand)
              is distinct from
              (i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported, i.reports,
               i.reporters, i.scam_type, i.brand))
    returning 1)
  select count(*) into v_updated from changed;

  with gone as (
    update private.feed_items f
    set withdrawn_at = v_now, version_at = v_now
    where f.withdrawn_at is null
      and not exists (select 1 from feed_incoming i where i.kind = f.kind and i.canonical = f.canonical)
    returning 1)
  select count(*) into v_withdrawn from gone;

  with added as (
    insert into private.feed_items (kind, canonical, tlp, indicator_type, value, written, first_reported,
                                    last_reported, reports, reporters, scam_type, brand, event_day, added_at, version_at)
    select i.kind, i.canonical, i.tlp, i.indicator_type, i.value, i.written, i.first_reported, i.last_reported,
           i.reports, i.reporters, i.scam_type, i.brand, (i.first_reported at time zone 'UTC')::date, v_now, v_now
    from feed_incoming i
    where not exists (select 1 from private.feed_items f where f.kind = i.kind and f.canonical = i.canonical)
    returning id, tlp, indicator_type)
  select count(*)::int,
         coalesce(array_agg(a.id order by a.id) filter (where a.tlp = 'clear' and a.indicator_type in ('url', 'domain')), '{}')
  into v_added, v_new
  from added a;

  return jsonb_build_object('added', v_added, 'updated', v_updated, 'withdrawn', v_withdrawn,
                            'new_links', to_jsonb(v_new));
end
$$;
comment on function public.feed_sync(jsonb) is
  'Service role only (the open-data job): stores the feeds'' whole list of identifiers, versioning changed ones and withdrawing missing ones.';
revoke execute on function public.feed_sync(jsonb) from public, anon, authenticated;
grant execute on function public.feed_sync(jsonb) to service_role;

/** The items the feed files list now (not withdrawn), in id order. Service role only. */
create function public.feed_items_current()
returns table (
  id bigint, kind text, canonical text, tlp text, indicator_type text, value text, written text,
  first_reported timestamptz, last_reported timestamptz, reports integer, reporters integer,
  scam_type text, brand text, stix_id uuid, event_day date, added_at timestamptz, version_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select f.id, f.kind, f.canonical, f.tlp, f.indicator_type, f.value, f.written, f.first_reported,
         f.last_reported, f.reports, f.reporters, f.scam_type, f.brand, f.stix_id, f.event_day, f.added_at,
         f.version_at
  from private.feed_items f
  where f.withdrawn_at is null
  order by f.id
$$;
comment on function public.feed_items_current() is 'Service role only (the open-data job): the identifiers the feed files list.';
revoke execute on function public.feed_items_current() from public, anon, authenticated;
grant execute on function public.feed_items_current() to service_role;

/** The files written last time: name, SHA-256 and source key. Service role only. */
create function public.feed_files_state()
returns table (name text, sha256 text, source_key text)
language sql
stable
security definer
set search_path = ''
as $$
  select f.name, f.sha256, f.source_key from private.feed_files f order by f.name
$$;
revoke execute on function public.feed_files_state() from public, anon, authenticated;
grant execute on function public.feed_files_state() to service_role;

/**
 * Records the files the job wrote (files: [{name, sha256, items, bytes, source_key}]) and forgets those it
 * deleted (removed). Service role only.
 */
create function public.feed_files_record(files jsonb, removed text[] default '{}')
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into private.feed_files (name, sha256, items, bytes, source_key, updated_at)
  select x.name, x.sha256, x.items, x.bytes, coalesce(x.source_key, ''), now()
  from jsonb_to_recordset(feed_files_record.files)
    as x(name text, sha256 text, items integer, bytes bigint, source_key text)
  on conflict (name) do update
    set sha256 = excluded.sha256, items = excluded.items, bytes = excluded.bytes,
        source_key = excluded.source_key, updated_at = excluded.updated_at;
  delete from private.feed_files f where f.name = any (feed_files_record.removed);
$$;
revoke execute on function public.feed_files_record(jsonb, text[]) from public, anon, authenticated;
grant execute on function public.feed_files_record(jsonb, text[]) to service_role;

-- ---------------------------------------------------------------------------------------------
-- TAXII
-- ---------------------------------------------------------------------------------------------
/**
 * One page of the TAXII collection of a TLP (the api function serves it): items whose current version
 * was added after added_after (exclusive) and after the cursor (after_version, after_id) of the page
 * before, oldest first, at most max_items + 1 rows (the extra one tells there are more). ids and
 * types filter by STIX id (uuid part) and indicator type. Withdrawn items are included (as revoked).
 * Service role only.
 */
create function public.taxii_page(
  tlp text, added_after timestamptz default null, after_version timestamptz default null,
  after_id bigint default null, max_items integer default 100, ids uuid[] default null,
  indicator_types text[] default null)
returns table (
  id bigint, kind text, canonical text, indicator_type text, value text, written text,
  first_reported timestamptz, last_reported timestamptz, reports integer, reporters integer,
  scam_type text, brand text, stix_id uuid, added_at timestamptz, version_at timestamptz,
  withdrawn_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  -- One lower bound (version, id) for both the cursor and added_after (exclusive on the version),
  -- so the page is a range scan of feed_items_taxii_idx whatever the client sent.
  v_version timestamptz := '-infinity';
  v_id bigint := -1;
begin
  if taxii_page.added_after is not null then
    v_version := taxii_page.added_after;
    v_id := 9223372036854775807;
  end if;
  if taxii_page.after_version is not null
     and (taxii_page.after_version, coalesce(taxii_page.after_id, -1)) > (v_version, v_id) then
    v_version := taxii_page.after_version;
    v_id := coalesce(taxii_page.after_id, -1);
  end if;
  return query
  select f.id, f.kind, f.canonical, f.indicator_type, f.value, f.written, f.first_reported, f.last_reported,
         f.reports, f.reporters, f.scam_type, f.brand, f.stix_id, f.added_at, f.version_at, f.withdrawn_at
  from private.feed_items f
  where f.tlp = taxii_page.tlp
    and (f.version_at, f.id) > (v_version, v_id)
    and (taxii_page.ids is null or f.stix_id = any (taxii_page.ids))
    and (taxii_page.indicator_types is null or f.indicator_type = any (taxii_page.indicator_types))
  order by f.version_at, f.id
  limit least(greatest(coalesce(taxii_page.max_items, 100), 1), 1000) + 1;
end
$$;
comment on function public.taxii_page(text, timestamptz, timestamptz, bigint, integer, uuid[], text[]) is
  'Service role only (the api function''s TAXII 2.1 endpoints): one page of a TLP''s collection, oldest version first.';
revoke execute on function public.taxii_page(text, timestamptz, timestamptz, bigint, integer, uuid[], text[]) from public, anon, authenticated;
grant execute on function public.taxii_page(text, timestamptz, timestamptz, bigint, integer, uuid[], text[]) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Partner downloads
-- ---------------------------------------------------------------------------------------------
/**
 * The api function asks before serving a partner feed file: key_hash is the SHA-256 of the caller's
 * API key (already checked by public.api_limit), file its name in the feeds-partner bucket
 * (amber/...), if_none_match the caller's If-None-Match. Answers {status: 'unknown' | 'revoked' |
 * 'not_partner' | 'no_file' | 'ok', organisation, items, sha256, not_modified}; when ok the download is
 * logged (items: the identifiers the file lists, 0 when the caller already has this version).
 */
create function public.partner_feed_access(key_hash text, file text, if_none_match text default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_key public.api_keys;
  v_file private.feed_files;
  v_not_modified boolean;
begin
  select k.* into v_key
  from private.api_key_hashes h join public.api_keys k on k.id = h.key_id
  where h.key_hash = lower(partner_feed_access.key_hash);
  if v_key.id is null then
    return jsonb_build_object('status', 'unknown');
  end if;
  if v_key.revoked_at is not null then
    return jsonb_build_object('status', 'revoked');
  end if;
  if v_key.partner_organisation is null then
    return jsonb_build_object('status', 'not_partner');
  end if;
  select * into v_file from private.feed_files f where f.name = partner_feed_access.file;
  if v_file.name is null then
    return jsonb_build_object('status', 'no_file');
  end if;
  -- If-None-Match is a list of entity tags ('"a", "b"' or '*').
  v_not_modified := coalesce(partner_feed_access.if_none_match ~ ('(^|[ ,])(W/)?"' || v_file.sha256 || '"($|[ ,])')
                             or btrim(partner_feed_access.if_none_match) = '*', false);
  insert into public.partner_feed_downloads (key_id, organisation, file, items, not_modified)
  values (v_key.id, v_key.partner_organisation, v_file.name,
          case when v_not_modified then 0 else v_file.items end, v_not_modified);
  return jsonb_build_object('status', 'ok', 'organisation', v_key.partner_organisation, 'items', v_file.items,
                            'sha256', v_file.sha256, 'not_modified', v_not_modified);
end
$$;
comment on function public.partner_feed_access(text, text, text) is
  'Service role only (the api function): may this API key (by SHA-256) download a partner feed file? Logs the download when it may.';
revoke execute on function public.partner_feed_access(text, text, text) from public, anon, authenticated;
grant execute on function public.partner_feed_access(text, text, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Takedown reports (XARF v4)
-- ---------------------------------------------------------------------------------------------
create table public.takedown_reports (
  id uuid primary key default gen_random_uuid(),
  feed_item_id bigint not null unique references private.feed_items (id) on delete cascade,
  url text not null check (char_length(url) <= 2100),
  host text not null check (char_length(host) <= 253),
  target_brand text,
  xarf jsonb not null,
  status text not null default 'draft' check (status in ('draft', 'approved', 'sent', 'dismissed')),
  abuse_contact text check (abuse_contact ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' and char_length(abuse_contact) <= 254),
  created_at timestamptz not null default now(),
  reviewed_by uuid references auth.users (id) on delete set null,
  reviewed_at timestamptz,
  sent_at timestamptz,
  send_error text
);
comment on table public.takedown_reports is
  'XARF v4 phishing reports drafted by the open-data job for each newly listed phishing link, for the hosting provider''s or registrar''s abuse desk. Admins read them and approve (with the abuse contact) or dismiss them; approved ones are sent only when private.feed_settings takedown_sending is on.';
create index takedown_reports_status_idx on public.takedown_reports (status, created_at desc);
create index takedown_reports_reviewed_by_idx on public.takedown_reports (reviewed_by);
alter table public.takedown_reports enable row level security;
revoke all on public.takedown_reports from anon, authenticated;
grant select on public.takedown_reports to authenticated;
grant all on public.takedown_reports to service_role;
create policy "Admins read takedown reports" on public.takedown_reports
  for select to authenticated
  using ((select private.is_admin()));

/** Stores drafted XARF reports (reports: [{feed_item_id, url, host, target_brand, xarf}]). Service role only. */
create function public.takedown_add(reports jsonb)
returns integer
language sql
volatile
security definer
set search_path = ''
as $$
  with added as (
    insert into public.takedown_reports (feed_item_id, url, host, target_brand, xarf)
    select x.feed_item_id, x.url, x.host, x.target_brand, x.xarf
    from jsonb_to_recordset(takedown_add.reports)
      as x(feed_item_id bigint, url text, host text, target_brand text, xarf jsonb)
    on conflict (feed_item_id) do nothing
    returning 1)
  select count(*)::int from added
$$;
revoke execute on function public.takedown_add(jsonb) from public, anon, authenticated;
grant execute on function public.takedown_add(jsonb) to service_role;

/**
 * Admins: approves a drafted takedown report for sending to abuse_contact (decision 'approve'), or
 * dismisses it ('dismiss'). A sent report cannot be changed. Returns the report.
 */
create function public.review_takedown_report(report_id uuid, decision text, abuse_contact text default null)
returns public.takedown_reports
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_row public.takedown_reports;
  v_contact text := nullif(lower(btrim(coalesce(review_takedown_report.abuse_contact, ''))), '');
begin
  if not coalesce(private.is_admin(), false) then
    raise exception 'Only admins can review takedown reports' using errcode = '42501';
  end if;
  if review_takedown_report.decision is null or review_takedown_report.decision not in ('approve', 'dismiss') then
    raise exception 'The decision is approve or dismiss' using errcode = '22023';
  end if;
  select * into v_row from public.takedown_reports t where t.id = review_takedown_report.report_id for update;
  if v_row.id is null then
    raise sqlstate 'PT404' using message = 'No such takedown report';
  end if;
  if v_row.status = 'sent' then
    raise exception 'This report has already been sent' using errcode = '22023';
  end if;
  if review_takedown_report.decision = 'approve' then
    if v_contact is null or v_contact !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' or char_length(v_contact) > 254 then
      raise exception 'Give the abuse contact''s e-mail address' using errcode = '22023';
    end if;
    update public.takedown_reports t
    set status = 'approved', abuse_contact = v_contact, reviewed_by = (select auth.uid()), reviewed_at = now(),
        send_error = null
    where t.id = v_row.id returning * into v_row;
  else
    update public.takedown_reports t
    set status = 'dismissed', reviewed_by = (select auth.uid()), reviewed_at = now()
    where t.id = v_row.id returning * into v_row;
  end if;
  return v_row;
end
$$;
comment on function public.review_takedown_report(uuid, text, text) is
  'Admins: approves a takedown report for its abuse contact or dismisses it.';
revoke execute on function public.review_takedown_report(uuid, text, text) from public, anon;
grant execute on function public.review_takedown_report(uuid, text, text) to authenticated, service_role;

/**
 * The open-data job's outbox: {sending: bool, reporter_contact, reports: [approved, unsent reports]}
 * (reports is empty while sending is off). Service role only.
 */
create function public.takedown_outbox(max_reports integer default 50)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'sending', coalesce((select s.value = 'on' from private.feed_settings s where s.name = 'takedown_sending'), false),
    'reporter_contact', (select s.value from private.feed_settings s where s.name = 'takedown_reporter_contact'),
    'reports', case when coalesce((select s.value = 'on' from private.feed_settings s where s.name = 'takedown_sending'), false)
      then coalesce((select jsonb_agg(jsonb_build_object('id', t.id, 'url', t.url, 'abuse_contact', t.abuse_contact,
                                                        'xarf', t.xarf) order by t.reviewed_at)
                     from (select * from public.takedown_reports t
                           where t.status = 'approved' order by t.reviewed_at limit takedown_outbox.max_reports) t), '[]'::jsonb)
      else '[]'::jsonb end)
$$;
revoke execute on function public.takedown_outbox(integer) from public, anon, authenticated;
grant execute on function public.takedown_outbox(integer) to service_role;

/** Marks a takedown report sent (error null) or records why sending failed. Service role only. */
create function public.takedown_mark(report_id uuid, error text default null)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  update public.takedown_reports t
  set status = case when takedown_mark.error is null then 'sent' else t.status end,
      sent_at = case when takedown_mark.error is null then now() else t.sent_at end,
      send_error = left(takedown_mark.error, 500)
  where t.id = takedown_mark.report_id and t.status = 'approved'
$$;
revoke execute on function public.takedown_mark(uuid, text) from public, anon, authenticated;
grant execute on function public.takedown_mark(uuid, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Buckets
-- ---------------------------------------------------------------------------------------------
-- feeds: public (TLP:CLEAR), read by its public URL, written by the service role only (no policy).
-- feeds-partner: private (TLP:AMBER), read and written by the service role only; partners download
-- through the api function, which checks the key and logs the download.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('feeds', 'feeds', true, 50000000, array['text/csv', 'application/json', 'text/plain']),
       ('feeds-partner', 'feeds-partner', false, 50000000, array['text/csv', 'application/json', 'text/plain'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;
