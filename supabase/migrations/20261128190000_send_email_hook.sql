-- Issue 28 ("Mail"): every e-mail Auth sends goes through the Send Email hook (supabase/functions/
-- send-email), which spends the recipient's `mail.recipient` allowance (public.mail_recipient_take) on
-- hosted Supabase as locally. So the legacy register no longer spends the allowance itself for a
-- sign-up: Auth's hook does, once per e-mail. It asks only whether the address has a confirmed account,
-- and spends the allowance for the "you already have an account" notice it sends itself.

/**
 * Whether `p_email` belongs to a confirmed account: the legacy register then e-mails the owner a notice
 * instead of signing up. Spends nothing (the notice spends mail.recipient when it is sent, the sign-up
 * confirmation in Auth's Send Email hook). Service role only.
 */
create function public.auth_register_lookup(p_email text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select private.email_has_account(p_email)
$$;
comment on function public.auth_register_lookup(text) is
  'Legacy register: whether the address has a confirmed account. Spends nothing. Service role only.';

revoke all on function public.auth_register_lookup(text) from public, anon, authenticated;
grant execute on function public.auth_register_lookup(text) to service_role;
