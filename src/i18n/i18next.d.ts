import 'i18next';
import type en from './locales/en.json';
import type adminUsers from './locales/admin-users/en.json';

// Keys are checked at compile time against the English catalogue; the catalogue test checks that
// Filipino has exactly the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en; adminUsers: typeof adminUsers };
    returnNull: false;
  }
}
