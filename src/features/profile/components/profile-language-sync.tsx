import { useEffect, useRef } from 'react';
import { useCurrentProfile, useUser } from '@/lib/auth';
import { useLanguage } from '@/i18n/use-language';
import { useUpdateLanguage } from '../api/update-language';

/**
 * A signed-in user's language lives in their profile: on sign-in the app takes it up, and a switch
 * made while signed in (header or profile page) is saved there, so their e-mails follow it. Visitors
 * keep theirs in localStorage only.
 */
export function ProfileLanguageSync() {
  const user = useUser();
  const profile = useCurrentProfile();
  const { language, setLanguage } = useLanguage();
  const { mutate } = useUpdateLanguage();
  const adoptedFor = useRef<string | null>(null);

  useEffect(() => {
    if (!user || !profile.data || profile.data.id !== user.id) {
      if (!user) adoptedFor.current = null;
      return;
    }
    if (adoptedFor.current !== user.id) {
      adoptedFor.current = user.id;
      if (profile.data.language !== language) void setLanguage(profile.data.language);
      return;
    }
    if (profile.data.language !== language) mutate({ userId: user.id, language });
  }, [user, profile.data, language, setLanguage, mutate]);

  return null;
}
