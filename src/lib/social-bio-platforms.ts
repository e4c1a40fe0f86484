/**
 * Which social and chat accounts the `ownership` function proves by a code in their public bio, the
 * same rules the function uses (issue 32, docs/right-of-reply.md), re-exported for the owner's screen.
 */
export * from '../../supabase/functions/_shared/social-bio-platforms.ts';
