-- Issue 15: each user's language (English or Filipino). The app shows itself in it after sign-in, and
-- every e-mail follows it: the notification e-mails read it here, and Supabase Auth's templates read
-- the copy in the user's metadata (`{{ .Data.locale }}`), which the trigger below keeps equal.

alter table public.profiles
  add column language text not null default 'en' constraint profiles_language_check check (language in ('en', 'fil'));
comment on column public.profiles.language is 'The user''s language, ''en'' or ''fil'': the app''s and the e-mails''. Copied to auth.users.raw_user_meta_data.locale for the Auth e-mail templates.';

-- Only the owner changes it: the existing update policy limits updates to one's own row.
grant update (language) on public.profiles to authenticated;

/** A new profile takes the language the user signed up in (sign-up metadata `locale`). */
create function private.profile_language_from_signup()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select case when u.raw_user_meta_data ->> 'locale' = 'fil' then 'fil' else 'en' end
    into new.language
    from auth.users u
   where u.id = new.id;
  new.language := coalesce(new.language, 'en');
  return new;
end
$$;
comment on function private.profile_language_from_signup() is 'Trigger: a new profile''s language comes from the sign-up metadata (locale), English otherwise.';
create trigger profile_language_from_signup
  before insert on public.profiles
  for each row execute function private.profile_language_from_signup();

/** Auth's e-mails (confirmation, recovery, e-mail change) choose their language by `.Data.locale`. */
create function private.sync_profile_language()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update auth.users
     set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || jsonb_build_object('locale', new.language)
   where id = new.id;
  return new;
end
$$;
comment on function private.sync_profile_language() is 'Trigger: copies a changed profiles.language to auth.users.raw_user_meta_data.locale, which the Auth e-mail templates read.';
create trigger on_profile_language_changed
  after update of language on public.profiles
  for each row when (old.language is distinct from new.language)
  execute function private.sync_profile_language();

revoke all on function private.profile_language_from_signup() from public;
revoke all on function private.sync_profile_language() from public;
