-- Issue 14, section 4: a range lookup that reveals nothing (as Have I Been Pwned's Pwned Passwords
-- range API). A client hashes an identifier's canonical form (SHA-256, lower-case hex), sends only the
-- first 5 hex characters, and gets back every reported identifier whose hash starts with them: the rest
-- of the hash, its report count and its risk, computed as the search computes them. The api function
-- pads the answer with decoys so its size says nothing. Nothing is logged: the server never learns
-- which identifier was meant (about 1 in 1,048,576 of all hashes share a prefix).

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
comment on function private.identifier_hash_prefix(text) is 'First 5 hex characters of sha256(canonical identifier), the key of public.range_lookup.';
revoke execute on function private.identifier_hash_prefix(text) from public, anon, authenticated;

create index identifier_report_counts_hash_prefix_idx
  on public.identifier_report_counts (private.identifier_hash_prefix(identifier_canonical))
  where report_count > 0;

/**
 * Every reported identifier whose SHA-256 starts with prefix (5 hex characters): [{suffix (the other
 * 59 hex characters), count (visible reports, as search counts them), risk_level 0-100, risk_label}],
 * ordered by suffix. Service role only: the api function calls it after the caller's API limit.
 */
create function public.range_lookup(prefix text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if prefix is null or prefix !~ '^[0-9a-fA-F]{5}$' then
    raise exception 'prefix must be 5 hex characters' using errcode = '22023';
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'suffix', substr(h.hash, 6),
             'count', c.report_count,
             'risk_level', r.risk,
             'risk_label', case when r.risk >= 60 then 'high' when r.risk >= 25 then 'medium' else 'low' end)
           order by h.hash), '[]'::jsonb)
    from public.identifier_report_counts c
    cross join lateral (select encode(sha256(convert_to(c.identifier_canonical, 'UTF8')), 'hex') as hash) h
    cross join lateral (
      select round(100 * (1 - exp(-private.identifier_weight(c.identifier_canonical) / 2)))::int as risk
    ) r
    where private.identifier_hash_prefix(c.identifier_canonical) = lower(range_lookup.prefix)
      and c.report_count > 0
  );
end
$$;
comment on function public.range_lookup(text) is
  'Service role only (GET /api/v1/range/{prefix}): reported identifiers whose sha256 starts with prefix, as [{suffix, count, risk_level, risk_label}].';
revoke execute on function public.range_lookup(text) from public, anon, authenticated;
grant execute on function public.range_lookup(text) to service_role;
