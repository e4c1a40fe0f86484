-- Anonymous limits per IPv6 /64, not per IPv6 address.
--
-- private.address_key hashed the caller's whole address into the limiter's subject. An IPv6 subscriber
-- is given a /64 (or more) and may use any address in it, so one caller could spend a fresh limit with
-- every request (search scraping through /rest/v1, report floods, the range lookup) and count as many
-- "distinct reporters" as it liked. Now an IPv6 address stands for its /64, as RFC 6177 and every
-- large network treat a subscriber; IPv4 addresses stay whole. Everything that limits or counts per
-- address goes through this function (client_address_key, the edge functions' verified callers, the
-- API's anonymous bucket, the range lookup's batch), so all of them change together.

create or replace function private.address_key(addr inet)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_key text;
begin
  if addr is null then
    return null;
  end if;
  select 'ip:' || left(encode(sha256(convert_to(
           s.value || host(case when family(addr) = 6 then network(set_masklen(addr, 64)) else addr end),
           'UTF8')), 'hex'), 32)
    into v_key
    from private.rate_limit_settings s
    where s.name = 'address_salt';
  return v_key;
end
$$;
comment on function private.address_key(inet) is
  'Salted hash of an address as a rate-limit subject (''ip:<hex>''): an IPv4 address, or the /64 of an IPv6 one; null for null.';
