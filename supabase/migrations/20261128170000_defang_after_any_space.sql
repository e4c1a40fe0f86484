-- Defanging (hxxp:// -> http://) looked past leading spaces only, while the crypto rule drops every kind of
-- white space: a tab or line break before 'hxxp://' gave 'hxxp://...' on the first pass and 'http://...'
-- on the second (found by tests/fuzz/canonical.ts). The prefix now takes the white space the kinds drop,
-- as canonical.ts does.
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
           '^([\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*)h(xx)p(s?)(\[:\]|:)//', '\1http\3://', 'i'),
           '\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)', '.', 'gi'),
           '\[:\]', ':', 'g'),
           '\[@\]|\(@\)|\[at\]|\(at\)', '@', 'gi'),
           '\[/\]', '/', 'g')
$$;
