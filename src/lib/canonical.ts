/**
 * The canonical-identifier rules the database and the edge functions use, re-exported for the SPA so
 * forms validate and normalise identifiers exactly as the server will (one implementation, pinned by
 * supabase/tests/canonical-vectors.json).
 */
export * from '../../supabase/functions/_shared/canonical.ts';
