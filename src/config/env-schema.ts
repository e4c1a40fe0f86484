import * as z from 'zod/mini';

/**
 * The app's build-time settings (VITE_* variables), checked when Vite starts (vite.config.ts's appEnv
 * plugin), so that a wrong value fails the build or the dev server loudly instead of as a confusing
 * network error later. The app reads the checked values (src/config/env.ts) without carrying the
 * validator: it ran in Node, not on the visitor's phone (docs/performance.md). The defaults are the local
 * stack's (`npm start`), whose anon key is a fixed development key like the Supabase CLI's.
 */
const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

const envSchema = z.object({
  VITE_SUPABASE_URL: z._default(z.url(), 'http://127.0.0.1:54321'),
  VITE_SUPABASE_ANON_KEY: z._default(z.string().check(z.minLength(1)), LOCAL_ANON_KEY),
  /** The national cybercrime complaint site; only ever linked to, never fetched. */
  VITE_COMPLAINT_SITE_URL: z._default(z.url(), 'https://cybercrime.gov.ph/'),
  /** Where people write to the team; shown on the privacy, terms and contact pages. */
  VITE_SUPPORT_EMAIL: z._default(z.email(), 'support@scamcheck.ph'),
  /** The payment provider's donation page; amounts are appended as ?amount=. Unset: donations are "coming soon". */
  VITE_DONATION_URL: z.optional(z.url()),
  /** The project's Ethereum address for donations. Unset: the option says it is coming soon. */
  VITE_ETH_DONATION_ADDRESS: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))),
});

export type Env = z.infer<typeof envSchema>;

/** The settings the app gets: the schema's fields only, checked, with their defaults. */
export function parseEnv(source: Record<string, unknown>): Env {
  // An empty variable means "not set", as in a .env file with `VITE_X=`.
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== '' && v !== undefined));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new Error(`Invalid environment variables:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}
