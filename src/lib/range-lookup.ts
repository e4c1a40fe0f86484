/**
 * The private range lookup's client (canonicalise, hash, send 5 hex characters, find the rest), shared
 * with the api function and any program; see supabase/functions/_shared/range.ts for the rules.
 */
export * from '../../supabase/functions/_shared/range.ts';
