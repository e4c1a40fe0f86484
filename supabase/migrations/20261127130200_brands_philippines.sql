-- Issue 30: the message check's brand table, complete for the Philippines' most imitated banks,
-- e-wallets, couriers, telcos, marketplaces, utilities and government agencies, each with the domains
-- it publishes as its own (the page each comes from is cited on its row). Admins edit the table
-- (public.brands: RLS lets admins insert, update and delete; everyone reads).
--
-- Fixes seen on real messages: 'mayabank.ph', Maya's bank, is Maya's own (its advisory was flagged as a
-- look-alike); 'pagibigfundservices.com' is Pag-IBIG's (Virtual Pag-IBIG). Utilities get a category.

alter table public.brands drop constraint if exists brands_category_check;
alter table public.brands add constraint brands_category_check
  check (category in ('bank', 'ewallet', 'government', 'courier', 'shop', 'telco', 'utility'));

insert into public.brands as b (name, category, official_domains, keywords, short_keywords) values
  -- e-wallets
  ('GCash', 'ewallet', '{gcash.com}', '{gcash}', '{}'),                                          -- https://www.gcash.com
  ('Maya', 'ewallet', '{maya.ph,mayabank.ph,paymaya.com}', '{paymaya,mayabank}', '{maya}'),       -- https://www.maya.ph, https://www.mayabank.ph
  ('GoTyme', 'bank', '{gotyme.com.ph}', '{gotyme}', '{}'),                                         -- https://www.gotyme.com.ph
  ('Coins.ph', 'ewallet', '{coins.ph}', '{coinsph}', '{}'),                                        -- https://coins.ph
  ('Palawan Pawnshop', 'ewallet', '{palawanpawnshop.com,palawanexpress.com.ph}', '{palawanpawnshop,palawanexpress}', '{}'), -- https://www.palawanpawnshop.com
  ('Cebuana Lhuillier', 'ewallet', '{cebuanalhuillier.com}', '{cebuana,cebuanalhuillier}', '{}'), -- https://www.cebuanalhuillier.com
  -- banks
  ('BDO', 'bank', '{bdo.com.ph}', '{bdounibank}', '{bdo}'),                                         -- https://www.bdo.com.ph (online banking at online.bdo.com.ph)
  ('BPI', 'bank', '{bpi.com.ph}', '{bpionline}', '{bpi}'),                                          -- https://www.bpi.com.ph
  ('LandBank', 'bank', '{landbank.com,lbp-eservices.com}', '{landbank}', '{lbp}'),                  -- https://www.landbank.com (iAccess at https://www.lbp-eservices.com)
  ('PSBank', 'bank', '{psbank.com.ph}', '{psbank}', '{}'),                                          -- https://www.psbank.com.ph
  ('DBP', 'bank', '{dbp.ph}', '{}', '{dbp}'),                                                       -- https://www.dbp.ph
  ('EastWest', 'bank', '{eastwestbanker.com}', '{eastwest,eastwestbank}', '{}'),                   -- https://www.eastwestbanker.com
  ('AUB', 'bank', '{aub.com.ph}', '{asiaunited}', '{aub}'),                                         -- https://www.aub.com.ph
  -- government
  ('Pag-IBIG', 'government', '{pagibigfund.gov.ph,pagibigfundservices.com}', '{pagibig,pagibigfund}', '{}'), -- https://www.pagibigfund.gov.ph (Virtual Pag-IBIG: https://www.pagibigfundservices.com)
  ('DSWD', 'government', '{dswd.gov.ph}', '{}', '{dswd}'),                                          -- https://www.dswd.gov.ph
  ('DMW', 'government', '{dmw.gov.ph}', '{}', '{dmw}'),                                             -- https://dmw.gov.ph
  ('POEA', 'government', '{poea.gov.ph}', '{}', '{poea}'),                                          -- https://www.poea.gov.ph (now DMW)
  ('DICT', 'government', '{dict.gov.ph,e.gov.ph}', '{egovph}', '{dict,egov}'),                      -- https://dict.gov.ph (eGovPH: https://e.gov.ph)
  ('GSIS', 'government', '{gsis.gov.ph}', '{}', '{gsis}'),                                          -- https://www.gsis.gov.ph
  ('NBI', 'government', '{nbi.gov.ph}', '{}', '{nbi}'),                                             -- https://nbi.gov.ph (clearance at clearance.nbi.gov.ph)
  ('PNP', 'government', '{pnp.gov.ph}', '{}', '{pnp}'),                                             -- https://pnp.gov.ph
  ('CICC', 'government', '{cicc.gov.ph}', '{}', '{cicc}'),                                          -- https://cicc.gov.ph
  ('DTI', 'government', '{dti.gov.ph}', '{}', '{dti}'),                                             -- https://www.dti.gov.ph
  ('DOLE', 'government', '{dole.gov.ph}', '{}', '{dole}'),                                          -- https://www.dole.gov.ph
  ('NTC', 'government', '{ntc.gov.ph}', '{}', '{ntc}'),                                             -- https://ntc.gov.ph
  ('LTO', 'government', '{lto.gov.ph}', '{}', '{lto,ltms}'),                                        -- https://lto.gov.ph (LTMS portal at portal.lto.gov.ph)
  -- utilities
  ('Meralco', 'utility', '{meralco.com.ph}', '{meralco}', '{}'),                                    -- https://company.meralco.com.ph
  ('Maynilad', 'utility', '{mayniladwater.com.ph}', '{maynilad}', '{}'),                            -- https://www.mayniladwater.com.ph
  ('Manila Water', 'utility', '{manilawater.com}', '{manilawater}', '{}'),                          -- https://www.manilawater.com
  -- couriers
  ('2GO', 'courier', '{2go.com.ph}', '{2goexpress}', '{}'),                                         -- https://www.2go.com.ph
  ('SPX Express', 'courier', '{spx.ph}', '{shopeexpress}', '{spx}'),                               -- https://spx.ph
  ('Lalamove', 'courier', '{lalamove.com}', '{lalamove}', '{}'),                                    -- https://www.lalamove.com
  -- telcos and internet
  ('PLDT', 'telco', '{pldt.com,pldthome.com}', '{pldt,pldthome}', '{}'),                            -- https://www.pldthome.com
  ('Converge', 'telco', '{convergeict.com}', '{convergeict}', '{}'),                                -- https://www.convergeict.com
  ('TNT', 'telco', '{smart.com.ph}', '{}', '{tnt}')                                                 -- https://smart.com.ph/prepaid/tnt
on conflict (name) do update
  set category = excluded.category,
      official_domains = (select array(select distinct d from unnest(b.official_domains || excluded.official_domains) d order by d)),
      keywords = (select array(select distinct k from unnest(b.keywords || excluded.keywords) k order by k)),
      short_keywords = (select array(select distinct k from unnest(b.short_keywords || excluded.short_keywords) k order by k));

-- Link shorteners the check did not know (a short link is flagged as one; its host is never a brand's).
insert into public.check_domain_lists (list, value) values
  ('shortener', 'forms.gle'), ('shortener', 'lnkd.in'), ('shortener', 'bit.do'), ('shortener', 'shorturl.asia'),
  ('shortener', 'tinyurl.ph'), ('shortener', 'cutt.us'), ('shortener', 'bitly.ws'), ('shortener', 'shope.ee'),
  ('shortener', 'linkin.bio'), ('shortener', 'fb.watch')
on conflict do nothing;
