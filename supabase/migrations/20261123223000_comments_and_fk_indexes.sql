-- Schema gates after the security and statistics work: every object carries a comment for the dashboard
-- (the doc comments in 20261123213000_auth_code_attempts.sql said it only in SQL comments), and the region
-- foreign keys of the statistics rollups are covered by an index (their primary keys lead with the day or
-- month, so deleting or renaming a region would otherwise scan them).

comment on table private.code_attempts is 'Wrong tries against the e-mail code an address currently has; the code is deleted after code_wrong_tries.';
comment on function private.take_for_address(text, text) is 'Takes one call of a rate limit for an e-mail address: 0 when allowed, else the seconds to wait.';
comment on function private.latest_code_at(text) is 'When the code an address can type now was sent (the newest of its kinds), or null.';
comment on function private.kill_codes(text) is 'Deletes every code e-mailed to an address (sign-up, sign-in, recovery, e-mail change, reauthentication).';
comment on function private.code_wrong_tries() is 'How many tries one e-mail code gets (rate_limit_settings code_wrong_tries).';
comment on function private.claim_code_try(text, text) is 'Claims one try of the code sent to an address before it is checked: {ok} or {ok: false, reason, retry_after}.';
comment on function private.code_try_result(text, boolean) is 'After a claimed try: a right code clears the counts; a wrong one that used the last try deletes the code.';
comment on function private.claim_code_issue(text) is 'Counts one code e-mailed to an address: 0 when allowed, else the seconds until another may be sent.';
comment on function private.email_has_account(text) is 'Whether an address belongs to a confirmed account (the legacy register call then mails the owner instead).';
comment on function private.check_signup_code(text, text, text) is 'Checks a typed sign-up code in the database, counting the try first: {ok, token_hash} for a right code, else the reason.';
comment on function public.auth_check_signup_code(text, text) is 'The legacy API''s sign-up code check (service role only); the client is the forwarded caller address.';
comment on function public.auth_code_try_result(text, boolean) is 'The legacy API reports whether Auth accepted a right code''s token hash (service role only).';
comment on function public.auth_register_check(text) is 'For the legacy register call: whether the address has a confirmed account and whether its owner may be told again (service role only).';

create index stats_region_daily_region_code_idx on private.stats_region_daily (region_code);
create index stats_region_monthly_region_code_idx on private.stats_region_monthly (region_code);

-- Every table has a primary key (splinter 0004): the region anchors are identified by their position.
alter table private.ph_region_anchors add primary key (lat, lng);
