/**
 * The generated database types (`npm run db:types`, Supabase's own generator). The file itself lives
 * with the edge functions' shared code, because `supabase functions deploy` bundles only what a
 * function reaches inside supabase/functions; the app reads the same file through this one.
 */
export * from '../../supabase/functions/_shared/database.types.ts';
