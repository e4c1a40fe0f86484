import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toLanguage, type Language } from '@/i18n';

/** The reader's language and a way to change it (kept in localStorage; see features/profile for users). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => Promise<unknown> } {
  const { i18n } = useTranslation();
  const language = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  const setLanguage = useCallback((next: Language) => i18n.changeLanguage(next), [i18n]);
  return { language, setLanguage };
}
