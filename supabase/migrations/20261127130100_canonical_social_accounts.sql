-- Issue 30: identifiers where Philippine scams live, and search that reads what people paste.
-- supabase/functions/_shared/canonical.ts changes the same way; supabase/tests/canonical-vectors.json pins
-- both to the same answers.
--
-- 1. Clean-up before every kind (private.clean_identifier_text): NFKC (full-width digits and letters,
--    U+FF0E), Unicode format characters dropped (WhatsApp's direction marks U+202A/U+202C, U+200E, U+200B,
--    U+FEFF...), dashes and minus signs made '-' (0917–555–0142, the non-breaking hyphen U+2011), and
--    defanging undone (hxxps://, [.], (.), {.}, [dot], (dot), [:], [@], (@), [at], (at), [/]).
-- 2. Accounts on shared platforms are identifiers of their own (private.platform_account): a link to a
--    Facebook page, profile, group or Marketplace item, a Messenger, Instagram, TikTok, X, YouTube or
--    Telegram account, a WhatsApp group, a Shopee or Lazada shop, a Google Form or Site or a Linktree is
--    that account ('facebook.com/<page>', 't.me/<name>', ...: kind 'social'); a WhatsApp (wa.me/<number>,
--    api.whatsapp.com/send?phone=) or Viber (viber://chat?number=) chat link is its phone number; a short
--    link is its host and path ('bit.ly/AbC', kind website). A platform's own host ('facebook.com',
--    'bit.ly') stays a website whose canonical form is that host: the app refuses to report it and search
--    explains that it is a platform. Hosted-app tenants (*.vercel.app, *.blogspot.com ...) already had
--    their own canonical form (their host).
-- 3. A report filed as a website whose address is an account on a platform, or a chat link to a phone
--    number, is stored as that kind (trigger reports_account_kind), so statistics count it as what it is.
-- 4. Existing reports and Notify Me registrations are re-canonicalised from their stored raw value.

create or replace function private.clean_identifier_text(value text)
returns text
language sql
immutable strict parallel safe
set search_path = ''
as $$
  select regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
           normalize(value, nfkc),
           '[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]', '', 'g'),
           '[\u2010-\u2015\u2043\u2212\ufe58\ufe63\uff0d]', '-', 'g'),
           '^( *)h(xx)p(s?)(\[:\]|:)//', '\1http\3://', 'i'),
           '\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)', '.', 'gi'),
           '\[:\]', ':', 'g'),
           '\[@\]|\(@\)|\[at\]|\(at\)', '@', 'gi'),
           '\[/\]', '/', 'g')
$$;
comment on function private.clean_identifier_text(text) is
  'What a pasted identifier reads as: NFKC, format characters dropped, dashes made -, defanging undone.';

create or replace function private.identifier_query_param(query text, name text)
returns text
language sql
immutable strict parallel safe
set search_path = ''
as $$
  select replace(regexp_replace((regexp_match(query, '(^|&)' || name || '=([^&]*)', 'i'))[2], '%2b', '+', 'gi'), '%20', ' ')
$$;
comment on function private.identifier_query_param(text, text) is
  'One parameter of a URL query string, with %2B and %20 decoded (what a chat link''s number carries).';

create or replace function private.account_name(n text)
returns text
language sql
immutable parallel safe
set search_path = ''
as $$
  select case when n ~* '^[a-z0-9._-]+$' then lower(n) end
$$;
comment on function private.account_name(text) is 'A user name as a platform writes it (ASCII letters, digits, . _ -), lowercase; null otherwise.';

create or replace function private.platform_account(value text, out kind text, out canonical text)
language plpgsql
immutable strict parallel safe
set search_path = ''
as $$
declare
  s text := value;
  v_host text;
  v_rest text;
  v_path text;
  v_query text;
  segs text[];
  v_first text;
  v_fl text;
  v_platform text;
  v_n text;
  v_number text;
  v_phone text;
  v_reserved text[];
  m text[];
  url_safe constant text := '^[a-z0-9._~+=-]+$';
  numeric_id constant text := '^[0-9]{5,20}$';
begin
  if s ~* '^viber://' then
    v_query := case when position('?' in s) > 0 then substr(s, position('?' in s) + 1) else '' end;
    v_number := private.identifier_query_param(regexp_replace(v_query, '#.*$', ''), 'number');
    if v_number is not null and v_number <> '' then
      v_phone := private.canonical_phone(v_number);
    end if;
    if v_phone ~ '^\+?[0-9]{7,15}$' then
      kind := 'mobile';
      canonical := v_phone;
    end if;
    return;
  end if;
  if s ~* '^https?://' then
    s := regexp_replace(s, '^https?://', '', 'i');
  elsif left(s, 2) = '//' then
    s := substr(s, 3);
  elsif s ~* '^[a-z][a-z0-9+.-]*://' then
    return;
  end if;
  v_host := substring(s from '^[^/?#]*');
  v_rest := substr(s, char_length(v_host) + 1);
  v_host := lower(replace(v_host, U&'\0130', U&'i\0307'));
  v_host := regexp_replace(regexp_replace(regexp_replace(v_host, ':[0-9]*$', ''), '\.+$', ''), '^www\.', '');
  v_path := regexp_replace(v_rest, '[?#].*$', '');
  v_query := coalesce(substring(v_rest from '^[^?#]*\?([^#]*)'), '');
  segs := array_remove(string_to_array(v_path, '/'), '');
  if exists (select 1 from unnest(segs) p
             where p ~ '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0001-\u001f\u007f]') then
    return;
  end if;
  v_first := coalesce(segs[1], '');
  v_fl := lower(v_first);

  -- link shorteners (as SHORTENER_HOSTS in canonical.ts)
  if v_host = any (array['bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'v.gd', 'cutt.ly',
      'rb.gy', 'shorturl.at', 'ow.ly', 's.id', 'tiny.cc', 'rebrand.ly', 't.ly', 'shorte.st', 'buff.ly', 'qrco.de',
      'surl.li', 'short.gy', 'l.ead.me', 'u.to', 'clck.ru', 'tny.im', 'forms.gle', 'maps.app.goo.gl',
      'vt.tiktok.com', 'vm.tiktok.com', 'fb.watch', 'lnkd.in', 'bit.do', 'shorturl.asia', 'tinyurl.ph',
      'go.gov.ph', 'shope.ee', 's.lazada.com.ph', 'bitly.ws', 'cutt.us', 'linkin.bio']) then
    if cardinality(segs) = 0 or exists (select 1 from unnest(segs) p where p !~* url_safe) then
      return;
    end if;
    kind := 'website';
    canonical := v_host || '/' || array_to_string(segs, '/');
    return;
  end if;

  -- platforms (as PLATFORM_HOSTS in canonical.ts)
  v_platform := case
    when v_host in ('facebook.com', 'm.facebook.com', 'web.facebook.com', 'mbasic.facebook.com', 'touch.facebook.com',
                    'mobile.facebook.com', 'business.facebook.com', 'fb.com', 'fb.me', 'm.me') then 'facebook'
    when v_host = 'messenger.com' then 'messenger'
    when v_host in ('instagram.com', 'm.instagram.com', 'instagr.am') then 'instagram'
    when v_host in ('tiktok.com', 'm.tiktok.com') then 'tiktok'
    when v_host in ('x.com', 'twitter.com', 'mobile.twitter.com', 'mobile.x.com') then 'x'
    when v_host in ('youtube.com', 'm.youtube.com') then 'youtube'
    when v_host in ('t.me', 'telegram.me', 'telegram.dog') then 'telegram'
    when v_host in ('wa.me', 'api.whatsapp.com', 'whatsapp.com', 'web.whatsapp.com') then 'whatsapp'
    when v_host = 'chat.whatsapp.com' then 'whatsapp-group'
    when v_host = 'shopee.ph' then 'shopee'
    when v_host = 'lazada.com.ph' then 'lazada'
    when v_host = 'docs.google.com' then 'google-docs'
    when v_host = 'sites.google.com' then 'google-sites'
    when v_host = 'linktr.ee' then 'linktree'
  end;
  if v_platform is null then
    return;
  end if;
  -- first path parts that are the platform's own pages, not an account (as RESERVED in canonical.ts)
  v_reserved := case v_platform
    when 'facebook' then array['login', 'login.php', 'home.php', 'watch', 'events', 'photo.php', 'photo', 'photos',
      'story.php', 'permalink.php', 'help', 'policies', 'privacy', 'settings', 'search', 'hashtag', 'reel', 'reels',
      'gaming', 'marketplace', 'groups', 'pages', 'people', 'share', 'sharer', 'sharer.php', 'dialog', 'plugins',
      'notifications', 'messages', 'friends', 'bookmarks', 'recover', 'r.php', 'l.php', 'video.php', 'stories',
      'profile.php', 'ads', 'business', 'legal', 'about', 'careers', 'terms', 'fundraisers']
    when 'instagram' then array['p', 'reel', 'reels', 'explore', 'accounts', 'tv', 'stories', 'direct', 'about',
      'legal', 'developer']
    when 'x' then array['home', 'i', 'search', 'intent', 'share', 'hashtag', 'explore', 'settings', 'messages',
      'notifications', 'login', 'signup', 'tos', 'privacy']
    when 'youtube' then array['watch', 'results', 'shorts', 'playlist', 'feed', 'embed', 'live', 'premium', 'account',
      'about']
    when 'telegram' then array['share', 'addstickers', 'addemoji', 'login', 'setlanguage', 'proxy', 'socks', 'iv']
    when 'shopee' then array['search', 'cart', 'buyer', 'user', 'mall', 'daily_discover', 'flash_sale', 'm', 'verify',
      'checkout', 'product', 'shop', 'seller', 'universal-link', 'docs', 'events3']
    when 'linktree' then array['s', 'admin', 'login', 'register']
    else array[]::text[]
  end;

  case v_platform
    when 'facebook' then
      if v_fl = 'profile.php' then
        v_n := private.identifier_query_param(v_query, 'id');
        canonical := case when v_n ~ numeric_id then 'facebook.com/profile.php?id=' || v_n end;
      elsif v_fl = 'people' then
        canonical := case when segs[3] ~ numeric_id then 'facebook.com/profile.php?id=' || segs[3] end;
      elsif v_fl = 'pages' then
        canonical := case when segs[cardinality(segs)] ~ numeric_id
                          then 'facebook.com/profile.php?id=' || segs[cardinality(segs)] end;
      elsif v_fl = 'groups' then
        canonical := 'facebook.com/groups/' || private.account_name(segs[2]);
      elsif v_fl = 'marketplace' and lower(coalesce(segs[2], '')) = 'item' then
        canonical := case when segs[3] ~ numeric_id then 'facebook.com/marketplace/item/' || segs[3] end;
      elsif v_first ~ numeric_id then
        canonical := 'facebook.com/profile.php?id=' || v_first;
      elsif v_fl = any (v_reserved) then
        canonical := null;
      else
        canonical := 'facebook.com/' || private.account_name(v_first);
      end if;
    when 'messenger' then
      if v_fl = 't' then
        canonical := case when segs[2] ~ numeric_id then 'facebook.com/profile.php?id=' || segs[2]
                          else 'facebook.com/' || private.account_name(segs[2]) end;
      end if;
    when 'instagram' then
      v_n := case when v_fl = 'stories' then private.account_name(segs[2])
                  when v_fl = any (v_reserved) then null
                  else private.account_name(v_first) end;
      canonical := 'instagram.com/' || v_n;
    when 'tiktok' then
      if left(v_first, 1) = '@' then
        canonical := 'tiktok.com/@' || private.account_name(substr(v_first, 2));
      end if;
    when 'x' then
      if not v_fl = any (v_reserved) then
        canonical := 'x.com/' || private.account_name(v_first);
      end if;
    when 'youtube' then
      if left(v_first, 1) = '@' then
        canonical := 'youtube.com/@' || private.account_name(substr(v_first, 2));
      elsif v_fl = 'channel' and segs[2] ~* url_safe then
        canonical := 'youtube.com/channel/' || segs[2];
      elsif v_fl in ('c', 'user') then
        canonical := 'youtube.com/' || v_fl || '/' || private.account_name(segs[2]);
      end if;
    when 'telegram' then
      if left(v_first, 1) = '+' and v_first ~* url_safe then
        canonical := 't.me/' || v_first;
      elsif v_fl = 'joinchat' and segs[2] ~* url_safe then
        canonical := 't.me/joinchat/' || segs[2];
      else
        v_n := case when v_fl = 's' then private.account_name(segs[2])
                    when v_fl = any (v_reserved) then null
                    else private.account_name(v_first) end;
        canonical := 't.me/' || v_n;
      end if;
    when 'whatsapp' then
      if v_host = 'wa.me' then
        if v_fl = 'message' and segs[2] ~* url_safe then
          kind := 'social';
          canonical := 'wa.me/message/' || segs[2];
          return;
        end if;
        v_number := v_first;
      elsif v_fl = 'send' or cardinality(segs) = 0 then
        v_number := private.identifier_query_param(v_query, 'phone');
      end if;
      if v_number is null or v_number = '' or replace(v_number, ' ', '') !~ '^\+?[0-9]{7,15}$' then
        return;
      end if;
      -- wa.me numbers are international without '+'; a local '0917...' is read as typed
      v_phone := private.canonical_phone(case when left(v_number, 1) in ('+', '0') then v_number else '+' || v_number end);
      if v_phone is not null then
        kind := 'mobile';
        canonical := v_phone;
      end if;
      return;
    when 'whatsapp-group' then
      if segs[1] ~* url_safe and v_fl <> 'invite' then
        canonical := 'chat.whatsapp.com/' || segs[1];
      end if;
    when 'shopee' then
      -- a product page names its shop: /Name-of-item-i.<shop>.<item> or /product/<shop>/<item>
      m := regexp_match(coalesce(segs[cardinality(segs)], ''), '-i\.([0-9]+)\.[0-9]+$');
      if m is not null then
        canonical := 'shopee.ph/shop/' || m[1];
      elsif v_fl in ('product', 'shop') and segs[2] ~ '^[0-9]+$' then
        canonical := 'shopee.ph/shop/' || segs[2];
      elsif not (v_fl = any (v_reserved)) and cardinality(segs) = 1 then
        canonical := 'shopee.ph/' || private.account_name(v_first);
      end if;
    when 'lazada' then
      if v_fl = 'shop' then
        canonical := 'lazada.com.ph/shop/' || private.account_name(segs[2]);
      end if;
    when 'google-docs' then
      if v_fl = 'forms' and lower(coalesce(segs[2], '')) = 'd' then
        if lower(coalesce(segs[3], '')) = 'e' then
          canonical := case when segs[4] ~* url_safe then 'docs.google.com/forms/d/e/' || segs[4] end;
        else
          canonical := case when segs[3] ~* url_safe then 'docs.google.com/forms/d/' || segs[3] end;
        end if;
      end if;
    when 'google-sites' then
      if v_fl in ('view', 'site') then
        canonical := 'sites.google.com/' || v_fl || '/' || private.account_name(segs[2]);
      end if;
    when 'linktree' then
      if not v_fl = any (v_reserved) then
        canonical := 'linktr.ee/' || private.account_name(v_first);
      end if;
    else
      null;
  end case;
  if canonical is not null then
    kind := 'social';
  end if;
end
$$;
comment on function private.platform_account(text) is
  'The account a link on a shared platform names (kind social: facebook.com/<page>, t.me/<name> ...), a chat link''s phone number (kind mobile), or a short link with its path (kind website); nulls when the value is none of these. Twin of platformAccount in canonical.ts.';

create or replace function public.canonical_identifier(kind text, value text)
returns text
language plpgsql
immutable parallel safe
set search_path = ''
as $$
declare
  s text := btrim(private.clean_identifier_text(value));
  a record;
begin
  if s is null or s = '' then
    return null;
  end if;
  case lower(kind)
    when 'mobile' then
      -- a WhatsApp or Viber chat link is its number (its other digits are not)
      select * into a from private.platform_account(s);
      if a.kind = 'mobile' then
        return a.canonical;
      end if;
      return private.canonical_phone(s);
    when 'email' then
      return nullif(lower(replace(btrim(regexp_replace(s, '^(mailto: *)+', '', 'i')), U&'\0130', U&'i\0307')), '');
    when 'website' then
      -- an account on a shared platform, a chat link's number or a short link is that, not the platform
      select * into a from private.platform_account(s);
      return coalesce(a.canonical, private.canonical_host(s));
    when 'social' then
      select * into a from private.platform_account(s);
      return case when a.kind = 'social' then a.canonical end;
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
        using errcode = '22023', hint = 'Use one of mobile, email, website, ewallet, crypto, social.';
  end case;
end
$$;
comment on function public.canonical_identifier(text, text) is
  'Canonical form of an identifier of the given kind (mobile, email, website, ewallet, crypto, social); see the migration headers for the rules.';

create or replace function public.detect_identifier_kind(value text)
returns text
language plpgsql
immutable parallel safe
set search_path = ''
as $$
declare
  -- ideographic and full-width full stops separate labels as '.' does
  s text := translate(btrim(private.clean_identifier_text(value)), U&'\3002\FF0E\FF61', '...');
  a record;
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
    select * into a from private.platform_account(s);
    return coalesce(a.kind, 'website');
  end if;
  if s ~ '^[1-9A-HJ-NP-Za-km-z]{25,}$' then
    return 'crypto';
  end if;
  return 'ewallet';
end
$$;
comment on function public.detect_identifier_kind(text) is
  'Kind (mobile, email, website, ewallet, crypto, social) a typed identifier most likely is; used by search.';

grant execute on function private.clean_identifier_text(text), private.identifier_query_param(text, text),
  private.account_name(text), private.platform_account(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Reports: an account is reported as what it is, and a platform itself is not reported
-- ---------------------------------------------------------------------------------------------
/**
 * Before a report is written (before reports_before_write, which sets the canonical form): a 'website'
 * that is an account on a shared platform becomes 'social', and a chat link to a phone number 'mobile';
 * a 'social' value that names no account, or a 'website' that is a platform's own host (facebook.com,
 * bit.ly: every account or short link there would read as reported), is refused with a clear message.
 */
create or replace function private.reports_account_kind()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_clean text := btrim(private.clean_identifier_text(new.reported_account));
  a record;
begin
  select * into a from private.platform_account(v_clean);
  if new.reported_account_type = 'website' and a.kind in ('social', 'mobile') then
    new.reported_account_type := a.kind::public.reported_account_type;
  elsif new.reported_account_type = 'social' and a.kind is distinct from 'social' then
    raise exception 'not a link to a social media or chat account: give the link to the page, profile, group or account (for example facebook.com/PageName or t.me/name)'
      using errcode = '22023';
  elsif new.reported_account_type = 'website' and a.kind is null
        and private.canonical_host(v_clean) in ('facebook.com', 'fb.com', 'fb.me', 'm.me', 'messenger.com',
          'instagram.com', 'tiktok.com', 'x.com', 'twitter.com', 'youtube.com', 't.me', 'telegram.me', 'wa.me',
          'whatsapp.com', 'chat.whatsapp.com', 'shopee.ph', 'lazada.com.ph', 'docs.google.com', 'sites.google.com',
          'google.com', 'linktr.ee', 'bit.ly', 'bitly.com', 'tinyurl.com', 't.co', 'goo.gl', 'is.gd', 'v.gd',
          'cutt.ly', 'rb.gy', 'shorturl.at', 'ow.ly', 's.id', 'tiny.cc', 'rebrand.ly', 't.ly', 'forms.gle',
          'vercel.app', 'netlify.app', 'pages.dev', 'web.app', 'firebaseapp.com', 'github.io', 'blogspot.com',
          'wixsite.com', 'weebly.com', 'herokuapp.com', 'glitch.me', 'repl.co', 'onrender.com') then
    raise exception 'a platform shared by many accounts cannot be reported as a whole: give the link to the account, page or short link itself'
      using errcode = '22023';
  end if;
  return new;
end
$$;
comment on function private.reports_account_kind() is
  'Trigger: a website report of a platform account becomes social (a chat link mobile); refuses a social value naming no account and a platform''s own host.';
revoke execute on function private.reports_account_kind() from public, anon;
grant execute on function private.reports_account_kind() to authenticated, service_role;
-- named to fire before reports_before_write (triggers fire in name order)
create trigger reports_account_kind before insert or update of reported_account_type, reported_account on public.reports
  for each row execute function private.reports_account_kind();

-- ---------------------------------------------------------------------------------------------
-- Statistics: the new account type in the series (by_account_type gains 'social')
-- ---------------------------------------------------------------------------------------------
create or replace function private.stats_series(unit text, from_day date, to_day date)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_first date := date_trunc(unit, from_day::timestamp)::date;
  v_last date := date_trunc(unit, to_day::timestamp)::date;
  v_out jsonb;
begin
  -- plpgsql, not sql: its plans are cached per connection, and one pass with filtered sums per period
  -- costs a fraction of one aggregation per breakdown.
  with r as (
    select w.week as period, w.incident_type, w.reported_account_type, w.status, w.report_count
    from private.stats_weekly w
    where unit = 'week' and w.week between v_first and v_last
    union all
    select m.month, m.incident_type, m.reported_account_type, m.status, m.report_count
    from private.stats_monthly m
    where unit = 'month' and m.month between v_first and v_last
  ),
  -- Aggregated once per period first (materialized), then joined to the list of periods: joining the
  -- periods to the raw rollup rows let the planner rescan them once per period.
  a as materialized (
    select r.period,
           sum(r.report_count) as total,
           sum(r.report_count) filter (where r.incident_type = 'scam') as scam,
           sum(r.report_count) filter (where r.incident_type = 'hacked') as hacked,
           sum(r.report_count) filter (where r.incident_type = 'spam') as spam,
           sum(r.report_count) filter (where r.reported_account_type = 'mobile') as mobile,
           sum(r.report_count) filter (where r.reported_account_type = 'email') as email,
           sum(r.report_count) filter (where r.reported_account_type = 'ewallet') as ewallet,
           sum(r.report_count) filter (where r.reported_account_type = 'crypto') as crypto,
           sum(r.report_count) filter (where r.reported_account_type = 'website') as website,
           sum(r.report_count) filter (where r.reported_account_type = 'social') as social,
           sum(r.report_count) filter (where r.status = 'verified') as verified,
           sum(r.report_count) filter (where r.status = 'pending') as pending
    from r
    group by r.period
  ),
  s as (
    select p::date as period,
           coalesce(a.total, 0) as total, coalesce(a.scam, 0) as scam, coalesce(a.hacked, 0) as hacked,
           coalesce(a.spam, 0) as spam, coalesce(a.mobile, 0) as mobile, coalesce(a.email, 0) as email,
           coalesce(a.ewallet, 0) as ewallet, coalesce(a.crypto, 0) as crypto, coalesce(a.website, 0) as website,
           coalesce(a.social, 0) as social,
           coalesce(a.verified, 0) as verified, coalesce(a.pending, 0) as pending
    from generate_series(v_first::timestamp, v_last::timestamp, ('1 ' || unit)::interval) p
    left join a on a.period = p::date
  )
  select coalesce(jsonb_agg(jsonb_build_object(
           'period', s.period, 'total', s.total,
           'by_incident_type', jsonb_build_object('scam', s.scam, 'hacked', s.hacked, 'spam', s.spam),
           'by_account_type', jsonb_build_object('mobile', s.mobile, 'email', s.email, 'ewallet', s.ewallet,
                                                 'crypto', s.crypto, 'website', s.website, 'social', s.social),
           'by_status', jsonb_build_object('verified', s.verified, 'pending', s.pending))
           order by s.period), '[]'::jsonb)
  into v_out
  from s;
  return v_out;
end
$$;
comment on function private.stats_series(text, date, date) is 'Reports per week or month between two days from the rollups: [{period, total, by_incident_type, by_account_type, by_status}], empty periods as 0.';
revoke execute on function private.stats_series(text, date, date) from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Existing data, re-canonicalised from the stored raw value
-- ---------------------------------------------------------------------------------------------
-- A report whose raw value now reads differently (a platform account stored as the platform's host, a
-- short link stored as the shortener, a number with invisible marks or full-width digits) is written
-- again: the triggers set its kind and canonical form and move its counts in the statistics. A value
-- that would now be no identifier at all stays as it was.
update public.reports r
set reported_account = r.reported_account
where (r.reported_account_type = 'website' and (private.platform_account(btrim(private.clean_identifier_text(r.reported_account)))).kind in ('social', 'mobile'))
   or (public.canonical_identifier(r.reported_account_type::text, r.reported_account) is not null
       and public.canonical_identifier(r.reported_account_type::text, r.reported_account) is distinct from r.reported_account_canonical);

-- Notify Me registrations likewise (as in 20261124170000_detect_bracketed_country_code.sql): one whose
-- new form the same user already watches is that watch twice and goes.
create temporary table redetected as
  select r.id, r.user_id, public.canonical_identifier_auto(r.asset_name) as canonical
  from public.notify_registrations r
  where (r.identifier_kind is distinct from public.detect_identifier_kind(r.asset_name)
         or r.identifier_canonical is distinct from public.canonical_identifier_auto(r.asset_name))
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
