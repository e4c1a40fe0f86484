-- Search finds '(+63) 917 123 4567'.
--
-- Kind detection (what search, the report form's check and Notify Me use on a typed identifier) took a
-- phone number's '+' only as its first character, so a number written with its country code in brackets,
-- as it often is in posts and messages, was an e-wallet name: search looked for the text and found
-- nothing, the report form refused it as a mobile number, and Notify Me refused it. The '+' may now follow
-- an opening bracket (and spaces). Canonical forms do not change: a mobile number's is the same
-- '+639171234567' as before, so no stored report needs rewriting. supabase/functions/_shared/canonical.ts
-- changes the same way; supabase/tests/canonical-vectors.json pins both.

create or replace function public.detect_identifier_kind(value text)
returns text
language plpgsql
immutable parallel safe
set search_path = ''
as $$
declare
  -- ideographic and full-width full stops separate labels as '.' does
  s text := translate(btrim(value), U&'\3002\FF0E\FF61', '...');
begin
  if s is null or s = '' then
    return null;
  end if;
  if s ~* '^(bitcoin|ethereum|litecoin|tron|solana|dogecoin|bitcoincash):'
     or s ~* '^0x[0-9a-f]{40}$'
     or s ~* '^(bc|tb|ltc)1[02-9ac-hj-np-z]{6,87}$' then
    return 'crypto';
  end if;
  if s ~* '^mailto:'
     or s ~ '^[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff@/:]+@[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff@/:]+\.[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff@/:]+$' then
    return 'email';
  end if;
  if s ~ '^[0-9]{1,3}(\.[0-9]{1,3}){3}$' then
    return 'website';
  end if;
  -- '+' may follow an opening bracket: '(+63) 917 123 4567'
  if s ~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff(]*\+?[0-9\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]+$'
     and length(regexp_replace(s, '[^0-9]', '', 'g')) between 7 and 15 then
    return 'mobile';
  end if;
  if s ~ '^[13][1-9A-HJ-NP-Za-km-z]{25,34}$' then
    return 'crypto';
  end if;
  if s ~* '^[a-z][a-z0-9+.-]*://'
     or s ~ '^(//)?[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff/@]+\.[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff/@.:]{2,}\.?([:/?#].*)?$' then
    return 'website';
  end if;
  if s ~ '^[1-9A-HJ-NP-Za-km-z]{25,}$' then
    return 'crypto';
  end if;
  return 'ewallet';
end
$$;

-- A registration whose asset detection now reads differently gets its kind and canonical form again
-- (the row's trigger sets them), unless its new form would be no identifier at all (it stays as it was).
-- One whose new form the same user already watches, in another row or in an earlier row changing to the
-- same form, is that watch twice and goes: the other row stays, so nothing the user asked for is lost.
create temporary table redetected as
  select r.id, r.user_id, public.canonical_identifier_auto(r.asset_name) as canonical
  from public.notify_registrations r
  where r.identifier_kind is distinct from public.detect_identifier_kind(r.asset_name)
    and public.canonical_identifier_auto(r.asset_name) is not null;
delete from public.notify_registrations d
using redetected c
where d.id = c.id
  and (exists (select 1 from public.notify_registrations o
               where o.user_id = c.user_id and o.identifier_canonical = c.canonical
                 and o.id not in (select id from redetected))
       or exists (select 1 from redetected c2
                  where c2.user_id = c.user_id and c2.canonical = c.canonical and c2.id < c.id));
update public.notify_registrations r
set asset_name = r.asset_name
from redetected c
where r.id = c.id;
drop table redetected;
