-- Issue 33 (after the scam): the "what to do now" checklist shown after a report is filed and on the
-- results page of an identifier with verified reports. One reviewed table, in both languages, with the
-- official numbers and links, which admins edit in the app (Admin > What to do now); everyone reads it.
--
-- The first version of the rows was written without internet access, from these published sources,
-- and must be checked against them before each review (the reviewed_at column says when):
--   RA 12010, Anti-Financial Account Scamming Act (2024), temporary holding of disputed funds for up to
--     30 days: https://lawphil.net/statutes/repacts/ra2024/ra_12010_2024.html
--   BSP Consumer Assistance Mechanism (BSP Online Buddy, consumeraffairs@bsp.gov.ph, (02) 8708-7087):
--     https://www.bsp.gov.ph/SitePages/ConsumerProtection.aspx
--   CICC Inter-Agency Response Center, hotline 1326, and eGov PH app eReport: https://cicc.gov.ph
--   PNP Anti-Cybercrime Group: https://acg.pnp.gov.ph ; NBI Cybercrime Division: https://nbi.gov.ph
--   NTC consumer complaints (text scams, RA 11934 SIM Registration Act): https://ntc.gov.ph
--   GCash Help Center (hotline 2882): https://help.gcash.com ; Maya Help Center: https://support.maya.ph

create table public.after_scam_steps (
  id uuid not null primary key default gen_random_uuid(),
  position smallint not null unique check (position between 1 and 50),
  title_en text not null check (char_length(btrim(title_en)) between 1 and 200),
  title_fil text not null check (char_length(btrim(title_fil)) between 1 and 200),
  body_en text not null check (char_length(btrim(body_en)) between 1 and 1000),
  body_fil text not null check (char_length(btrim(body_fil)) between 1 and 1000),
  contacts text check (char_length(contacts) <= 300),
  link_url text check (link_url ~ '^https://[^\s/]+(/\S*)?$' and char_length(link_url) <= 300),
  reviewed_at date not null default current_date,
  updated_by uuid default auth.uid() references auth.users (id) on delete set null,
  updated_at timestamptz not null default now()
);
comment on table public.after_scam_steps is
  'The "what to do now" checklist for scam victims, in order of urgency (position), in English and Filipino, with official numbers and links. Everyone reads it; admins edit it.';
comment on column public.after_scam_steps.position is 'Order of urgency: 1 is done first.';
comment on column public.after_scam_steps.contacts is 'Official phone numbers or addresses, shown as written (the same in both languages).';
comment on column public.after_scam_steps.link_url is 'The official page for the step (https only).';
comment on column public.after_scam_steps.reviewed_at is 'When an admin last checked the numbers and links against the official sources.';
comment on column public.after_scam_steps.updated_by is 'The admin who last changed the row.';
create index after_scam_steps_updated_by_idx on public.after_scam_steps (updated_by);
create trigger after_scam_steps_touch_updated_at before update on public.after_scam_steps
  for each row execute function private.touch_updated_at();

/** Before update of a step: records who changed it (an admin, by the policies), whatever the client sent. */
create function private.after_scam_steps_stamp()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_by := (select auth.uid());
  return new;
end
$$;
comment on function private.after_scam_steps_stamp() is 'Trigger: sets after_scam_steps.updated_by to the caller.';
revoke execute on function private.after_scam_steps_stamp() from public, anon;
grant execute on function private.after_scam_steps_stamp() to authenticated, service_role;
create trigger after_scam_steps_stamp before update on public.after_scam_steps
  for each row execute function private.after_scam_steps_stamp();

alter table public.after_scam_steps enable row level security;
revoke all on public.after_scam_steps from anon, authenticated;
grant select on public.after_scam_steps to anon, authenticated;
grant insert (position, title_en, title_fil, body_en, body_fil, contacts, link_url, reviewed_at)
  on public.after_scam_steps to authenticated;
grant update (position, title_en, title_fil, body_en, body_fil, contacts, link_url, reviewed_at)
  on public.after_scam_steps to authenticated;
grant delete on public.after_scam_steps to authenticated;
create policy "Anyone can read the after-scam steps" on public.after_scam_steps
  for select to anon, authenticated
  using (true);
create policy "Admins can add after-scam steps" on public.after_scam_steps
  for insert to authenticated
  with check ((select private.is_admin()));
create policy "Admins can update after-scam steps" on public.after_scam_steps
  for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));
create policy "Admins can delete after-scam steps" on public.after_scam_steps
  for delete to authenticated
  using ((select private.is_admin()));

insert into public.after_scam_steps (position, title_en, title_fil, body_en, body_fil, contacts, link_url) values
(1,
 'Call your bank or e-wallet now',
 'Tawagan agad ang iyong bangko o e-wallet',
 'Report the transfer as fraud and ask them to hold the money: RA 12010 (the Anti-Financial Account Scamming Act) lets banks and e-wallets hold disputed funds for up to 30 days, but only if you report fast. Have the amount, date, time and reference number ready. Use only the numbers in the official app or on your card.',
 'I-report ang padala bilang panloloko at hilinging i-hold ang pera: pinapayagan ng RA 12010 (Anti-Financial Account Scamming Act) ang mga bangko at e-wallet na i-hold ang pinagtatalunang pondo nang hanggang 30 araw, pero kung mabilis ka lang mag-report. Ihanda ang halaga, petsa, oras at reference number. Gamitin lang ang mga numero sa opisyal na app o sa iyong card.',
 'GCash 2882 · Maya (02) 8845-7788 · your bank: the number on your card',
 'https://help.gcash.com'),
(2,
 'Report it to CICC: call 1326',
 'I-report sa CICC: tumawag sa 1326',
 'The Cybercrime Investigation and Coordinating Center''s Inter-Agency Response Center answers 1326 day and night and passes the case to the police, the bank and the telco. You can also file through eReport in the eGov PH app.',
 'Sumasagot ang Inter-Agency Response Center ng Cybercrime Investigation and Coordinating Center sa 1326 araw at gabi at ipinapasa nila ang kaso sa pulis, sa bangko at sa telco. Puwede ka ring mag-file sa eReport ng eGov PH app.',
 'Hotline 1326',
 'https://cicc.gov.ph'),
(3,
 'Keep every piece of evidence',
 'Itago ang lahat ng ebidensya',
 'Do not delete the chat or block the number yet. Screenshot the conversation, the scammer''s profile or page, and the transfer receipt with its reference number. Write down the date and time of each payment.',
 'Huwag munang burahin ang chat o i-block ang numero. I-screenshot ang usapan, ang profile o page ng scammer, at ang resibo ng padala na may reference number. Isulat ang petsa at oras ng bawat bayad.',
 null,
 null),
(4,
 'File a complaint with the PNP Anti-Cybercrime Group or the NBI',
 'Mag-file ng reklamo sa PNP Anti-Cybercrime Group o sa NBI',
 'A police or NBI complaint is what can lead to charges and to a court order on the scammer''s account. Bring a valid ID, your printed evidence and the complaint pack ScamCheck makes for you.',
 'Ang reklamo sa pulis o sa NBI ang maaaring humantong sa kaso at sa utos ng korte sa account ng scammer. Magdala ng valid ID, ng naka-print na ebidensya at ng complaint pack na ginagawa ng ScamCheck para sa iyo.',
 'PNP-ACG (02) 8723-0401 loc. 7491 · NBI Cybercrime Division (02) 8523-8231 loc. 3454',
 'https://acg.pnp.gov.ph'),
(5,
 'Scam text? Report the sender to the NTC',
 'Scam na text? I-report ang nagpadala sa NTC',
 'Send the National Telecommunications Commission the sender''s number, the message as it arrived and a screenshot, so that the registered SIM can be traced and blocked.',
 'Ipadala sa National Telecommunications Commission ang numero ng nagpadala, ang mensahe kung paano ito dumating at isang screenshot, para ma-trace at ma-block ang rehistradong SIM.',
 null,
 'https://ntc.gov.ph'),
(6,
 'Do not pay anyone who offers to recover your money',
 'Huwag magbayad sa sinumang nag-aalok na mabawi ang iyong pera',
 '"Fund recovery" agents, hackers and fake lawyers who ask for a fee to get your money back are a second scam. The police, CICC, the NBI, banks and e-wallets never charge for a complaint.',
 'Ang mga "fund recovery" agent, hacker at pekeng abogado na humihingi ng bayad para mabawi ang pera mo ay pangalawang scam. Hindi naniningil ang pulis, CICC, NBI, mga bangko at e-wallet para sa reklamo.',
 null,
 null),
(7,
 'If your bank or e-wallet does not act: go to the BSP',
 'Kung hindi kumilos ang bangko o e-wallet: lumapit sa BSP',
 'The Bangko Sentral ng Pilipinas takes complaints about banks and e-wallets through its Consumer Assistance Mechanism. Give it your complaint''s reference number from the bank or e-wallet.',
 'Tumatanggap ang Bangko Sentral ng Pilipinas ng reklamo tungkol sa mga bangko at e-wallet sa Consumer Assistance Mechanism nito. Ibigay ang reference number ng reklamo mo mula sa bangko o e-wallet.',
 'BSP Online Buddy (BOB) on bsp.gov.ph · consumeraffairs@bsp.gov.ph · (02) 8708-7087',
 'https://www.bsp.gov.ph/SitePages/ConsumerProtection.aspx');
