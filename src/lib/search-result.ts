/** The shape of a search's answer, shared with the edge functions (supabase/functions/_shared/search-result.ts). */
export * from '../../supabase/functions/_shared/search-result.ts';
