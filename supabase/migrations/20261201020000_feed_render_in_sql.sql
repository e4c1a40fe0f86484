-- Issue 34, speed: the feeds build renders the items' fragments in Postgres, and its cursors last
-- across requests (docs/feeds.md, "How it is built"; docs/performance.md#feeds).
--
-- Before, the open-data job read each batch of 1,500 items, rendered their CSV line, JSON row, MISP
-- attribute and STIX indicator in Deno (_shared/feeds/formats.ts renderItem) and sent them back as one
-- jsonb of about 4 MB (public.feed_render_store): at 115,039 items, 77 requests of which most of the
-- wall time was that jsonb's round trip. And both cursors (classify, render) started again at the
-- first key at every request, so each request's first read walked every item done before it: the
-- reads grew from 0.1 to 9 s per request in one build at 1M reports.
-- Now:
--   * public.feed_render_sql renders the same bytes in one statement per batch of up to 50,000
--     items (no round trip of the fragments, no Deno CPU); supabase/tests/db/feed-render.test.ts
--     holds it to renderItem byte for byte, over every kind and the awkward characters;
--   * the classify cursor is kept in private.feed_build with the build it belongs to
--     (public.feed_classify_store_at stores a batch and moves the cursor in one transaction;
--     public.feed_build_cursor reads it), so a request goes on where the one before stopped.
-- The JavaScript renderer stays the reference: the TAXII endpoints and the tests use it.

alter table private.feed_build
  add column cursor_build timestamptz,
  add column classify_after_kind text,
  add column classify_after_canonical text;
comment on column private.feed_build.cursor_build is
  'The build (its started_at) the classify cursor belongs to: a cursor of another build is not used.';
comment on column private.feed_build.classify_after_kind is
  'The classify step''s cursor: the last identifier (kind, canonical) of the last batch stored in this build.';
comment on column private.feed_build.classify_after_canonical is
  'The classify step''s cursor: see classify_after_kind.';

/** The build's classify cursor: {kind, canonical}, empty strings when this build has none yet. Service role only. */
create function public.feed_build_cursor()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'kind', case when b.cursor_build is not distinct from b.started_at then coalesce(b.classify_after_kind, '') else '' end,
    'canonical', case when b.cursor_build is not distinct from b.started_at then coalesce(b.classify_after_canonical, '') else '' end)
  from private.feed_build b
  where b.id = 1
$$;
comment on function public.feed_build_cursor() is
  'Service role only (the open-data job): where the feeds build''s classify step goes on.';
revoke execute on function public.feed_build_cursor() from public, anon, authenticated;
grant execute on function public.feed_build_cursor() to service_role;

/**
 * public.feed_classify_store, and the build's classify cursor moved to (after_kind, after_canonical),
 * the last identifier of the batch, in the same transaction. Answers how many were stored.
 * Service role only.
 */
create function public.feed_classify_store_at(classes jsonb, rules_key text, after_kind text, after_canonical text)
returns integer
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_count integer;
begin
  if after_kind is null or after_canonical is null then
    raise exception 'after_kind and after_canonical are required' using errcode = '22023', hint = '{"code": "argument_required", "argument": "after_kind, after_canonical"}';
  end if;
  v_count := public.feed_classify_store(feed_classify_store_at.classes, feed_classify_store_at.rules_key);
  update private.feed_build b
  set cursor_build = b.started_at, classify_after_kind = feed_classify_store_at.after_kind,
      classify_after_canonical = feed_classify_store_at.after_canonical, updated_at = now()
  where b.id = 1;
  return v_count;
end
$$;
comment on function public.feed_classify_store_at(jsonb, text, text, text) is
  'Service role only (the open-data job): stores classifications and moves the build''s classify cursor.';
revoke execute on function public.feed_classify_store_at(jsonb, text, text, text) from public, anon, authenticated;
grant execute on function public.feed_classify_store_at(jsonb, text, text, text) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The fragments in SQL, as _shared/feeds/formats.ts renders them
-- ---------------------------------------------------------------------------------------------
-- Written out inline rather than as helper functions: every function here pins its search_path,
-- which stops PostgreSQL inlining it, and a call per field (13 CSV fields, a dozen JSON strings, for
-- each of 100,000 items) cost more than the rendering. JSON strings are to_json(text)::text, which
-- escapes exactly what JSON.stringify escapes; CSV fields are csvField's quoting; links are
-- encodeURIComponent (ASCII letters, digits and -_.!~*'() kept, every other UTF-8 byte as %XX).

/**
 * Renders the next feed items that need it for format_key (no fragment yet, or one of an older
 * version or format; withdrawn items included, as public.feed_render_after lists them), at most
 * max_items with an id over after_id, in id order, into private.feed_renders: the CSV line, JSON
 * row, MISP attribute and STIX indicator that formats.ts renderItem makes for site (the address the
 * links start with), byte for byte. Answers how many it rendered and the last id (0 when none).
 * Service role only.
 */
create function public.feed_render_sql(
  format_key text, site text, max_items integer default 25000, after_id bigint default 0)
returns table (rendered integer, last_id bigint)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_rendered integer;
  v_last bigint;
begin
  if coalesce(feed_render_sql.format_key, '') = '' or coalesce(feed_render_sql.site, '') = '' then
    raise exception 'format_key and site are required' using errcode = '22023', hint = '{"code": "argument_required", "argument": "format_key, site"}';
  end if;
  -- Materialized: each rendered piece (the link, the summary, the JSON strings) is worked out once
  -- per item, not once per place a fragment uses it.
  with todo as materialized (
    select f.id, f.tlp, f.indicator_type as typ, f.value, f.canonical, f.reporters, f.scam_type,
           coalesce(f.brand, '') as brand, f.stix_id::text as stix_id, f.version_at,
           f.withdrawn_at is not null as revoked,
           to_char(f.first_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as fr,
           to_char(f.last_reported at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as lr,
           to_char(f.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as added,
           to_char(f.version_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ver,
           -- A link's query and fragment are cut (formats.ts safeWritten).
           case when f.indicator_type in ('url', 'domain', 'ip') then regexp_replace(f.written, '[?#].*$', '')
                else f.written end as written,
           -- detailLink: the site's search page of the canonical value, encodeURIComponent'd.
           feed_render_sql.site || '/search/'
           || case when f.canonical ~ '^[A-Za-z0-9_.!~*''()-]*$' then f.canonical
                   else (select coalesce(string_agg(
                                  case when u.c ~ '^[A-Za-z0-9_.!~*''()-]$' then u.c
                                       else upper(regexp_replace(encode(convert_to(u.c, 'UTF8'), 'hex'), '(..)', '%\1', 'g')) end,
                                  '' order by u.n), '')
                         from regexp_split_to_table(f.canonical, '') with ordinality as u(c, n)) end as link,
           -- formats.ts KIND_WORDS.
           coalesce(case f.indicator_type
                      when 'url' then 'Scam link' when 'domain' then 'Scam domain'
                      when 'ip' then 'Scam server address' when 'email' then 'Scam e-mail address'
                      when 'phone' then 'Scam mobile number' when 'ewallet' then 'E-wallet account used in scams'
                      when 'crypto' then 'Cryptocurrency address used in scams'
                      when 'account' then 'Account used in scams' end,
                    'Identifier used in scams') as words,
           -- formats.ts mispType: category, type and to_ids as JSON.
           case f.indicator_type
             when 'url' then '"category":"Network activity","type":"url","to_ids":true'
             when 'domain' then '"category":"Network activity","type":"domain","to_ids":true'
             when 'ip' then '"category":"Network activity","type":"ip-dst","to_ids":true'
             when 'email' then '"category":"Payload delivery","type":"email-src","to_ids":true'
             when 'phone' then '"category":"Financial fraud","type":"phone-number","to_ids":true'
             when 'ewallet' then case when f.value ~ '^\+[0-9]{6,15}$'
                                      then '"category":"Financial fraud","type":"phone-number","to_ids":true'
                                      else '"category":"Financial fraud","type":"bank-account-nr","to_ids":true' end
             when 'crypto' then case when f.value ~ '^(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc|tb)1[02-9ac-hj-np-z]{6,87})$'
                                     then '"category":"Financial fraud","type":"btc","to_ids":true'
                                     else '"category":"Financial fraud","type":"text","to_ids":false' end
             else '"category":"Social network","type":"text","to_ids":false' end as misp_type,
           -- formats.ts stixPattern.
           case f.indicator_type
             when 'url' then '[url:value = ' || '''' || replace(replace(f.value, '\', '\\'), '''', '\''') || '''' || ']'
             when 'domain' then '[domain-name:value = ' || '''' || replace(replace(f.value, '\', '\\'), '''', '\''') || '''' || ']'
             when 'ip' then '[ipv4-addr:value = ' || '''' || replace(replace(f.value, '\', '\\'), '''', '\''') || '''' || ']'
             when 'email' then '[email-addr:value = ' || '''' || replace(replace(f.value, '\', '\\'), '''', '\''') || '''' || ']'
             else '[scamcheck-identifier:kind = ' || '''' || replace(replace(f.indicator_type, '\', '\\'), '''', '\''') || ''''
                  || ' AND scamcheck-identifier:value = ' || '''' || replace(replace(f.value, '\', '\\'), '''', '\''') || '''' || ']' end as pattern
    from private.feed_items f
    left join private.feed_renders r on r.item_id = f.id
    where f.id > coalesce(feed_render_sql.after_id, 0)
      and (r.item_id is null or r.version_at <> f.version_at or r.format_key <> feed_render_sql.format_key)
    order by f.id
    limit least(greatest(coalesce(feed_render_sql.max_items, 25000), 1), 50000)),
  t as materialized (
    select d.*,
           -- formats.ts summary.
           d.words || ' (' || d.scam_type || '), verified by ScamCheck: reported by '
           || case when d.reporters = 1 then '1 person' else d.reporters || ' people' end
           || ' from ' || left(d.fr, 10) || ' to ' || left(d.lr, 10) || '.'
           || case when d.brand <> '' then ' Imitates ' || d.brand || '.' else '' end || ' ' || d.link as summary,
           -- URLhaus's time form (formats.ts plainTime).
           replace(left(d.added, 19), 'T', ' ') as added_plain,
           replace(left(d.fr, 19), 'T', ' ') as fr_plain,
           replace(left(d.lr, 19), 'T', ' ') as lr_plain,
           to_json(d.value)::text as j_value,
           to_json(d.scam_type)::text as j_scam_type,
           to_json(d.link)::text as j_link
    from todo d),
  j as materialized (
    select t.*, to_json(t.summary)::text as j_summary from t),
  stored as (
    insert into private.feed_renders as r (item_id, version_at, format_key, csv, json, misp, stix)
    select t.id, t.version_at, feed_render_sql.format_key,
           -- CSV: every field quoted; only the free-text fields can hold quotes or line breaks.
           concat_ws(',', '"' || t.id || '"', '"' || t.added_plain || '"', '"' || t.typ || '"',
                     '"' || case when strpos(t.value, '"') + strpos(t.value, E'\r') + strpos(t.value, E'\n') = 0 then t.value
                              else replace(regexp_replace(t.value, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"',
                     '"' || case when strpos(t.canonical, '"') + strpos(t.canonical, E'\r') + strpos(t.canonical, E'\n') = 0 then t.canonical
                              else replace(regexp_replace(t.canonical, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"',
                     '"' || case when strpos(t.written, '"') + strpos(t.written, E'\r') + strpos(t.written, E'\n') = 0 then t.written
                              else replace(regexp_replace(t.written, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"',
                     '"verified"', '"' || t.fr_plain || '"', '"' || t.lr_plain || '"', '"' || t.reporters || '"',
                     '"' || case when strpos(t.scam_type, '"') + strpos(t.scam_type, E'\r') + strpos(t.scam_type, E'\n') = 0 then t.scam_type
                              else replace(regexp_replace(t.scam_type, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"',
                     '"' || case when strpos(t.brand, '"') + strpos(t.brand, E'\r') + strpos(t.brand, E'\n') = 0 then t.brand
                              else replace(regexp_replace(t.brand, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"',
                     '"' || case when strpos(t.link, '"') + strpos(t.link, E'\r') + strpos(t.link, E'\n') = 0 then t.link
                              else replace(regexp_replace(t.link, E'[\r\n]+', ' ', 'g'), '"', '""') end || '"'),
           '{"id":' || t.id || ',"date_added":"' || t.added_plain || '","kind":"' || t.typ
           || '","value":' || t.j_value || ',"canonical":' || to_json(t.canonical)::text
           || ',"written":' || to_json(t.written)::text || ',"status":"verified","first_reported":"' || t.fr_plain
           || '","last_reported":"' || t.lr_plain || '","reporters":' || t.reporters
           || ',"scam_type":' || t.j_scam_type || ',"brand":' || to_json(t.brand)::text || ',"link":' || t.j_link || '}',
           '{"uuid":"' || t.stix_id || '","id":"0","event_id":"0",' || t.misp_type || ',"value":' || t.j_value
           || ',"distribution":"5","sharing_group_id":"0","timestamp":"' || floor(extract(epoch from t.version_at))::bigint
           || '","deleted":false,"comment":' || t.j_summary || ',"first_seen":"' || t.fr
           || '","last_seen":"' || t.lr || '"}',
           '{"type":"indicator","spec_version":"2.1","id":"indicator--' || t.stix_id
           || '","created_by_ref":"identity--b7c94689-6000-45bb-9388-7ffde4619346","created":"' || t.added
           || '","modified":"' || t.ver || '","name":' || to_json(t.words || ': ' || t.value)::text
           || ',"description":' || t.j_summary
           || ',"indicator_types":["malicious-activity"],"pattern":' || to_json(t.pattern)::text
           || ',"pattern_type":"stix","pattern_version":"2.1","valid_from":"' || t.fr
           || '","labels":[' || t.j_scam_type
           || case when t.brand <> '' then ',' || to_json('imitates:' || t.brand)::text else '' end || ']'
           || case when t.revoked then ',"revoked":true' else '' end
           || ',"external_references":[{"source_name":"ScamCheck","url":' || t.j_link
           || ',"external_id":"' || t.id || '"}],"object_marking_refs":["'
           || case t.tlp when 'clear' then 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487'
                         else 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421' end || '"]}'
    from j t
    on conflict (item_id) do update
      set version_at = excluded.version_at, format_key = excluded.format_key, csv = excluded.csv,
          json = excluded.json, misp = excluded.misp, stix = excluded.stix
    returning r.item_id)
  select count(*)::int, coalesce(max(stored.item_id), 0) into v_rendered, v_last from stored;
  return query select v_rendered, v_last;
end
$$;
comment on function public.feed_render_sql(text, text, integer, bigint) is
  'Service role only (the open-data job): renders the next feed items'' fragments in Postgres, as formats.ts renderItem does.';
revoke execute on function public.feed_render_sql(text, text, integer, bigint) from public, anon, authenticated;
grant execute on function public.feed_render_sql(text, text, integer, bigint) to service_role;
