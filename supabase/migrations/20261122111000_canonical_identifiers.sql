-- Canonical identifiers: one written form for every way people type the same mobile number, e-mail,
-- website, e-wallet or crypto address, so that reports and searches meet in one indexed column.
-- The same rules live in supabase/functions/_shared/canonical.ts; supabase/tests/canonical-vectors.json
-- pins both implementations to the same answers.
--
-- Rules (kind -> canonical form):
--   mobile   Philippine mobiles in E.164 (+639XXXXXXXXX) from 09XXXXXXXXX, 9XXXXXXXXX, 639XXXXXXXXX,
--            +63 0917..., 0063...; other numbers with an international prefix as + and digits; else digits.
--   email    trimmed, lowercase, without a leading 'mailto:'.
--   website  host only: no scheme, user, port, path, query, fragment, trailing dot or leading 'www.';
--            lowercase, Unicode NFC, internationalised labels in punycode (xn--...), as DNS stores them.
--   ewallet  a value made only of phone characters follows the mobile rule (GCash and Maya accounts are
--            mobile numbers); anything else is trimmed and lowercase.
--   crypto   whitespace and a payment-URI scheme (bitcoin:, ethereum: ...) removed; EVM 0x addresses and
--            bech32 addresses (bc1, tb1, ltc1) lowercase; everything else (base58: bitcoin, Tron, Solana)
--            exactly as written, because base58 is case-sensitive.

-- Functions created by later statements in this schema are not executable by the API roles unless a
-- migration grants it (Supabase grants everything to anon and authenticated by default).
-- EXECUTE for PUBLIC is a global default, so it is revoked globally (for functions postgres creates).
alter default privileges revoke execute on functions from public;
alter default privileges in schema public revoke execute on functions from anon, authenticated;
alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;

create schema if not exists private;
comment on schema private is 'Helpers, trigger functions and rollups that are not exposed through the Data API.';
revoke all on schema private from public;

/** Punycode (RFC 3492) of one DNS label; ASCII labels come back unchanged. */
create or replace function private.punycode_label(label text)
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
comment on function private.punycode_label(text) is 'Punycode (RFC 3492) form of one internationalised DNS label, with the xn-- prefix.';

/** E.164-style form of a phone number, Philippine mobiles as +639XXXXXXXXX. */
create or replace function private.canonical_phone(value text)
returns text
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  international boolean := value ~ '^\s*(\+|00)';
  digits text := regexp_replace(value, '\D', '', 'g');
begin
  if digits = '' then
    return nullif(lower(btrim(value)), '');
  end if;
  if digits ~ '^00' then
    digits := substr(digits, 3);
  end if;
  if digits ~ '^639\d{9}$' then
    return '+' || digits;
  elsif digits ~ '^6309\d{9}$' then
    -- '+63 0917 ...': the trunk 0 written after the country code
    return '+63' || substr(digits, 4);
  elsif digits ~ '^09\d{9}$' and not international then
    return '+63' || substr(digits, 2);
  elsif digits ~ '^9\d{9}$' and not international then
    return '+63' || digits;
  elsif international then
    return '+' || digits;
  end if;
  return digits;
end
$$;
comment on function private.canonical_phone(text) is 'Phone number in E.164 form; Philippine mobiles typed locally (0917..., 917...) become +639XXXXXXXXX.';

/** Host of a website address: lowercase, NFC, punycode labels, no scheme, www., port or path. */
create or replace function private.canonical_host(value text)
returns text
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  s text := lower(normalize(btrim(value), nfc));
begin
  -- ideographic and full-width full stops separate labels as '.' does (UTS 46)
  s := translate(s, U&'\3002\FF0E\FF61', '...');
  s := regexp_replace(s, '^[a-z][a-z0-9+.-]*://', '');
  s := regexp_replace(s, '^//', '');
  s := regexp_replace(s, '[/?#\\].*$', '');
  s := regexp_replace(s, '^.*@', '');
  s := regexp_replace(s, ':\d*$', '');
  s := regexp_replace(s, '\.+$', '');
  s := regexp_replace(s, '^www\.', '');
  if s = '' then
    return null;
  end if;
  return (
    select string_agg(private.punycode_label(label), '.' order by i)
    from regexp_split_to_table(s, '\.') with ordinality as l(label, i)
  );
end
$$;
comment on function private.canonical_host(text) is 'Host part of a website address in the form DNS uses: lowercase ASCII, punycode for internationalised labels, without www.';

/**
 * The canonical form of an identifier of a given kind (mobile, email, website, ewallet, crypto).
 * Reports store it in reported_account_canonical; searches look it up there.
 */
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
      return lower(regexp_replace(s, '^mailto:', '', 'i'));
    when 'website' then
      return private.canonical_host(s);
    when 'ewallet' then
      if s ~ '^\+?[\d\s().-]+$' and s ~ '\d' then
        return private.canonical_phone(s);
      end if;
      return lower(s);
    when 'crypto' then
      s := regexp_replace(s, '\s', '', 'g');
      s := regexp_replace(s, '^(bitcoin|ethereum|litecoin|tron|solana|dogecoin|bitcoincash):', '', 'i');
      s := regexp_replace(s, '[?@].*$', '');
      if s ~* '^0x[0-9a-f]{40}$' or s ~* '^(bc|tb|ltc)1[02-9ac-hj-np-z]{6,87}$' then
        return lower(s);
      end if;
      return s;
    else
      raise exception 'unknown identifier kind: %', kind
        using errcode = '22023', hint = 'Use one of mobile, email, website, ewallet, crypto.';
  end case;
end
$$;
comment on function public.canonical_identifier(text, text) is
  'Canonical form of an identifier of the given kind (mobile, email, website, ewallet, crypto); see the migration header for the rules.';

/** Guesses the kind of a typed identifier, for searches where the visitor does not say what it is. */
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
  if s ~* '^mailto:' or s ~ '^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$' then
    return 'email';
  end if;
  if s ~ '^\d{1,3}(\.\d{1,3}){3}$' then
    return 'website';
  end if;
  if s ~ '^\+?[\d\s().-]+$' and length(regexp_replace(s, '\D', '', 'g')) between 7 and 15 then
    return 'mobile';
  end if;
  if s ~ '^[13][1-9A-HJ-NP-Za-km-z]{25,34}$' then
    return 'crypto';
  end if;
  if s ~* '^[a-z][a-z0-9+.-]*://' or s ~ '^(//)?[^\s/@]+\.[^\s/@.:]{2,}\.?([:/?#].*)?$' then
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

/** Canonical form of a typed identifier of unknown kind: detect_identifier_kind, then canonical_identifier. */
create or replace function public.canonical_identifier_auto(value text)
returns text
language sql
immutable parallel safe
set search_path = ''
as $$
  select public.canonical_identifier(public.detect_identifier_kind(value), value)
$$;
comment on function public.canonical_identifier_auto(text) is
  'Canonical form of an identifier whose kind is detected from how it looks; what search looks up.';

grant execute on function public.canonical_identifier(text, text), public.detect_identifier_kind(text),
  public.canonical_identifier_auto(text) to anon, authenticated, service_role;
grant usage on schema private to anon, authenticated, service_role;
grant execute on function private.punycode_label(text), private.canonical_phone(text), private.canonical_host(text)
  to anon, authenticated, service_role;
