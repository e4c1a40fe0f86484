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
  /** When the privacy policy and terms last changed (the month they show, in the reader's language). */
  lastUpdated: '2026-11-01',
} as const;
