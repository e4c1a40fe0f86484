-- Right of reply for social media and chat accounts (issue 32, docs/right-of-reply.md): two more ways to
-- prove control. An enum value can be used only once the transaction that adds it has committed, so they
-- are added in this migration of their own; 20261130020100_social_ownership.sql uses them.
--   bio:    a code the owner places in the account's public bio, seen on the platform's public page by
--           the `ownership` function (Telegram);
--   review: an admin approved the owner's evidence (profile link, screenshot, note).
alter type public.ownership_method add value if not exists 'bio';
alter type public.ownership_method add value if not exists 'review';
comment on type public.ownership_method is 'How an owner proved control: sms (phone_change code), email (e-mailed code), dns (TXT record), wellknown (file under /.well-known/), bio (a code in a social account''s public bio, fetched), review (an admin approved the owner''s evidence).';
