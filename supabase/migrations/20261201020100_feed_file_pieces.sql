-- Issue 34, speed: a whole-feed file handed to the open-data job in pieces without walking the file
-- once per piece (docs/feeds.md, "How it is built"; docs/performance.md#feeds).
--
-- public.feed_file_chunks cut the assembled body with substr(body, start, 1M characters). In a UTF-8
-- database substr finds a character position by walking the text from its start, so the 40 pieces of
-- a 40 MB file walked 800 MB: 8.5 s of Postgres CPU for one file in the benchmark, against 0.4 s to
-- build it. public.feed_file_pieces answers the same rows (the same body, SHA-256, size and items;
-- pieces of at most chunk_bytes bytes, each ending on a character boundary) by cutting the body's
-- UTF-8 bytes, where an offset costs nothing. feed_file_chunks stays for the previous job.

/**
 * public.feed_file_body's file in pieces of at most chunk_bytes bytes of UTF-8 (never splitting a
 * character): one row per piece (1, 2, ...), each with the whole file's SHA-256, size in bytes and
 * number of items. Service role only.
 */
create function public.feed_file_pieces(
  tlp text, part text, grp text, period text, format_key text, prefix text, separator text, suffix text,
  chunk_bytes integer default 1048576)
returns table (piece integer, chunk text, sha256 text, bytes integer, items integer)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_file record;
  v_data bytea;
  v_len integer;
  v_size integer := least(greatest(coalesce(feed_file_pieces.chunk_bytes, 1048576), 1024), 16777216);
  v_start integer := 1;
  v_end integer;
  v_piece integer := 0;
begin
  select * into v_file
  from public.feed_file_body(feed_file_pieces.tlp, feed_file_pieces.part, feed_file_pieces.grp,
                             feed_file_pieces.period, feed_file_pieces.format_key, feed_file_pieces.prefix,
                             feed_file_pieces.separator, feed_file_pieces.suffix) b;
  v_data := convert_to(v_file.body, 'UTF8');
  v_file.body := null;
  v_len := octet_length(v_data);
  loop
    -- v_end: the first byte of the next piece, moved back off UTF-8 continuation bytes (10xxxxxx).
    v_end := least(v_start + v_size, v_len + 1);
    while v_end <= v_len and get_byte(v_data, v_end - 1) between 128 and 191 loop
      v_end := v_end - 1;
    end loop;
    v_piece := v_piece + 1;
    piece := v_piece;
    chunk := convert_from(substring(v_data from v_start for v_end - v_start), 'UTF8');
    sha256 := v_file.sha256;
    bytes := v_file.bytes;
    items := v_file.items;
    return next;
    v_start := v_end;
    exit when v_start > v_len;
  end loop;
end
$$;
comment on function public.feed_file_pieces(text, text, text, text, text, text, text, text, integer) is
  'Service role only (the open-data job): public.feed_file_body''s file in pieces of UTF-8 bytes, for a function with 256 MB.';
revoke execute on function public.feed_file_pieces(text, text, text, text, text, text, text, text, integer) from public, anon, authenticated;
grant execute on function public.feed_file_pieces(text, text, text, text, text, text, text, text, integer) to service_role;
