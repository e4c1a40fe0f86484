/** The owner's answer by hash prefix (issue 32): the same matching the legacy API's message check runs. */
export * from '../../supabase/functions/_shared/owner-statements.ts';
