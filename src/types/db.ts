/** The app and the edge functions share one set of database helper types (supabase/functions/_shared/database.ts). */
export type { FilledByDatabase } from '../../supabase/functions/_shared/database.ts';
