/**
 * Security gates over the whole schema, so a future migration cannot quietly open a hole:
 * RLS on every exposed table, no SECURITY DEFINER function callable by anon unless allow-listed,
 * views as security invoker, and the checks of Supabase's database linter (splinter) that we rely on,
 * reimplemented here: none may report a finding at level ERROR, nor the WARN-level ones we keep clean.
 */
import { describe, expect, it } from 'vitest';
import { adminPool } from '../helpers.ts';

/** The schemas PostgREST exposes (supabase/config.toml [api].schemas). */
const EXPOSED = ['public', 'graphql_public'];
/** SECURITY DEFINER functions anonymous visitors may call, and why. */
const ANON_DEFINER_ALLOW_LIST = [
  'public.check_identifiers(identifiers jsonb, visitor jsonb)' /* a message's identifiers at once (issue 13) */,
  'public.confirm_removal_request(request_id uuid, token text)' /* the e-mailed confirmation link; needs the token */,
  'public.owner_statements_for(canonicals text[])' /* live, unhidden owner statements, never their author (issue 32) */,
  'public.owner_statements_in_ranges(prefixes text[])' /* the same, by hash prefix for the private message check (issue 32) */,
  'public.moderation_statistics()' /* published moderation figures from the rollup, small counts hidden (issue 31) */,
  'public.public_statistics(period text)' /* aggregates only, small counts hidden (issue 14) */,
  'public.search_reports(search_string text)' /* the public search */,
  'public.search_top_identifier(ref uuid)' /* the search of a masked most-reported identifier, by its handle */,
];
/** SECURITY DEFINER functions signed-in users may call; each checks the caller itself. */
const AUTHENTICATED_DEFINER_ALLOW_LIST = [
  'public.admin_search_log(search text, kind text, country_code text, no_results boolean, since timestamp with time zone, until timestamp with time zone, before_created_at timestamp with time zone, before_id uuid, max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.admin_visitor_log(search text, place text, country_code text, since timestamp with time zone, until timestamp with time zone, before_created_at timestamp with time zone, before_id uuid, max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.decide_ownership_evidence(evidence_id uuid, approve boolean, reason text)' /* admins only, never on their own evidence, checked inside (issue 32) */,
  'public.start_social_proof(value text)' /* the signed-in caller's own proof only (issue 32) */,
  'public.submit_ownership_evidence(proof_id uuid, profile_url text, image_path text, note text)' /* the proof's owner only, checked inside (issue 32) */,
  'public.admin_app_stats()',
  'public.admin_contact_message_extras(message_ids uuid[])' /* admins only, checked inside (issue 31) */,
  'public.admin_moderation_log(before_id bigint, report uuid, max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.admin_removal_decisions(max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.admin_removal_queue()' /* admins only, checked inside (issue 27) */,
  'public.admin_set_suspension(user_id uuid, suspend boolean, reason text, days integer)' /* admins only, checked inside (issue 31) */,
  'public.admin_suspension_log(for_user uuid, max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.answer_removal_request(request_id uuid, answer text)' /* the reporter of the request's report only, checked inside (issue 31) */,
  'public.admin_users(search text, role text, suspended boolean, min_reports integer, before_created_at timestamp with time zone, before_id uuid, max_rows integer)' /* admins only, checked inside (issue 31) */,
  'public.admin_reply_contact_message(message_id uuid, body text)' /* admins only, checked inside (issue 31) */,
  'public.admin_review_queue(search text, incident_type incident_type, account_type reported_account_type, min_age_days integer, has_evidence boolean, region text, sort text, max_groups integer)' /* admins only, checked inside (issue 31) */,
  'public.check_identifiers(identifiers jsonb, visitor jsonb)',
  'public.claim_phone_ownership(kind text, value text)' /* the caller's own Auth-confirmed phone (issue 32) */,
  'public.confirm_removal_request(request_id uuid, token text)',
  'public.create_api_key(name text)' /* makes the caller's own key (issue 14) */,
  'public.hide_owner_statement(statement_id uuid, reason text)' /* admins only, checked inside (issue 32) */,
  'public.owner_request_removal(report_id uuid, reason text)' /* needs the caller's live proof (issue 32) */,
  'public.owned_identifier_reports(identifier text)' /* needs the caller's live proof; never the reporter (issue 32) */,
  'public.owner_statements_for(canonicals text[])',
  'public.owner_statements_in_ranges(prefixes text[])',
  'public.decide_removal_request(request_id uuid, decision text, reason text, note text)' /* admins only, checked inside (issues 27, 31) */,
  'public.moderate_reports(report_ids uuid[], status report_status, reason text, note text)' /* admins only, checked inside (issue 31) */,
  'public.moderation_statistics()',
  'public.my_report_removal_requests()' /* the caller's own reports only, no contact address (issue 31) */,
  'public.public_statistics(period text)',
  'public.report_details(report_id uuid)',
  'public.report_signals(report_ids uuid[])' /* admins only, checked inside (issue 27) */,
  'public.review_takedown_report(report_id uuid, decision text, abuse_contact text)' /* admins only, checked inside (issue 34) */,
  'public.revoke_api_key(key_id uuid)' /* the owner's or, for admins, any key */,
  'public.search_reports(search_string text)',
  'public.search_top_identifier(ref uuid)',
  'public.set_api_key_partner(key_id uuid, organisation text)' /* admins only, checked inside (issue 34) */,
  'public.set_owner_statement(identifier text, body text)' /* needs the caller's live proof (issue 32) */,
  'public.set_report_status(report_id uuid, status report_status)',
  'public.start_ownership_proof(kind text, value text, method ownership_method)' /* the caller's own proof (issue 32) */,
  'public.unhide_owner_statement(statement_id uuid)' /* admins only, checked inside (issue 32) */,
  'public.undo_moderation(log_id bigint)' /* admins only, checked inside (issue 31) */,
  'public.user_report_stats()',
  'public.verify_ownership_code(proof_id uuid, code text)' /* the caller's own proof (issue 32) */,
  'public.watch_owned_identifier(identifier text)' /* needs the caller's live proof (issue 32) */,
  'public.withdraw_ownership_proof(proof_id uuid)' /* the caller's own proof (issue 32) */,
];

async function q<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await adminPool().query(sql, params)).rows as T[];
}

describe('schema gates', () => {
  it('every table in an exposed schema has row-level security enabled (splinter 0013, 0023 ERROR)', async () => {
    const rows = await q(
      `select n.nspname || '.' || c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname = any($1) and not c.relrowsecurity`,
      [EXPOSED],
    );
    expect(rows).toEqual([]);
  });

  it("the private schema's tables have RLS too and the API roles hold no privileges on them", async () => {
    const rows = await q(
      `select c.relname, c.relrowsecurity,
              has_table_privilege('anon', c.oid, 'select') or has_table_privilege('authenticated', c.oid, 'select') as readable
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'private' and c.relkind = 'r'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ relrowsecurity: true, readable: false });
  });

  it('no table has policies while RLS is off (splinter 0007 ERROR)', async () => {
    const rows = await q(
      `select distinct c.relname from pg_policy p join pg_class c on c.oid = p.polrelid
       join pg_namespace n on n.oid = c.relnamespace
       where not c.relrowsecurity and n.nspname not in ('auth', 'storage', 'extensions', 'pg_catalog')`,
    );
    expect(rows).toEqual([]);
  });

  it('only allow-listed SECURITY DEFINER functions in exposed schemas are executable by anon (splinter 0028)', async () => {
    const rows = await q<{ f: string }>(
      `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as f
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.prosecdef and n.nspname = any($1) and has_function_privilege('anon', p.oid, 'execute') order by 1`,
      [EXPOSED],
    );
    expect(rows.map((r) => r.f).sort()).toEqual([...ANON_DEFINER_ALLOW_LIST].sort());
  });

  it('only allow-listed SECURITY DEFINER functions in exposed schemas are executable by authenticated (splinter 0029)', async () => {
    const rows = await q<{ f: string }>(
      `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as f
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.prosecdef and n.nspname = any($1) and has_function_privilege('authenticated', p.oid, 'execute') order by 1`,
      [EXPOSED],
    );
    expect(rows.map((r) => r.f).sort()).toEqual([...AUTHENTICATED_DEFINER_ALLOW_LIST].sort());
  });

  it("the entry points that take a location are the service role's only: no API caller can claim one", async () => {
    const rows = await q<{ f: string; anon: boolean; authenticated: boolean; service_role: boolean }>(
      `select p.oid::regprocedure::text as f, has_function_privilege('anon', p.oid, 'execute') as anon,
              has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
              has_function_privilege('service_role', p.oid, 'execute') as service_role
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname in ('search_reports_located', 'record_visits') order by 1`,
    );
    expect(rows).toEqual([
      { f: 'record_visits(text[],uuid,jsonb,inet)', anon: false, authenticated: false, service_role: true },
      {
        f: 'search_reports_located(text,uuid,jsonb,inet)',
        anon: false,
        authenticated: false,
        service_role: true,
      },
    ]);
  });

  it('the operator functions (grant/revoke admin, rebuild rollups) are not executable by any API role', async () => {
    const rows = await q(
      `select p.proname, r.rolname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       cross join (values ('anon'), ('authenticated')) r(rolname)
       where n.nspname = 'private' and p.proname in ('grant_admin', 'revoke_admin', 'rebuild_rollups', 'bump_site_counter')
         and has_function_privilege(r.rolname, p.oid, 'execute')`,
    );
    expect(rows).toEqual([]);
  });

  it('views in exposed schemas are security_invoker (splinter 0010 ERROR) and none exposes auth.users (0002 ERROR)', async () => {
    const views = await q<{ v: string; invoker: boolean; uses_auth_users: boolean }>(
      `select n.nspname || '.' || c.relname as v,
              coalesce(lower(c.reloptions::text)::text[] && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1', 'security_invoker=yes'], false) as invoker,
              exists (select 1 from pg_depend d join pg_rewrite rw on rw.oid = d.objid
                      where rw.ev_class = c.oid and d.refobjid = 'auth.users'::regclass) as uses_auth_users
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('v', 'm') and n.nspname = any($1)`,
      [EXPOSED],
    );
    expect(views.length).toBeGreaterThan(0);
    for (const v of views) expect(v).toMatchObject({ invoker: true, uses_auth_users: false });
  });

  it('no policy trusts user_metadata (splinter 0015 ERROR)', async () => {
    const rows = await q(
      `select policyname from pg_policies
       where coalesce(qual, '') || coalesce(with_check, '') ~ 'user_metadata|raw_user_meta_data'`,
    );
    expect(rows).toEqual([]);
  });

  it('no foreign key points at a non-primary unique constraint of auth (splinter 0021 ERROR)', async () => {
    const rows = await q(
      `select c.conname from pg_constraint c join pg_class r on r.oid = c.confrelid join pg_namespace n on n.oid = r.relnamespace
       join pg_index i on i.indexrelid = c.conindid
       where c.contype = 'f' and n.nspname = 'auth' and i.indisunique and not i.indisprimary`,
    );
    expect(rows).toEqual([]);
  });

  it('policies call auth functions once per statement, as (select auth.uid()) (splinter 0003)', async () => {
    const rows = await q<{ policyname: string; expr: string }>(
      `select policyname, coalesce(qual, '') || ' ' || coalesce(with_check, '') as expr from pg_policies
       where schemaname in ('public', 'storage')`,
    );
    expect(rows.length).toBeGreaterThan(20);
    const offenders = rows.filter((r) => {
      const calls =
        r.expr.match(/auth\.(uid|jwt|role|email)\(\)|current_setting\(|private\.is_admin\(\)/g) ?? [];
      const wrapped =
        r.expr.match(/SELECT (auth\.(uid|jwt|role|email)\(\)|current_setting\(|private\.is_admin\(\))/gi) ??
        [];
      return calls.length !== wrapped.length;
    });
    expect(offenders.map((o) => o.policyname)).toEqual([]);
  });

  it('no table has two permissive policies for the same role and action (splinter 0006)', async () => {
    const rows = await q(
      `select tablename, cmd, r.role, count(*)::int as n from pg_policies p cross join unnest(p.roles) as r(role)
       where schemaname = 'public' and permissive = 'PERMISSIVE'
       group by 1, 2, 3 having count(*) > 1`,
    );
    expect(rows).toEqual([]);
  });

  it('every function we define pins its search_path (splinter 0011)', async () => {
    const rows = await q(
      `select n.nspname || '.' || p.proname as f from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       left join pg_depend d on d.objid = p.oid and d.deptype = 'e'
       where n.nspname in ('public', 'private') and d.objid is null
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
    );
    expect(rows).toEqual([]);
  });

  it('every foreign key is covered by an index (splinter 0001)', async () => {
    const rows = await q(
      `select c.conrelid::regclass::text as t, c.conname from pg_constraint c join pg_namespace n on n.oid = c.connamespace
       where c.contype = 'f' and n.nspname in ('public', 'private')
         and not exists (select 1 from pg_index i where i.indrelid = c.conrelid
                         and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] = c.conkey)`,
    );
    expect(rows).toEqual([]);
  });

  it('every table has a primary key (splinter 0004) and a comment', async () => {
    const rows = await q(
      `select c.relname, exists (select 1 from pg_index i where i.indrelid = c.oid and i.indisprimary) as pk,
              obj_description(c.oid, 'pg_class') is not null as commented
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname in ('public', 'private')`,
    );
    for (const r of rows) expect(r).toMatchObject({ pk: true, commented: true });
  });

  it('every function, view and type of ours carries a comment for the dashboard', async () => {
    const rows = await q(
      `select 'function ' || n.nspname || '.' || p.proname as o from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and obj_description(p.oid, 'pg_proc') is null
       union all
       select 'view ' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'v' and obj_description(c.oid, 'pg_class') is null
       union all
       select 'type ' || t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
       where n.nspname = 'public' and t.typtype = 'e' and obj_description(t.oid, 'pg_type') is null`,
    );
    expect(rows).toEqual([]);
  });

  it("anon holds exactly the table privileges it needs and nothing from Supabase's default grants", async () => {
    const rows = await q<{ t: string; p: string }>(
      `select table_name as t, string_agg(privilege_type, ',' order by privilege_type) as p
       from information_schema.role_table_grants where grantee = 'anon' and table_schema = 'public' group by 1 order by 1`,
    );
    // brands and check_domain_lists: the public reference lists of the /check page (issue 13);
    // after_scam_steps: the "what to do now" checklist on public results pages (issue 33).
    expect(rows).toEqual([
      { t: 'after_scam_steps', p: 'SELECT' },
      { t: 'brands', p: 'SELECT' },
      { t: 'check_domain_lists', p: 'SELECT' },
      { t: 'news', p: 'SELECT' },
    ]);
    const cols = await q<{ t: string; p: string }>(
      `select table_name as t, privilege_type || '(' || string_agg(column_name, ',' order by column_name) || ')' as p
       from information_schema.column_privileges where grantee = 'anon' and table_schema = 'public'
         and table_name not in ('after_scam_steps', 'brands', 'check_domain_lists', 'news') group by table_name, privilege_type order by 1, 2`,
    );
    expect(cols).toEqual([{ t: 'contact_messages', p: 'INSERT(email,message,nickname,subject)' }]);
  });

  it('no public bucket has a broad SELECT policy that lets anyone list its files (splinter 0025)', async () => {
    const rows = await q(
      `select p.policyname from pg_policies p join storage.buckets b on b.public
       where p.schemaname = 'storage' and p.tablename = 'objects' and p.cmd in ('SELECT', 'ALL')
         and (p.qual is null or p.qual ~* ('^\\s*\\(*\\s*bucket_id\\s*=\\s*''' || b.id || '''(::text)?\\s*\\)*\\s*$'))`,
    );
    expect(rows).toEqual([]);
  });

  it('the image buckets are limited to 500000 bytes of images, evidence private, the export bucket holds CSV and JSON, the feeds CSV, JSON and text', async () => {
    const rows = await q(
      `select id, public, file_size_limit::int as file_size_limit, allowed_mime_types from storage.buckets order by id`,
    );
    const images = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
    const feedTypes = ['text/csv', 'application/json', 'text/plain'];
    expect(rows).toEqual([
      { id: 'avatars', public: true, file_size_limit: 500000, allowed_mime_types: images },
      { id: 'evidence', public: false, file_size_limit: 500000, allowed_mime_types: images },
      // The threat-intelligence feeds (issue 34): TLP:CLEAR public, TLP:AMBER served by the api function to
      // partner keys only; both written by the service role only.
      { id: 'feeds', public: true, file_size_limit: 50000000, allowed_mime_types: feedTypes },
      { id: 'feeds-partner', public: false, file_size_limit: 50000000, allowed_mime_types: feedTypes },
      { id: 'news-banners', public: true, file_size_limit: 500000, allowed_mime_types: images },
      // The daily aggregate export (issue 14): public by design, written by the service role only.
      {
        id: 'open-data',
        public: true,
        file_size_limit: 20000000,
        allowed_mime_types: ['text/csv', 'application/json'],
      },
    ]);
  });
});
