/**
 * The Go-template subset of Supabase's e-mail templates. It lives with the functions, because the
 * Send Email hook (`supabase/functions/send-email`) renders the same templates on hosted Supabase.
 */
export * from '../../functions/_shared/go-template.ts';
