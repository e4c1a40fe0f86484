import 'i18next';
import type en from './locales/en.json';
import type enDashboard from './locales/dashboard/en.json';
import type adminUsers from './locales/admin-users/en.json';

// Keys are checked at compile time against the English catalogues (the public one and the dashboard's,
// which index.ts looks up as one: fallbackNS); the catalogue test checks that Filipino has exactly the
// same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en & typeof enDashboard; adminUsers: typeof adminUsers };
    returnNull: false;
  }
}
