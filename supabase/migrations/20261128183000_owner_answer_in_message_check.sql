-- Right of reply (issue 32, item 2): the owner's answer next to the reports in the message check.
--
-- The /check page looks identifiers up privately (the range lookup: only 5 hex characters of each
-- identifier's SHA-256 leave the browser). The owner statements are looked up the same way: by those
-- prefixes, answered with each statement's full hash, which the browser matches against its own. The
-- legacy API's POST /check-message, which receives the message anyway, uses public.owner_statements_for.

/**
 * Public: the live, unhidden owner statements whose identifier's SHA-256 (lower-case hex of the
 * canonical form, as the range lookup hashes it) starts with one of up to 50 five-character prefixes,
 * [{hash, statement, updated_at, verified_by, verified_at}]; never the identifier nor who wrote it.
 */
create function public.owner_statements_in_ranges(prefixes text[])
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if prefixes is null or cardinality(prefixes) > 50
     or exists (select 1 from unnest(prefixes) p where p is null or p !~ '^[0-9a-f]{5}$') then
    raise exception 'prefixes: up to 50 prefixes of 5 lower-case hex characters' using errcode = '22023';
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'hash', h.hash,
             'statement', s.body,
             'updated_at', s.updated_at,
             'verified_by', p.method,
             'verified_at', p.verified_at
           ) order by h.hash, s.updated_at desc), '[]'::jsonb)
    from public.owner_statements s
    cross join lateral (select encode(sha256(convert_to(s.identifier_canonical, 'UTF8')), 'hex') as hash) h
    cross join lateral private.live_proof(s.user_id, s.identifier_canonical) p
    where s.hidden_at is null
      and p.id is not null
      and left(h.hash, 5) = any (prefixes)
  );
end
$$;
revoke execute on function public.owner_statements_in_ranges(text[]) from public;
grant execute on function public.owner_statements_in_ranges(text[]) to anon, authenticated, service_role;
comment on function public.owner_statements_in_ranges(text[]) is
  'Public: live, unhidden owner statements whose identifier hash (SHA-256 hex of the canonical form) starts with one of up to 50 5-hex prefixes, [{hash, statement, updated_at, verified_by, verified_at}]; the private message check matches the hash itself.';
