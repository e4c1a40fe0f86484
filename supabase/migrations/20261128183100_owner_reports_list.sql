-- Right of reply (issue 32): the owner's screen lists the reports on their proved identifier, so they
-- can ask for one's removal (public.owner_request_removal) without the e-mailed link. Reporters stay
-- hidden: only what the public results page shows of a report, and its id.

/** The reports on an identifier the caller holds a live proof of, newest first (at most 100). */
create function public.owned_identifier_reports(identifier text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if auth.uid() is null or (private.live_proof(auth.uid(), identifier)).id is null then
    raise exception 'prove that you own this identifier first' using errcode = '42501';
  end if;
  return (
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', r.id, 'incident_type', r.incident_type, 'status', r.status, 'created_at', r.created_at
           ) order by r.created_at desc), '[]'::jsonb)
    from (select r.id, r.incident_type, r.status, r.created_at from public.reports r
           where r.reported_account_canonical = owned_identifier_reports.identifier
             and r.status in ('pending', 'verified')
           order by r.created_at desc
           limit 100) r
  );
end
$$;
revoke execute on function public.owned_identifier_reports(text) from public;
grant execute on function public.owned_identifier_reports(text) to authenticated;
comment on function public.owned_identifier_reports(text) is
  'A verified owner: the pending and verified reports on their identifier (id, incident type, status, date; never the reporter), to ask for a removal.';
