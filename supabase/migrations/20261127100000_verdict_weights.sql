-- Issue 27, "risk that money cannot buy". Ten free mailboxes from two client addresses took a
-- never-reported number from risk 0 to 63 "high" with ten pending reports. Now (docs/behaviour.md §10):
--   * a verdict of "high" needs at least one verified report: without one, risk stays below 60;
--   * pending reports weigh by the network they came from, not by account: reporters who filed from,
--     or signed up from, one IPv4 /24 or IPv6 /64 count as one (the networks are kept only as keyed
--     hashes, private.network_key);
--   * a pending report weighs 0.05, not 0.2, when its account was younger than young_account_days or had
--     no verified report of its own when it was filed (a "young" account);
--   * every answer says how many of the reports are verified and, when none is, says so in words.
-- private.identifier_verdict is the one formula; search_reports, check_identifiers and the range lookup
-- call it.

insert into private.rate_limit_settings (name, value) values
  ('young_account_days', '30'),
  ('pending_weight', '0.2'),
  ('young_pending_weight', '0.05')
on conflict (name) do nothing;

/** 'net:' and a keyed hash of an address's network (an IPv4 /24, an IPv6 /64), or null for null. */
create function private.network_key(addr inet)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key text;
begin
  if addr is null then
    return null;
  end if;
  select 'net:' || left(encode(sha256(convert_to(
           s.value || 'net|' || host(network(set_masklen(addr, case when family(addr) = 6 then 64 else 24 end))),
           'UTF8')), 'hex'), 32)
    into v_key
    from private.rate_limit_settings s
    where s.name = 'address_salt';
  return v_key;
end
$$;
comment on function private.network_key(inet) is
  'Keyed hash (''net:<hex>'') of the network of an address: its IPv4 /24 or IPv6 /64; null for null.';
revoke execute on function private.network_key(inet) from public, anon, authenticated;

-- Where each report came from, for the verdict only: never shown to anyone but admins' signals.
create table private.report_provenance (
  report_id uuid not null primary key references public.reports (id) on delete cascade,
  filed_network text check (filed_network ~ '^net:[0-9a-f]{32}$'),
  signup_network text check (signup_network ~ '^net:[0-9a-f]{32}$'),
  established boolean not null default false,
  created_at timestamptz not null default now()
);
comment on table private.report_provenance is
  'Per report: keyed hashes of the networks (/24, /64) its reporter filed from and signed up from, and whether the account was established (old enough and with a verified report of its own) when it filed. Feeds private.identifier_verdict.';
comment on column private.report_provenance.established is
  'At filing: the account was at least young_account_days old and had a verified report. Young accounts'' pending reports weigh young_pending_weight.';
alter table private.report_provenance enable row level security;
create index report_provenance_filed_network_idx on private.report_provenance (filed_network);
create index report_provenance_signup_network_idx on private.report_provenance (signup_network);

/**
 * The network an account signed up from: the address of its first session (recorded by Auth, hosted
 * GoTrue and the local stack alike, from the trusted client header), as a keyed hash; null when Auth
 * recorded none or the table cannot be read.
 */
create function private.signup_network(user_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_ip inet;
begin
  if user_id is null then
    return null;
  end if;
  begin
    select s.ip::inet into v_ip from auth.sessions s
    where s.user_id = signup_network.user_id and s.ip is not null
    order by s.created_at
    limit 1;
  exception when insufficient_privilege or undefined_column or undefined_table then
    return null;
  end;
  if v_ip is null or private.is_non_public_address(v_ip) then
    return null;
  end if;
  return private.network_key(v_ip);
end
$$;
comment on function private.signup_network(uuid) is
  'Keyed hash of the network of the address an account''s first session came from, or null.';
revoke execute on function private.signup_network(uuid) from public, anon, authenticated;

/** After insert of a report: records where it came from (private.report_provenance). */
create function private.reports_record_provenance()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_days integer;
  v_established boolean := false;
begin
  select coalesce(max(value::int), 30) into v_days from private.rate_limit_settings where name = 'young_account_days';
  if new.reporter_id is not null then
    select u.created_at <= now() - make_interval(days => v_days)
           and exists (select 1 from public.reports r
                       where r.reporter_id = new.reporter_id and r.status = 'verified' and r.id <> new.id)
      into v_established
      from auth.users u where u.id = new.reporter_id;
  end if;
  insert into private.report_provenance (report_id, filed_network, signup_network, established)
  values (new.id, private.network_key(private.client_address()), private.signup_network(new.reporter_id),
          coalesce(v_established, false))
  on conflict (report_id) do nothing;
  return null;
end
$$;
comment on function private.reports_record_provenance() is
  'Trigger: records the filing and sign-up networks (keyed hashes) and whether the reporter was established, for the verdict.';
revoke execute on function private.reports_record_provenance() from public, anon, authenticated;
create trigger reports_record_provenance after insert on public.reports
  for each row execute function private.reports_record_provenance();

/**
 * The verdict on a canonical identifier (docs/behaviour.md §10):
 *   decay(r)  = 0.5 ^ (age in days / 180)
 *   V         = sum over distinct reporters of their strongest verified report's decay (weight 1)
 *   pending   = each pending report of a reporter without a verified report on it weighs
 *               pending_weight (0.2) * decay, or young_pending_weight (0.05) * decay from a young account;
 *   P         = the smallest of three sums of the strongest pending weight per group, grouping by
 *               reporter, by the network filed from and by the network signed up from (a report
 *               without a known network is a group of its own reporter)
 *   risk      = round(100 * (1 - exp(-(V + P) / 2))), and at most 59 (never "high") without a verified
 *               report; label 'high' from 60, 'medium' from 25, else 'low'.
 * Also the counts of visible verified and pending reports and the verified part's own risk (V alone),
 * which the range lookup answers. One index range on reported_account_canonical.
 */
create function private.identifier_verdict(
  canonical text,
  out verified_count integer,
  out pending_count integer,
  out risk_level integer,
  out risk_label text,
  out verified_risk_level integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_pw float8;
  v_ypw float8;
  v_v float8;
  v_p float8;
begin
  select coalesce(max(value::float8) filter (where name = 'pending_weight'), 0.2),
         coalesce(max(value::float8) filter (where name = 'young_pending_weight'), 0.05)
    into v_pw, v_ypw
    from private.rate_limit_settings where name in ('pending_weight', 'young_pending_weight');
  with vis as (
    select r.id, r.status, coalesce(r.reporter_id::text, r.id::text) as who,
           power(0.5::float8, extract(epoch from (now() - r.created_at))::float8 / (86400.0 * 180.0)) as decay,
           p.filed_network, p.signup_network, coalesce(p.established, false) as established
    from public.reports r
    left join private.report_provenance p on p.report_id = r.id
    where r.reported_account_canonical = identifier_verdict.canonical and r.status in ('pending', 'verified')
  ),
  ver as (
    select v.who, max(v.decay) as w from vis v where v.status = 'verified' group by v.who
  ),
  pend as (
    select v.who, coalesce(v.filed_network, v.who) as filed, coalesce(v.signup_network, v.who) as signup,
           (case when v.established then v_pw else v_ypw end) * v.decay as w
    from vis v
    where v.status = 'pending' and not exists (select 1 from ver where ver.who = v.who)
  )
  select (select count(*) from vis where status = 'verified')::int,
         (select count(*) from vis where status = 'pending')::int,
         (select coalesce(sum(w), 0) from ver),
         least(
           (select coalesce(sum(m), 0) from (select max(w) as m from pend group by who) a),
           (select coalesce(sum(m), 0) from (select max(w) as m from pend group by filed) b),
           (select coalesce(sum(m), 0) from (select max(w) as m from pend group by signup) c))
    into verified_count, pending_count, v_v, v_p;
  risk_level := round(100 * (1 - exp(-(v_v + v_p) / 2)))::int;
  if verified_count = 0 then
    risk_level := least(risk_level, 59);
  end if;
  risk_label := case when risk_level >= 60 then 'high' when risk_level >= 25 then 'medium' else 'low' end;
  verified_risk_level := round(100 * (1 - exp(-v_v / 2)))::int;
end
$$;
comment on function private.identifier_verdict(text) is
  'The verdict on a canonical identifier: verified and pending counts, risk_level 0-100 and label (never high without a verified report; pending reports grouped by reporter, filing network and sign-up network, young accounts weighing less), and the risk of the verified reports alone.';
revoke execute on function private.identifier_verdict(text) from public, anon, authenticated;

/** The risk weight's old entry point, kept for callers outside this migration: V + P as above. */
create or replace function private.identifier_weight(canonical text)
returns float8
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_risk integer;
begin
  select v.risk_level into v_risk from private.identifier_verdict(identifier_weight.canonical) v;
  -- The weight that gives this risk (risk = 100 * (1 - exp(-w / 2))), capped as the verdict is.
  return -2 * ln(greatest(1e-9, 1 - v_risk / 100.0));
end
$$;
comment on function private.identifier_weight(text) is
  'Risk weight of a canonical identifier, derived from private.identifier_verdict (issue 27).';

/** The words shown when a risk rests on unverified reports only, or null. */
create function private.unverified_note(verified_count integer, pending_count integer)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when coalesce(verified_count, 0) = 0 and coalesce(pending_count, 0) > 0 then
    format('Reported %s %s, not yet reviewed', pending_count, case when pending_count = 1 then 'time' else 'times' end)
  end
$$;
comment on function private.unverified_note(integer, integer) is
  'The sentence "Reported N times, not yet reviewed" when every visible report is pending, else null.';
revoke execute on function private.unverified_note(integer, integer) from public, anon, authenticated;

/**
 * The search. Risk from private.identifier_verdict. The summary also says verified_count,
 * pending_count, risk_basis ('verified', 'unverified_only' or 'none') and risk_note (the words for an
 * unverified-only answer, else null). estimated_amount_lost is the sum over verified reports with an
 * amount when there are at least 5 of them, else null; a row's amount_lost is shown only to its
 * own reporter (issue 27: no single report's amount in public figures). Otherwise as
 * 20261124092856_search_reports_unreported.sql.
 */
create or replace function private.search_reports(search_string text, searcher uuid, visitor jsonb)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_kind text;
  v_key text;
  v_signed_in boolean := searcher is not null;
  v_count integer;
  v_verdict record;
  v_amount numeric;
  v_amounts integer;
  v_country text;
  v_reports jsonb;
  v_points jsonb;
begin
  if search_string is null or char_length(btrim(search_string)) = 0 or char_length(search_string) > 256 then
    raise exception 'search_string must be 1 to 256 characters' using errcode = '22023';
  end if;
  v_kind := public.detect_identifier_kind(search_string);
  v_key := public.canonical_identifier(v_kind, search_string);

  select count(*)::int,
         sum(r.amount_lost) filter (where r.status = 'verified'),
         count(r.amount_lost) filter (where r.status = 'verified')::int,
         (array_agg(r.country order by r.created_at desc) filter (where r.country is not null))[1]
  into v_count, v_amount, v_amounts, v_country
  from public.reports r
  where r.reported_account_canonical = v_key and r.status in ('pending', 'verified');

  if v_count = 0 then
    select 0 as verified_count, 0 as pending_count, 0 as risk_level, 'low' as risk_label into v_verdict;
    v_reports := '[]'::jsonb;
    v_points := '[]'::jsonb;
  else
    select * into v_verdict from private.identifier_verdict(v_key);
    select coalesce(jsonb_agg(
             jsonb_build_object(
               'reported_date', l.created_at::date,
               'incident_date', l.incident_date,
               'incident_type', l.incident_type,
               'reported_account_type', l.reported_account_type,
               'location', l.location,
               'status', case when l.status = 'verified' then 'verified' else 'not-verified' end
             ) || case when v_signed_in then jsonb_build_object(
               'id', l.id,
               'reported_account', l.reported_account,
               'country', l.country,
               'incident_description', l.incident_description,
               'amount_lost', case when l.reporter_id = searcher then l.amount_lost end
             ) else '{}'::jsonb end
             order by l.created_at desc), '[]'::jsonb)
    into v_reports
    from (
      select * from public.reports r
      where r.reported_account_canonical = v_key and r.status in ('pending', 'verified')
      order by r.created_at desc
      limit 10
    ) l;

    select coalesce(jsonb_agg(jsonb_build_array(split_part(p.loc, ',', 1)::float8, split_part(p.loc, ',', 2)::float8)), '[]'::jsonb)
    into v_points
    from (
      select r.loc from public.reports r
      where r.reported_account_canonical = v_key and r.status in ('pending', 'verified') and r.loc is not null
      order by r.created_at desc
      limit 1000
    ) p;
  end if;

  insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                 city, region, country, loc, org, postal, ip_hash)
  values (
    left(search_string, 256), v_kind, v_key, v_count, searcher,
    left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
    case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
    left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
    case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
  );
  return jsonb_build_object(
    'count', v_count,
    'reports', v_reports,
    'summary', jsonb_build_object(
      'count', v_count,
      'last_victim_country', v_country,
      'risk_level', v_verdict.risk_level,
      'risk_label', v_verdict.risk_label,
      'estimated_amount_lost', case when v_amounts >= 5 then v_amount end,
      'verified_count', v_verdict.verified_count,
      'pending_count', v_verdict.pending_count,
      'risk_basis', case when v_verdict.verified_count > 0 then 'verified'
                         when v_verdict.pending_count > 0 then 'unverified_only' else 'none' end,
      'risk_note', private.unverified_note(v_verdict.verified_count, v_verdict.pending_count)
    ),
    'points', v_points
  );
end
$$;

/**
 * The identifiers of one message, each with its verdict as the search computes it (issue 27: also
 * verified_count, pending_count and risk_note). Otherwise as 20261123213853_distinct_reporters.sql.
 */
create or replace function public.check_identifiers(identifiers jsonb, visitor jsonb default null)
returns jsonb
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_result jsonb;
  v_key text := private.client_address_key();
  v_uid uuid := (select auth.uid());
begin
  if v_key is not null then
    perform private.rate_limit('check.ip', v_key);
  end if;
  if v_uid is not null then
    perform private.rate_limit('check.user', 'user:' || v_uid);
  end if;
  if identifiers is null or jsonb_typeof(identifiers) <> 'array' or jsonb_array_length(identifiers) > 50 then
    raise exception 'identifiers must be an array of at most 50 {type, value}' using errcode = '22023';
  end if;
  if exists (
    select 1 from jsonb_array_elements(identifiers) e
    where jsonb_typeof(e) <> 'object'
       or coalesce(e ->> 'type', '') not in ('mobile', 'email', 'website', 'ewallet', 'crypto')
       or char_length(btrim(coalesce(e ->> 'value', ''))) not between 1 and 256
  ) then
    raise exception 'each identifier needs a type (mobile, email, website, ewallet or crypto) and a value of 1 to 256 characters'
      using errcode = '22023';
  end if;

  with input as (
    select e.ord, e.v ->> 'type' as kind, e.v ->> 'value' as value,
           public.canonical_identifier(e.v ->> 'type', e.v ->> 'value') as canonical
    from jsonb_array_elements(identifiers) with ordinality as e(v, ord)
  ),
  found as (
    select i.ord, i.kind, i.value, i.canonical, d.verified_count, d.pending_count, d.risk_level, d.risk_label,
           d.verified_count + d.pending_count as n
    from input i
    cross join lateral private.identifier_verdict(i.canonical) d
  ),
  logged as (
    insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, user_id,
                                   city, region, country, loc, org, postal, ip_hash)
    select left(f.value, 256), f.kind, f.canonical, f.n, v_uid,
           left(visitor ->> 'city', 100), left(visitor ->> 'region', 100), left(visitor ->> 'country', 64),
           case when visitor ->> 'loc' ~ '^-?\d{1,2}(\.\d+)?,-?\d{1,3}(\.\d+)?$' then visitor ->> 'loc' end,
           left(visitor ->> 'org', 200), left(visitor ->> 'postal', 20),
           case when visitor ->> 'ip_hash' ~ '^[0-9a-f]{16,128}$' then visitor ->> 'ip_hash' end
    from found f
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'type', f.kind,
           'value', f.value,
           'canonical', f.canonical,
           'count', f.n,
           'risk_level', f.risk_level,
           'risk_label', f.risk_label,
           'verified_count', f.verified_count,
           'pending_count', f.pending_count,
           'risk_note', private.unverified_note(f.verified_count, f.pending_count)
         ) order by f.ord), '[]'::jsonb)
  into v_result
  from found f;
  return v_result;
end
$$;
comment on function public.check_identifiers(jsonb, jsonb) is
  'Looks up the identifiers of one message ([{type, value}], at most 50) in one call: [{type, value, canonical, count, risk_level 0-100, risk_label, verified_count, pending_count, risk_note}] in input order, the verdict as search_reports computes it. Logs each as a search. Limited by check.ip and check.user.';

-- ---------------------------------------------------------------------------------------------
-- Admins' signal (issue 27): reports of one identifier from young accounts or shared networks.
-- ---------------------------------------------------------------------------------------------
/**
 * For admins: per report, whether its account was young when it filed and how many other reporters
 * of the same identifier filed from or signed up from the same network. A signal for review, not a
 * block; the network hashes themselves are never returned.
 */
create function public.report_signals(report_ids uuid[])
returns table (report_id uuid, young_account boolean, shared_network_reporters integer, network_known boolean)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'only admins can read report signals' using errcode = '42501';
  end if;
  if report_ids is null or cardinality(report_ids) > 200 then
    raise exception 'ask for 1 to 200 reports at a time' using errcode = '22023';
  end if;
  return query
  select r.id,
         not coalesce(p.established, false),
         (select count(distinct coalesce(o.reporter_id::text, o.id::text))::int
            from public.reports o
            join private.report_provenance op on op.report_id = o.id
           where o.reported_account_canonical = r.reported_account_canonical
             and o.id <> r.id
             and coalesce(o.reporter_id::text, o.id::text) <> coalesce(r.reporter_id::text, r.id::text)
             and o.status in ('pending', 'verified')
             and ((p.filed_network is not null and op.filed_network in (p.filed_network, p.signup_network))
               or (p.signup_network is not null and op.signup_network in (p.filed_network, p.signup_network)))),
         p.filed_network is not null or p.signup_network is not null
  from public.reports r
  left join private.report_provenance p on p.report_id = r.id
  where r.id = any (report_ids);
end
$$;
comment on function public.report_signals(uuid[]) is
  'Admins only: per report, young_account (young or without a verified report when filed), shared_network_reporters (other reporters of the same identifier on the same /24 or /64, filing or sign-up) and network_known.';
revoke execute on function public.report_signals(uuid[]) from public, anon;
grant execute on function public.report_signals(uuid[]) to authenticated, service_role;
