-- Seed data for local development: a living product on first start.
--   * admin@scamcheck.local (admin) and user@scamcheck.local (regular user); passwords in
--     supabase/project/demo-logins.txt and the README. Both confirmed, with the 'email' identity GoTrue creates.
--   * 24 community reporters who file the bulk of the reports (they cannot log in: random passwords).
--   * News articles about scams in the Philippines.
--   * About 420 reports over the past 18 months, every incident type, account type and status, victims in
--     many countries, with 'lat,lng' locations; a few identifiers are reported many times.
--   * Contact messages, notify registrations and search/visitor logs, so the admin counters show data.
-- Deterministic: setseed fixes every random choice and ids are derived from md5 of a label, shaped as
-- RFC 4122 version 4 UUIDs (version nibble 4, variant 10xx) so the legacy API's strict id check takes them.

select setseed(0.2026);

create function pg_temp.seed_uuid(label text)
returns uuid
language sql
immutable
as $$
  select overlay(overlay(md5(label) placing '4' from 13 for 1)
                 placing substr('89ab', 1 + get_byte(decode(md5(label), 'hex'), 8) % 4, 1) from 17 for 1)::uuid
$$;

-- ---------------------------------------------------------------------------------------------
-- Users (auth.users + auth.identities as GoTrue writes them; the profile comes from the trigger)
-- ---------------------------------------------------------------------------------------------
with people(id, email, name, password) as (
  values
    ('00000000-0000-4000-a000-00000000ad01'::uuid, 'admin@scamcheck.local', 'Andrea Admin', 'scamcheck-admin'),
    ('00000000-0000-4000-a000-000000000001'::uuid, 'user@scamcheck.local', 'Juan Dela Cruz', 'scamcheck-user')
  union all
  select pg_temp.seed_uuid('reporter' || i),
         format('reporter%s@scamcheck.local', i),
         (array['Maria Santos', 'Jose Reyes', 'Ana Cruz', 'Mark Bautista', 'Grace Villanueva', 'Paolo Garcia',
                'Kristine Mendoza', 'Rommel Aquino', 'Liza Ramos', 'Carlo Navarro', 'Joy Castillo', 'Miguel Torres',
                'Angelica Flores', 'Ramon Dizon', 'Bea Gonzales', 'Nestor Pascual', 'Camille Soriano', 'Dennis Lim',
                'Faith Ocampo', 'Arnel Tan', 'Rachelle Uy', 'Jerome Salazar', 'Tess Manalo', 'Vince Fernandez'])[i],
         encode(extensions.gen_random_bytes(18), 'base64')
  from generate_series(1, 24) as i
),
created as (
  insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at, last_sign_in_at,
                          confirmation_token, recovery_token, email_change_token_new, email_change)
  select '00000000-0000-0000-0000-000000000000', id, 'authenticated', 'authenticated', email,
         -- GoTrue's cost 10 for the demo logins; community reporters never log in, so a cheap hash will do
         extensions.crypt(password, extensions.gen_salt('bf', case when email like 'reporter%' then 4 else 10 end)),
         now() - interval '540 days',
         jsonb_build_object('provider', 'email', 'providers', jsonb_build_array('email')),
         jsonb_build_object('sub', id::text, 'name', name, 'email', email, 'email_verified', true, 'phone_verified', false),
         now() - interval '540 days', now() - interval '540 days', null,
         '', '', '', ''
  from people
  returning id, email
)
insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select id::text, id,
       jsonb_build_object('sub', id::text, 'email', email, 'email_verified', true, 'phone_verified', false),
       'email', now() - interval '540 days', now() - interval '540 days', now() - interval '540 days'
from created;

select private.grant_admin('00000000-0000-4000-a000-00000000ad01');

-- The demo user watches two identifiers, so reports on them show up as notifications.
insert into public.notify_registrations (user_id, asset_name)
values
  ('00000000-0000-4000-a000-000000000001', '0917 555 0142'),
  ('00000000-0000-4000-a000-000000000001', 'https://gcash-rewards-ph.com/claim');

-- ---------------------------------------------------------------------------------------------
-- News
-- ---------------------------------------------------------------------------------------------
insert into public.news (id, news_title, news_description, tags, img_url, source, source_desc, author_id, created_at)
values
  (pg_temp.seed_uuid('news1'),
   'Fake GCash "reward points" texts lead to look-alike login pages',
   'Subscribers are receiving text messages saying their e-wallet reward points are about to expire and must be claimed through a link. ' ||
   'The link opens a page that copies the look of the real app and asks for the mobile number, the MPIN and the one-time PIN. ' ||
   'Within minutes of entering them, victims see their balance sent to unknown accounts. ' ||
   'E-wallet providers repeat that they never send clickable links by SMS and never ask for an MPIN or OTP. ' ||
   'Report the sender number and the website so that others who search them are warned.',
   array['gcash', 'phishing', 'sms', 'e-wallet'], null, 'https://www.gcash.com/', 'GCash advisory',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '3 days'),
  (pg_temp.seed_uuid('news2'),
   'Task scams: "like and earn" jobs that end in a crypto deposit',
   'Job offers sent through messaging apps promise a few hundred pesos a day for liking videos or rating hotels. ' ||
   'The first small payouts are real, which builds trust; then the "mentor" asks for a deposit to unlock higher-paying tasks. ' ||
   'Deposits are requested in USDT or to personal e-wallet accounts and are never returned. ' ||
   'No legitimate employer asks a worker to pay to receive wages. Save the chat, the wallet addresses and account numbers, and report them.',
   array['job scam', 'task scam', 'crypto', 'telegram'], null, 'https://cicc.gov.ph/', 'Cybercrime Investigation and Coordinating Center',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '9 days'),
  (pg_temp.seed_uuid('news3'),
   'Anti-Financial Account Scamming Act: what changes for money mules',
   'Republic Act No. 12010, the Anti-Financial Account Scamming Act (AFASA), makes it a crime to lend, sell or open a bank or e-wallet account for someone else to receive scam proceeds. ' ||
   'Banks and e-wallets may hold funds that are the subject of a dispute while they investigate. ' ||
   'If someone offers money to "rent" your account, refuse: the account holder answers for what passes through it.',
   array['law', 'money mule', 'bank', 'e-wallet'], null, 'https://www.bsp.gov.ph/', 'Bangko Sentral ng Pilipinas',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '16 days'),
  (pg_temp.seed_uuid('news4'),
   'Parcel delivery texts ask for a "redelivery fee"',
   'A wave of messages claims that a parcel could not be delivered because the address was incomplete and asks for a small redelivery fee by card. ' ||
   'The card details are then used for larger purchases. Couriers do not collect fees through links in text messages; check a tracking number only in the courier''s own app or site.',
   array['sms', 'delivery', 'card fraud'], null, 'https://www.pna.gov.ph/', 'Philippine News Agency',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '24 days'),
  (pg_temp.seed_uuid('news5'),
   'Romance scams target overseas Filipino workers',
   'Scammers build online relationships over weeks with OFWs and their families, then ask for help with an emergency, a customs fee for a gift, or an "investment" in a trading platform. ' ||
   'Warning signs: the person never agrees to a live video call, the story always needs money urgently, and payment must go to a third party. ' ||
   'Talk to family before sending money and search the account numbers first.',
   array['romance scam', 'ofw', 'investment'], null, 'https://www.dmw.gov.ph/', 'Department of Migrant Workers',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '35 days'),
  (pg_temp.seed_uuid('news6'),
   'Online sellers who vanish after payment: how to check before you pay',
   'Sellers on social media marketplaces offer phones, concert tickets and pets far below market prices, ask for full payment by e-wallet and then block the buyer. ' ||
   'Prefer the platform''s checkout with buyer protection, search the seller''s number and e-wallet account, and be wary of accounts created recently.',
   array['online shopping', 'marketplace', 'e-wallet'], null, 'https://www.dti.gov.ph/', 'Department of Trade and Industry',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '48 days'),
  (pg_temp.seed_uuid('news7'),
   'SIM registration did not end text scams, but it helps tracing',
   'Since the SIM Registration Act (Republic Act No. 11934) took effect, every active SIM is tied to a registered identity. ' ||
   'Scammers still send messages, often from SIMs registered with stolen or fake documents, but reports of the numbers let telcos block them and help investigators. ' ||
   'Forward scam texts to your network''s reporting channel and report the number here.',
   array['sim registration', 'sms', 'law'], null, 'https://ntc.gov.ph/', 'National Telecommunications Commission',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '62 days'),
  (pg_temp.seed_uuid('news8'),
   'Crypto "investment clubs" promising fixed daily returns',
   'Groups on social media invite members to an investment platform that shows steady daily gains and pays referral bonuses. ' ||
   'Withdrawals work at first, then require a "tax" or "unlock fee" and finally stop. ' ||
   'The Securities and Exchange Commission warns that entities offering investments must be registered; fixed high returns are a red flag.',
   array['crypto', 'investment', 'ponzi', 'sec'], null, 'https://www.sec.gov.ph/', 'Securities and Exchange Commission',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '80 days'),
  (pg_temp.seed_uuid('news9'),
   'Calls from fake bank officers ask you to "verify" a transaction',
   'A caller introduces himself as a bank''s fraud officer and reads out part of your card number to sound genuine, then asks for the OTP that "cancels" a suspicious purchase. ' ||
   'The OTP actually approves a transfer. Hang up and call the number printed on the back of your card. The 1326 hotline of the Inter-Agency Response Center takes scam reports.',
   array['vishing', 'bank', 'otp'], null, 'https://cicc.gov.ph/', 'Cybercrime Investigation and Coordinating Center',
   '00000000-0000-4000-a000-00000000ad01', now() - interval '101 days');

-- ---------------------------------------------------------------------------------------------
-- Reports
-- ---------------------------------------------------------------------------------------------
create temporary table seed_identifiers (n int primary key, kind public.reported_account_type, account text) on commit drop;
insert into seed_identifiers (n, kind, account)
values
  (1, 'mobile', '0917 555 0142'), (2, 'website', 'https://gcash-rewards-ph.com/claim'), (3, 'mobile', '+63 998 210 4471'),
  (4, 'ewallet', '0926 117 8834'), (5, 'email', 'support@bdo-verify-account.com'), (6, 'crypto', '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063'),
  (7, 'website', 'www.shopee-flashsale.online'), (8, 'mobile', '09561234598'), (9, 'ewallet', '0919 442 0071'),
  (10, 'email', 'hr.recruitment.ph@gmail.com'), (11, 'crypto', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'), (12, 'website', 'lazada-rewards.shop'),
  (13, 'mobile', '+639175550199'), (14, 'mobile', '0918 334 7712'), (15, 'ewallet', '09278815520'),
  (16, 'email', 'claims@lbc-parcel-redelivery.com'), (17, 'website', 'https://bpi-online-secure.net/login'), (18, 'crypto', 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh'),
  (19, 'mobile', '0995 781 2264'), (20, 'mobile', '09054471203'), (21, 'ewallet', '0966 203 1187'),
  (22, 'email', 'jessica.lim.trading@outlook.com'), (23, 'website', 'metrobank-verify.info'), (24, 'crypto', '1FfmbHfnpaZjKFvyi1okTjJJusN455paPH'),
  (25, 'mobile', '+63 947 818 0036'), (26, 'mobile', '09364419907'), (27, 'website', 'http://www.ph-jobs-taskhub.com'),
  (28, 'email', 'no-reply@sss-benefits-update.org'), (29, 'ewallet', '0908 551 6640'), (30, 'crypto', '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984'),
  (31, 'mobile', '0961 225 8840'), (32, 'mobile', '09173320981'), (33, 'website', 'gcash-promo2025.xyz'),
  (34, 'email', 'customer.care@globe-rewards.net'), (35, 'mobile', '+63 915 602 7741'), (36, 'website', 'https://dhl-ph-customs.com/pay'),
  (37, 'ewallet', 'juan.payments'), (38, 'mobile', '0929 118 3346'), (39, 'website', 'binance-ph-support.com'),
  (40, 'crypto', 'TJYeasTPa6gpEEfYqEvzUnyKQxG8JbJk7s');

create temporary table seed_places (n int primary key, location text, loc text, country text) on commit drop;
insert into seed_places (n, location, loc, country)
values
  (1, 'Quezon City, Metro Manila', '14.6760,121.0437', 'PH'), (2, 'Manila', '14.5995,120.9842', 'PH'),
  (3, 'Makati, Metro Manila', '14.5547,121.0244', 'PH'), (4, 'Cebu City, Cebu', '10.3157,123.8854', 'PH'),
  (5, 'Davao City', '7.1907,125.4553', 'PH'), (6, 'Pasig, Metro Manila', '14.5764,121.0851', 'PH'),
  (7, 'Taguig, Metro Manila', '14.5176,121.0509', 'PH'), (8, 'Caloocan, Metro Manila', '14.6507,120.9676', 'PH'),
  (9, 'Iloilo City', '10.7202,122.5621', 'PH'), (10, 'Bacolod, Negros Occidental', '10.6765,122.9509', 'PH'),
  (11, 'Cagayan de Oro', '8.4542,124.6319', 'PH'), (12, 'Baguio', '16.4023,120.5960', 'PH'),
  (13, 'Zamboanga City', '6.9214,122.0790', 'PH'), (14, 'Antipolo, Rizal', '14.6255,121.1245', 'PH'),
  (15, 'General Santos', '6.1164,125.1716', 'PH'), (16, 'Dasmarinas, Cavite', '14.3294,120.9367', 'PH'),
  (17, 'Angeles, Pampanga', '15.1450,120.5887', 'PH'), (18, 'Tacloban, Leyte', '11.2443,125.0039', 'PH'),
  (19, 'Dubai', '25.2048,55.2708', 'AE'), (20, 'Riyadh', '24.7136,46.6753', 'SA'),
  (21, 'Hong Kong', '22.3193,114.1694', 'HK'), (22, 'Singapore', '1.3521,103.8198', 'SG'),
  (23, 'Doha', '25.2854,51.5310', 'QA'), (24, 'Kuwait City', '29.3759,47.9774', 'KW'),
  (25, 'Tokyo', '35.6762,139.6503', 'JP'), (26, 'Seoul', '37.5665,126.9780', 'KR'),
  (27, 'Los Angeles, California', '34.0522,-118.2437', 'US'), (28, 'Toronto, Ontario', '43.6532,-79.3832', 'CA'),
  (29, 'London', '51.5072,-0.1276', 'GB'), (30, 'Sydney', '-33.8688,151.2093', 'AU'),
  (31, 'Milan', '45.4642,9.1900', 'IT'), (32, 'Kuala Lumpur', '3.1390,101.6869', 'MY'),
  (33, 'Taipei', '25.0330,121.5654', 'TW'), (34, 'Auckland', '-36.8485,174.7633', 'NZ');

create temporary table seed_reports on commit drop as
select
  i,
  -- popular identifiers get more reports: power() skews the pick towards the first rows
  1 + floor(power(random(), 1.8) * 40)::int as ident,
  -- most victims are in the Philippines, the rest are OFWs and others abroad
  case when random() < 0.78 then 1 + floor(random() * 18)::int else 19 + floor(random() * 16)::int end as place,
  random() as r_type,
  random() as r_status,
  random() as r_amount,
  random() as r_reporter,
  random() as r_desc,
  random() as r_consent,
  -- created within the last 18 months (548 days), the incident 0-20 days before that
  now() - (random() * 548) * interval '1 day' as created_at,
  floor(random() * 21)::int as days_before
from generate_series(1, 420) as i;

insert into public.reports (id, reporter_id, incident_date, incident_type, reported_account_type, reported_account,
                            consent_to_contact, incident_description, location, report_date, loc, country, status,
                            source, amount_lost, created_at, updated_at)
select
  pg_temp.seed_uuid('report' || s.i),
  case when s.r_reporter < 0.1 then '00000000-0000-4000-a000-000000000001'::uuid
       else pg_temp.seed_uuid('reporter' || (1 + floor(s.r_reporter * 24)::int)) end,
  (s.created_at - s.days_before * interval '1 day')::date,
  t.incident_type,
  id.kind,
  id.account,
  s.r_consent < 0.45,
  case t.incident_type
    when 'scam' then (array[
      'Paid for an item through e-wallet and the seller blocked me right after. The page was deleted the next day.',
      'Offered a part-time job liking videos. After two small payouts they asked me to deposit to unlock tasks, then stopped replying.',
      'Received a text that my reward points would expire. The link asked for my MPIN and OTP and my balance was emptied.',
      'Met on a dating app, asked for money for a medical emergency and then for customs fees on a package.',
      'Caller said he was from the bank''s fraud department and asked for the OTP to cancel a purchase. It approved a transfer instead.',
      'Investment group promised 10% daily. Withdrawals required an "unlock fee" and then the site went offline.',
      'Asked to pay a redelivery fee for a parcel I never ordered. My card was charged several times afterwards.'])[1 + floor(s.r_desc * 7)::int]
    when 'hacked' then (array[
      'My Facebook account was taken over after I logged in on a fake page; the hacker asked my friends for GCash loans.',
      'E-mail account hacked and used to send invoices with changed bank details to our customers.',
      'Someone did a SIM swap on my number and reset my e-wallet password.',
      'Clicked a link in a message from a friend''s account; my account then sent the same link to everyone.'])[1 + floor(s.r_desc * 4)::int]
    else (array[
      'Daily texts about online casino bonuses with a link, even after replying STOP.',
      'Repeated calls offering loans with no requirements; they insist on an advance fee.',
      'Mass e-mails claiming I won a raffle and must pay a processing fee.',
      'Group chat invites promoting a crypto signal service.'])[1 + floor(s.r_desc * 4)::int]
  end,
  p.location,
  s.created_at::date,
  p.loc,
  p.country,
  case when s.r_status < 0.55 then 'verified' when s.r_status < 0.80 then 'pending'
       when s.r_status < 0.92 then 'rejected' else 'removed' end::public.report_status,
  (array['Text message', 'Facebook Marketplace', 'Messenger', 'Telegram', 'Phone call', 'E-mail', 'Instagram', 'Website'])[1 + floor(s.r_desc * 8)::int],
  case t.incident_type
    when 'scam' then round((300 + power(s.r_amount, 3) * 150000)::numeric, -1)
    when 'hacked' then case when s.r_amount < 0.5 then round((500 + s.r_amount * 40000)::numeric, -1) end
  end,
  s.created_at,
  s.created_at
from seed_reports s
join seed_identifiers id on id.n = s.ident
join seed_places p on p.n = s.place
cross join lateral (
  select case when s.r_type < 0.62 then 'scam' when s.r_type < 0.82 then 'hacked' else 'spam' end::public.incident_type as incident_type
) t
order by s.i;

-- ---------------------------------------------------------------------------------------------
-- Contact messages, searches and visits (admin inbox and counters)
-- ---------------------------------------------------------------------------------------------
insert into public.contact_messages (id, nickname, email, subject, message, created_at)
values
  (pg_temp.seed_uuid('contact1'), 'Liza', 'liza.r@example.com', 'Wrong number reported?', 'A number I use for my small business shows up in your results. How can I ask for a review?', now() - interval '2 days'),
  (pg_temp.seed_uuid('contact2'), 'Ramon', 'ramon.d@example.com', 'Partnership', 'Our barangay would like to share your scam-check guide in our newsletter. Is that allowed?', now() - interval '6 days'),
  (pg_temp.seed_uuid('contact3'), null, 'anon.tip@example.com', 'New scam pattern', 'There are texts going around about fake SSS benefit updates with a link to a look-alike site.', now() - interval '11 days'),
  (pg_temp.seed_uuid('contact4'), 'Bea', null, null, 'Thank you for this site, it stopped me from paying a fake seller.', now() - interval '20 days');

insert into public.search_log (search_string, identifier_kind, identifier_canonical, result_count, city, region, country, loc, created_at)
select id.account, public.detect_identifier_kind(id.account), public.canonical_identifier_auto(id.account),
       0, split_part(p.location, ',', 1), null, p.country, p.loc, now() - (random() * 180) * interval '1 day'
from generate_series(1, 600) as g
join seed_identifiers id on id.n = 1 + (g * 7) % 40
join seed_places p on p.n = 1 + (g * 13) % 34;
update public.search_log l set result_count = coalesce(c.report_count, 0)
from public.identifier_report_counts c where c.identifier_canonical = l.identifier_canonical;

insert into public.visitor_log (path, city, country, loc, created_at)
select (array['/', '/search', '/news-article', '/about', '/guide', '/faq', '/donate'])[1 + g % 7],
       split_part(p.location, ',', 1), p.country, p.loc, now() - (random() * 180) * interval '1 day'
from generate_series(1, 2400) as g
join seed_places p on p.n = 1 + (g * 11) % 34;
