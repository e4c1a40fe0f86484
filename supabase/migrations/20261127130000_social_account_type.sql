-- Issue 30: accounts on shared platforms (a Facebook page, a Telegram account, a Shopee shop...) are
-- identifiers of their own, reported as the new account type 'social' ("Social media / chat account").
-- An enum value can be used only once the transaction that adds it has committed, so it is added in
-- this migration of its own; 20261127130100_canonical_social_accounts.sql uses it.
alter type public.reported_account_type add value if not exists 'social';
comment on type public.reported_account_type is
  'Kind of identifier a report is about (mobile, email, ewallet, crypto, website, social); drives canonical_identifier.';
