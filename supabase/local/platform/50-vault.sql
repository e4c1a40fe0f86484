-- Vault is there on every Supabase project (hosted and `supabase start`); here through the stand-in of
-- supabase/local/extensions. The stack stores project_url and service_role_key in it at start, as an
-- operator does once on a hosted project (docs/deploying.md), for the scheduled jobs' pg_net calls.
create extension if not exists supabase_vault;
grant usage on schema vault to postgres, service_role;
grant select on vault.decrypted_secrets, vault.secrets to postgres, service_role;
