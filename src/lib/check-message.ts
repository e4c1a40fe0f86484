/**
 * Message checking (extraction, signals, verdict) as the edge functions run it: one implementation,
 * re-exported for the SPA like canonical.ts.
 */
export * from '../../supabase/functions/_shared/check-message.ts';
