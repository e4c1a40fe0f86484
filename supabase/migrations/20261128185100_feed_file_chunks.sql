-- Issue 34: a whole-feed file of 100,000 identifiers is 30 to 40 MB. Read as one value, the
-- open-data function held it several times over (the driver's buffer, the string, the upload) and
-- went past the 256 MB an Edge Function has. public.feed_file_chunks answers the same body as
-- public.feed_file_body in pieces of at most chunk_chars characters (rows in order), so no single
-- message is large; the function joins them into one Blob for Storage.

/**
 * public.feed_file_body's file in pieces: one row per piece (part 1, 2, ...), each with the whole
 * file's SHA-256, size in bytes and number of items. Service role only.
 */
create function public.feed_file_chunks(
  tlp text, part text, grp text, period text, format_key text, prefix text, separator text, suffix text,
  chunk_chars integer default 1048576)
returns table (piece integer, chunk text, sha256 text, bytes integer, items integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_file record;
  v_size integer := least(greatest(coalesce(feed_file_chunks.chunk_chars, 1048576), 1024), 16777216);
begin
  select * into v_file
  from public.feed_file_body(feed_file_chunks.tlp, feed_file_chunks.part, feed_file_chunks.grp,
                             feed_file_chunks.period, feed_file_chunks.format_key, feed_file_chunks.prefix,
                             feed_file_chunks.separator, feed_file_chunks.suffix) b;
  return query
  select g::int, substr(v_file.body, (g - 1) * v_size + 1, v_size), v_file.sha256, v_file.bytes, v_file.items
  from generate_series(1, greatest(1, ceil(char_length(v_file.body)::numeric / v_size)::int)) g
  order by g;
end
$$;
comment on function public.feed_file_chunks(text, text, text, text, text, text, text, text, integer) is
  'Service role only (the open-data job): public.feed_file_body''s file in pieces, for a function with 256 MB.';
revoke execute on function public.feed_file_chunks(text, text, text, text, text, text, text, text, integer) from public, anon, authenticated;
grant execute on function public.feed_file_chunks(text, text, text, text, text, text, text, text, integer) to service_role;
