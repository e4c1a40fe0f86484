-- Canonical identifiers: one written form for every way people type the same mobile number, e-mail,
-- website, e-wallet or crypto address, so that reports and searches meet in one indexed column.
-- The same rules live in supabase/functions/_shared/canonical.ts; supabase/tests/canonical-vectors.json
-- pins both implementations to the same answers (tests/fuzz/canonical.ts fuzzes one against the other).
--
-- Rules (kind -> canonical form):
--   mobile   Philippine mobiles in E.164 (+639XXXXXXXXX) from 09XXXXXXXXX, 9XXXXXXXXX, 639XXXXXXXXX,
--            +63 0917..., 0063..., (+63) 917...; other numbers with an international prefix ('+' or '00',
--            leading zeros after it dropped: no country code starts with 0) as + and digits; else digits.
--   email    trimmed, lowercase, without any leading 'mailto:'.
--   website  host only: no scheme, user, port, path, query, fragment, trailing dot or leading 'www.';
--            lowercase, Unicode NFC, internationalised labels in punycode (xn--...), as DNS stores them.
--            A host containing white space or control characters is no host (null).
--   ewallet  a value made only of phone characters follows the mobile rule (GCash and Maya accounts are
--            mobile numbers); anything else is trimmed and lowercase.
--   crypto   whitespace and a payment-URI scheme (bitcoin:, ethereum: ...) removed; EVM 0x addresses and
--            bech32 addresses (bc1, tb1, ltc1) lowercase; everything else (base58: bitcoin, Tron, Solana)
--            exactly as written, because base58 is case-sensitive.
-- A canonical form canonicalises to itself; a value with nothing left is null (no identifier), not ''.
-- White space is spelled out (JavaScript's \s: \t \n \v \f \r, space, U+00A0, U+1680, U+2000-U+200A,
-- U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) and digits are [0-9], because Postgres's \s and \d
-- follow the database's locale; lowercase is Unicode's full mapping, as JavaScript's toLowerCase.

/** Punycode (RFC 3492) of one DNS label; ASCII labels come back unchanged. */
create function private.punycode_label(label text)
returns text
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  base constant int := 36;
  tmin constant int := 1;
  tmax constant int := 26;
  skew constant int := 38;
  damp constant int := 700;
  cps int[];
  c int;
  n int := 128;
  delta bigint := 0;
  bias int := 72;
  h int;
  b int;
  m int;
  q bigint;
  k int;
  t int;
  d int;
  output text := '';
  first_time boolean;
  numpoints int;
begin
  if label !~ '[^\x01-\x7f]' then
    return label;
  end if;
  select array_agg(ascii(ch) order by i) into cps
  from regexp_split_to_table(label, '') with ordinality as s(ch, i);
  foreach c in array cps loop
    if c < 128 then
      output := output || chr(c);
    end if;
  end loop;
  b := length(output);
  h := b;
  if b > 0 then
    output := output || '-';
  end if;
  while h < array_length(cps, 1) loop
    select min(x) into m from unnest(cps) as x where x >= n;
    delta := delta + (m - n)::bigint * (h + 1);
    n := m;
    foreach c in array cps loop
      if c < n then
        delta := delta + 1;
      end if;
      if c = n then
        q := delta;
        k := base;
        loop
          t := case when k <= bias then tmin when k >= bias + tmax then tmax else k - bias end;
          exit when q < t;
          d := t + ((q - t) % (base - t))::int;
          output := output || case when d < 26 then chr(97 + d) else chr(22 + d) end;
          q := (q - t) / (base - t);
          k := k + base;
        end loop;
        output := output || case when q < 26 then chr(97 + q::int) else chr(22 + q::int) end;
        -- adapt the bias (RFC 3492 section 6.1)
        first_time := h = b;
        numpoints := h + 1;
        delta := case when first_time then delta / damp else delta / 2 end;
        delta := delta + delta / numpoints;
        k := 0;
        while delta > ((base - tmin) * tmax) / 2 loop
          delta := delta / (base - tmin);
          k := k + base;
        end loop;
        bias := k + ((base - tmin + 1) * delta / (delta + skew))::int;
        delta := 0;
        h := h + 1;
      end if;
    end loop;
    delta := delta + 1;
    n := n + 1;
  end loop;
  return 'xn--' || output;
end
$$;
grant execute on function private.punycode_label(text) to anon, authenticated, service_role;
comment on function private.punycode_label(text) is 'Punycode (RFC 3492) form of one internationalised DNS label, with the xn-- prefix.';

create function private.canonical_phone(value text)
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
grant execute on function private.canonical_phone(text) to anon, authenticated, service_role;
comment on function private.canonical_phone(text) is 'Phone number in E.164 form; Philippine mobiles typed locally (0917..., 917...) become +639XXXXXXXXX.';

create function private.canonical_host(value text)
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
grant execute on function private.canonical_host(text) to anon, authenticated, service_role;
comment on function private.canonical_host(text) is 'Host part of a website address in the form DNS uses: lowercase ASCII, punycode for internationalised labels, without www.; null when no host name can be made of it.';

create function public.canonical_identifier(kind text, value text)
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
grant execute on function public.canonical_identifier(text, text) to anon, authenticated, service_role;
comment on function public.canonical_identifier(text, text) is
  'Canonical form of an identifier of the given kind (mobile, email, website, ewallet, crypto); see the migration header for the rules.';

create function public.detect_identifier_kind(value text)
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
grant execute on function public.detect_identifier_kind(text) to anon, authenticated, service_role;
comment on function public.detect_identifier_kind(text) is
  'Kind (mobile, email, website, ewallet, crypto) a typed identifier most likely is; used by search.';

/** Canonical form of a typed identifier of unknown kind: detect_identifier_kind, then canonical_identifier. */
create function public.canonical_identifier_auto(value text)
returns text
language sql
immutable parallel safe
set search_path = ''
as $$
  select public.canonical_identifier(public.detect_identifier_kind(value), value)
$$;
grant execute on function public.canonical_identifier_auto(text) to anon, authenticated, service_role;
comment on function public.canonical_identifier_auto(text) is
  'Canonical form of an identifier whose kind is detected from how it looks; what search looks up.';

/** The first 5 hex characters of the SHA-256 of a canonical identifier (the range lookup's key). */
create function private.identifier_hash_prefix(canonical text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select left(encode(sha256(convert_to(canonical, 'UTF8')), 'hex'), 5)
$$;
revoke execute on function private.identifier_hash_prefix(text) from public, anon, authenticated;
comment on function private.identifier_hash_prefix(text) is 'First 5 hex characters of sha256(canonical identifier), the key of public.range_lookup.';
