-- Canonical identifiers: what fuzzing the TypeScript twin against these functions found (issue 12,
-- tests/fuzz/canonical.ts). supabase/functions/_shared/canonical.ts changes the same way; the shared
-- vectors pin both.
--
-- 1. White space is spelled out: \t \n \v \f \r, space, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
--    U+202F, U+205F, U+3000, U+FEFF (JavaScript's \s). Postgres's \s follows the database's locale and,
--    with glibc, leaves out the no-break space that numbers copied from web pages often carry, so
--    '0917<NBSP>123 4567' was a mobile number in the app and an e-wallet name here. Digits are [0-9]
--    (\d may take other scripts' digits in some locales).
--    Lowercase is Unicode's full mapping, as JavaScript's toLowerCase: U+0130 (capital I with dot) becomes
--    'i' + U+0307 on every database (glibc's lower() gives a plain 'i'; UTS 46 maps it as JavaScript does).
-- 2. A canonical form canonicalises to itself:
--    - international numbers lose every leading 0 after '+' / '00' (no country code starts with 0), so
--      '0000 63 917 ...' and '+63 917 ...' are one number and '+0059...' cannot become '+59...' later;
--    - a mobile, e-mail or crypto value with nothing left ('00', 'mailto:', a lone U+3000) is null (no
--      identifier), not '', as for a blank value;
--    - '00' at the start of the digits makes a number international however it is written;
--    - every 'mailto:' prefix (and spaces after it) is removed, not only the first;
--    - a host containing white space or control characters is no host: null, so the report or search
--      is refused as "not a valid website" instead of storing a form that changes when typed again.

create or replace function private.canonical_phone(value text)
returns text
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  international boolean := value ~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*(\+|00)';
  digits text := regexp_replace(value, '[^0-9]', '', 'g');
begin
  if digits = '' then
    return nullif(lower(replace(btrim(value), U&'\0130', U&'i\0307')), '');
  end if;
  -- '00' starts an international number however it is written ('(00) 63 ...')
  international := international or digits ~ '^00';
  if international then
    digits := regexp_replace(digits, '^0+', '');
  end if;
  if digits = '' then
    return null;
  end if;
  if digits ~ '^639[0-9]{9}$' then
    return '+' || digits;
  elsif digits ~ '^6309[0-9]{9}$' then
    -- '+63 0917 ...': the trunk 0 written after the country code
    return '+63' || substr(digits, 4);
  elsif digits ~ '^09[0-9]{9}$' and not international then
    return '+63' || substr(digits, 2);
  elsif digits ~ '^9[0-9]{9}$' and not international then
    return '+63' || digits;
  elsif international then
    return '+' || digits;
  end if;
  return digits;
end
$$;
comment on function private.canonical_phone(text) is 'Phone number in E.164 form; Philippine mobiles typed locally (0917..., 917...) become +639XXXXXXXXX.';

create or replace function private.canonical_host(value text)
returns text
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  s text := lower(replace(normalize(btrim(value), nfc), U&'\0130', U&'i\0307'));
begin
  -- ideographic and full-width full stops separate labels as '.' does (UTS 46)
  s := translate(s, U&'\3002\FF0E\FF61', '...');
  s := regexp_replace(s, '^[a-z][a-z0-9+.-]*://', '');
  s := regexp_replace(s, '^//', '');
  s := regexp_replace(s, '[/?#\\].*$', '');
  s := regexp_replace(s, '^.*@', '');
  s := regexp_replace(s, ':[0-9]*$', '');
  s := regexp_replace(s, '\.+$', '');
  s := regexp_replace(s, '^www\.', '');
  if s = '' or s ~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0001-\u001f\u007f]' then
    return null;
  end if;
  return (
    select string_agg(private.punycode_label(label), '.' order by i)
    from regexp_split_to_table(s, '\.') with ordinality as l(label, i)
  );
end
$$;
comment on function private.canonical_host(text) is 'Host part of a website address in the form DNS uses: lowercase ASCII, punycode for internationalised labels, without www.; null when no host name can be made of it.';

create or replace function public.canonical_identifier(kind text, value text)
returns text
language plpgsql
immutable parallel safe
set search_path = ''
as $$
declare
  s text := btrim(value);
begin
  if s is null or s = '' then
    return null;
  end if;
  case lower(kind)
    when 'mobile' then
      return private.canonical_phone(s);
    when 'email' then
      return nullif(lower(replace(btrim(regexp_replace(s, '^(mailto: *)+', '', 'i')), U&'\0130', U&'i\0307')), '');
    when 'website' then
      return private.canonical_host(s);
    when 'ewallet' then
      if s ~ '^\+?[0-9\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]+$' and s ~ '[0-9]' then
        return private.canonical_phone(s);
      end if;
      return lower(replace(s, U&'\0130', U&'i\0307'));
    when 'crypto' then
      s := regexp_replace(s, '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]', '', 'g');
      s := regexp_replace(s, '^(bitcoin|ethereum|litecoin|tron|solana|dogecoin|bitcoincash):', '', 'i');
      s := regexp_replace(s, '[?@].*$', '');
      if s ~* '^0x[0-9a-f]{40}$' or s ~* '^(bc|tb|ltc)1[02-9ac-hj-np-z]{6,87}$' then
        return lower(s);
      end if;
      return nullif(s, '');
    else
      raise exception 'unknown identifier kind: %', kind
        using errcode = '22023', hint = 'Use one of mobile, email, website, ewallet, crypto.';
  end case;
end
$$;
comment on function public.canonical_identifier(text, text) is
  'Canonical form of an identifier of the given kind (mobile, email, website, ewallet, crypto); see the migration header for the rules.';

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
  if s ~ '^\+?[0-9\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff().-]+$'
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
comment on function public.detect_identifier_kind(text) is
  'Kind (mobile, email, website, ewallet, crypto) a typed identifier most likely is; used by search.';
