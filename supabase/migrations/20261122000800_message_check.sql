-- Checking a whole message: the data the look-alike and link signals read (brands with their official
-- domains and keywords, link shorteners, TLDs much used for abuse), editable by admins and read by
-- everyone; and public.check_identifiers, which looks up every identifier of a message in one call.

-- ---------------------------------------------------------------------------------------------
-- Brands people in the Philippines trust, and the domains that are really theirs
-- ---------------------------------------------------------------------------------------------
create table public.brands (
  id bigint generated always as identity primary key,
  name text not null unique check (char_length(btrim(name)) between 1 and 100),
  category text not null check (category in ('bank', 'ewallet', 'government', 'courier', 'shop', 'telco')),
  official_domains text[] not null default '{}'
    check (cardinality(official_domains) <= 50 and array_to_string(official_domains, ' ') ~ '^([a-z0-9.-]+( |$))*$'),
  keywords text[] not null default '{}'
    check (cardinality(keywords) <= 50 and array_to_string(keywords, ' ') ~ '^([a-z0-9]{4,40}( |$))*$'),
  short_keywords text[] not null default '{}'
    check (cardinality(short_keywords) <= 50 and array_to_string(short_keywords, ' ') ~ '^([a-z0-9]{2,40}( |$))*$'),
  updated_at timestamptz not null default now()
);
alter table public.brands enable row level security;
revoke all on public.brands from anon, authenticated;
grant select on public.brands to anon, authenticated;
grant insert, update, delete on public.brands to authenticated;
grant all on public.brands to service_role;
comment on table public.brands is
  'Brands whose look-alikes the message check flags (lookalike-brand): official_domains (registrable domains; they and their subdomains are never flagged), keywords (found anywhere in a host label, 4+ letters) and short_keywords (found only as a whole part of a host or a whole word of the message). Everyone reads; admins edit.';

create trigger brands_touch_updated_at before update on public.brands
  for each row execute function private.touch_updated_at();

create policy "Anyone can read brands" on public.brands
  for select to anon, authenticated
  using (true);

create policy "Admins can add brands" on public.brands
  for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins can update brands" on public.brands
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins can delete brands" on public.brands
  for delete to authenticated
  using ((select private.is_admin()));

-- ---------------------------------------------------------------------------------------------
-- Link shorteners and abused TLDs
-- ---------------------------------------------------------------------------------------------
create table public.check_domain_lists (
  list text not null check (list in ('shortener', 'abused-tld')),
  value text not null check (value ~ '^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$'),
  note text check (char_length(note) <= 300),
  created_at timestamptz not null default now(),
  primary key (list, value)
);
alter table public.check_domain_lists enable row level security;
revoke all on public.check_domain_lists from anon, authenticated;
grant select on public.check_domain_lists to anon, authenticated;
grant insert, update, delete on public.check_domain_lists to authenticated;
grant all on public.check_domain_lists to service_role;
comment on table public.check_domain_lists is
  'Data for the message check: list shortener (registrable domains of link shorteners, signal shortener) and list abused-tld (TLDs without the dot, signal new-tld). Everyone reads; admins edit.';

create policy "Anyone can read the check's domain lists" on public.check_domain_lists
  for select to anon, authenticated
  using (true);

create policy "Admins can add to the check's domain lists" on public.check_domain_lists
  for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins can update the check's domain lists" on public.check_domain_lists
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins can delete from the check's domain lists" on public.check_domain_lists
  for delete to authenticated
  using ((select private.is_admin()));

-- The reviewed starting list (each domain checked against the brand's own website and app links).
insert into public.brands (name, category, official_domains, keywords, short_keywords) values
  ('GCash', 'ewallet', '{gcash.com}', '{gcash}', '{}'),
  ('Maya', 'ewallet', '{maya.ph,paymaya.com}', '{paymaya}', '{maya}'),
  ('BDO', 'bank', '{bdo.com.ph}', '{bdounibank}', '{bdo}'),
  ('BPI', 'bank', '{bpi.com.ph}', '{bpionline}', '{bpi}'),
  ('Metrobank', 'bank', '{metrobank.com.ph}', '{metrobank}', '{}'),
  ('LandBank', 'bank', '{landbank.com}', '{landbank}', '{lbp}'),
  ('UnionBank', 'bank', '{unionbankph.com}', '{unionbank}', '{}'),
  ('Security Bank', 'bank', '{securitybank.com}', '{securitybank}', '{}'),
  ('RCBC', 'bank', '{rcbc.com}', '{rcbc}', '{}'),
  ('PNB', 'bank', '{pnb.com.ph}', '{}', '{pnb}'),
  ('China Bank', 'bank', '{chinabank.ph}', '{chinabank}', '{}'),
  ('EastWest', 'bank', '{eastwestbanker.com}', '{eastwestbank,eastwestbanker}', '{}'),
  ('SSS', 'government', '{sss.gov.ph}', '{}', '{sss}'),
  ('PhilHealth', 'government', '{philhealth.gov.ph}', '{philhealth}', '{}'),
  ('Pag-IBIG', 'government', '{pagibigfund.gov.ph}', '{pagibig,pagibigfund}', '{}'),
  ('BIR', 'government', '{bir.gov.ph}', '{}', '{bir}'),
  ('LTO', 'government', '{lto.gov.ph}', '{}', '{lto}'),
  ('DFA', 'government', '{dfa.gov.ph,passport.gov.ph}', '{}', '{dfa}'),
  ('PhilPost', 'government', '{phlpost.gov.ph}', '{phlpost,philpost}', '{}'),
  ('LBC', 'courier', '{lbcexpress.com}', '{lbcexpress}', '{lbc}'),
  ('J&T Express', 'courier', '{jtexpress.ph}', '{jtexpress}', '{jnt}'),
  ('Ninja Van', 'courier', '{ninjavan.co}', '{ninjavan}', '{}'),
  ('Flash Express', 'courier', '{flashexpress.ph}', '{flashexpress}', '{}'),
  ('Shopee', 'shop', '{shopee.ph,shopee.com}', '{shopee}', '{}'),
  ('Lazada', 'shop', '{lazada.com.ph,lazada.com}', '{lazada}', '{}'),
  ('TikTok Shop', 'shop', '{tiktok.com}', '{tiktok}', '{}'),
  ('Globe', 'telco', '{globe.com.ph}', '{}', '{globe}'),
  ('Smart', 'telco', '{smart.com.ph}', '{}', '{smart}'),
  ('DITO', 'telco', '{dito.ph}', '{}', '{dito}');

insert into public.check_domain_lists (list, value) values
  ('shortener', 'bit.ly'), ('shortener', 'bitly.com'), ('shortener', 'tinyurl.com'), ('shortener', 't.co'),
  ('shortener', 'goo.gl'), ('shortener', 'is.gd'), ('shortener', 'v.gd'), ('shortener', 'cutt.ly'),
  ('shortener', 'rb.gy'), ('shortener', 'shorturl.at'), ('shortener', 'ow.ly'), ('shortener', 's.id'),
  ('shortener', 'tiny.cc'), ('shortener', 'rebrand.ly'), ('shortener', 't.ly'), ('shortener', 'shorte.st'),
  ('shortener', 'buff.ly'), ('shortener', 'qrco.de'), ('shortener', 'surl.li'), ('shortener', 'short.gy'),
  ('shortener', 'l.ead.me'), ('shortener', 'u.to'), ('shortener', 'clck.ru'), ('shortener', 'tny.im'),
  ('abused-tld', 'xyz'), ('abused-tld', 'top'), ('abused-tld', 'icu'), ('abused-tld', 'buzz'),
  ('abused-tld', 'click'), ('abused-tld', 'link'), ('abused-tld', 'online'), ('abused-tld', 'site'),
  ('abused-tld', 'live'), ('abused-tld', 'vip'), ('abused-tld', 'club'), ('abused-tld', 'cyou'),
  ('abused-tld', 'sbs'), ('abused-tld', 'cfd'), ('abused-tld', 'bond'), ('abused-tld', 'lol'),
  ('abused-tld', 'monster'), ('abused-tld', 'quest'), ('abused-tld', 'rest'), ('abused-tld', 'support'),
  ('abused-tld', 'tk'), ('abused-tld', 'ml'), ('abused-tld', 'ga'), ('abused-tld', 'cf'), ('abused-tld', 'gq'),
  ('abused-tld', 'win'), ('abused-tld', 'bid'), ('abused-tld', 'loan'), ('abused-tld', 'work');

/**
 * The identifiers of one message ([{type, value}], at most 50) with, for each, its canonical form,
 * the number of visible reports and the risk level computed as public.search_reports does. One call,
 * one statement over the search index; each identifier is logged in search_log as a search is.
 */
create function public.check_identifiers(identifiers jsonb, visitor jsonb default null)
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
  -- sec-abuse's limiter (per address, per user), counted whether or not the input is good
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
    select i.ord, i.kind, i.value, i.canonical, s.n, s.w
    from input i
    cross join lateral (
      -- Float arithmetic as in search_reports: numeric power() costs ~10 us a row.
      select count(*)::int as n, private.identifier_weight(i.canonical) as w
      from public.reports r
      where r.reported_account_canonical = i.canonical and r.status in ('pending', 'verified')
    ) s
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
           'risk_level', r.risk,
           'risk_label', case when r.risk >= 60 then 'high' when r.risk >= 25 then 'medium' else 'low' end
         ) order by f.ord), '[]'::jsonb)
  into v_result
  from found f
  cross join lateral (select round(100 * (1 - exp(-f.w / 2)))::int as risk) r;
  return v_result;
end
$$;
revoke execute on function public.check_identifiers(jsonb, jsonb) from public;
grant execute on function public.check_identifiers(jsonb, jsonb) to anon, authenticated, service_role;
revoke execute on function public.check_identifiers(jsonb, jsonb) from public;
grant execute on function public.check_identifiers(jsonb, jsonb) to anon, authenticated, service_role;
comment on function public.check_identifiers(jsonb, jsonb) is
  'Looks up the identifiers of one message ([{type, value}], at most 50) in one call: [{type, value, canonical, count, risk_level 0-100, risk_label}] in input order, risk as search_reports computes it. Logs each as a search (visitor as for search_reports). Limited by check.ip and check.user.';
