import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';

/**
 * The product speaks English and Filipino (issue 15). i18next with react-i18next is the React
 * ecosystem's standard: catalogues are plain JSON in the repository, plurals follow each language's
 * CLDR rules (Intl.PluralRules), variables are interpolated, and the language detector handles the
 * browser's language and the remembered choice. English ships with the app; Filipino is a separate
 * chunk fetched only by those who read it.
 *
 * The texts only the dashboard shows (signed-in and admin screens) are a second namespace, `dashboard`
 * (locales/dashboard/<language>.json), fetched with the dashboard's routes (router.tsx), so the public
 * pages' first load carries only public texts. Components use the same keys either way: a key missing
 * from `translation` is looked up in `dashboard` (fallbackNS). Which key lives where follows which code
 * uses it (src/i18n/catalogues.test.ts checks it).
 */
export const LANGUAGES = ['en', 'fil'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where a visitor's choice is kept; a signed-in user's choice is also kept in their profile. */
export const LANGUAGE_STORAGE_KEY = 'language';

/** The name each language calls itself, as the switch shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fil: 'Filipino' };

/** Dates, numbers and pesos are formatted for the Philippines in either language. */
export const INTL_LOCALES: Record<Language, string> = { en: 'en-PH', fil: 'fil-PH' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Browsers say 'fil', 'fil-PH', 'tl' or 'tl-PH' for Filipino/Tagalog; everything else reads English. */
export function toLanguage(tag: string | null | undefined): Language {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return base === 'fil' || base === 'tl' ? 'fil' : 'en';
}

/** The namespace of the dashboard's own texts (see above). */
export const DASHBOARD_NS = 'dashboard';

export const i18n = i18next.createInstance();

i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .use(
    resourcesToBackend((language: string, namespace: string) =>
      namespace === DASHBOARD_NS
        ? import(`./locales/dashboard/${language}.json`)
        : // Admin-only screens keep their texts in namespaces of their own, fetched with the screen, so the
          // public pages' first load does not carry them (tests/bundle-size.test.ts).
          namespace === 'adminUsers'
          ? import(`./locales/admin-users/${language}.json`)
          : import(`./locales/${language}.json`),
    ),
  );

// Synchronous for English (bundled); a Filipino reader's catalogue loads before the first render
// (main.tsx waits for `i18nReady`).
export const i18nReady = i18n.init({
  resources: { en: { translation: en } },
  partialBundledLanguages: true,
  ns: ['translation'],
  defaultNS: 'translation',
  fallbackNS: DASHBOARD_NS,
  supportedLngs: LANGUAGES,
  fallbackLng: 'en',
  load: 'languageOnly',
  initAsync: false,
  detection: {
    // The remembered choice first, then the browser's languages (a first visit follows the browser).
    order: ['localStorage', 'navigator'],
    lookupLocalStorage: LANGUAGE_STORAGE_KEY,
    caches: ['localStorage'],
    convertDetectedLanguage: (lng: string) => toLanguage(lng),
  },
  // React escapes text already.
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  returnNull: false,
});

/**
 * Fetches the dashboard's texts in the current language (and English, its fallback); from then on a
 * language change fetches them too, before it takes effect. Resolves at once when already loaded.
 */
export function loadDashboardTexts(): Promise<void> {
  return i18n.loadNamespaces(DASHBOARD_NS);
}

/** The current language, always one of LANGUAGES. */
export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}

function syncDocumentLanguage() {
  if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();
}
syncDocumentLanguage();
i18n.on('languageChanged', syncDocumentLanguage);
