import { env } from './env';

/** Who runs the site and how to reach them; shown on the privacy, terms, FAQ and contact pages. */
export const site = {
  name: 'ScamCheck',
  supportEmail: env.VITE_SUPPORT_EMAIL,
  address: {
    lines: [
      'ScamCheck Philippines',
      'Unit 1204, 1000 Roxas Boulevard, Ermita',
      'Manila 1000, Metro Manila',
      'Philippines',
    ],
  },
  complaintSiteUrl: env.VITE_COMPLAINT_SITE_URL,
  lastUpdated: 'November 2026',
} as const;
