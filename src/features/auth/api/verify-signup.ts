import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';

export const otpInputSchema = z.object({
  email: z.string().trim().min(1, 'validation.emailRequired').pipe(z.email('validation.email')),
  token: z
    .string()
    .trim()
    .min(1, 'validation.otpRequired')
    .regex(/^\d{6,10}$/, 'validation.otpFormat'),
});
export type OtpInput = z.infer<typeof otpInputSchema>;

export type VerifySignupInput = { email: string; token: string } | { tokenHash: string };

/** Confirms the e-mail either with the typed code or with the token hash from the e-mail's link. */
export async function verifySignup(input: VerifySignupInput) {
  const { data, error } =
    'tokenHash' in input
      ? await supabase.auth.verifyOtp({ token_hash: input.tokenHash, type: 'signup' })
      : await supabase.auth.verifyOtp({ email: input.email, token: input.token, type: 'signup' });
  if (error) throw error;
  return data;
}

export function useVerifySignup({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: verifySignup, onSuccess: () => onSuccess?.() });
}

/** Sends the confirmation e-mail again, for codes that expired or never arrived. */
export async function resendSignupCode(email: string) {
  const { error } = await supabase.auth.resend({ type: 'signup', email });
  if (error) throw error;
}

/** Resending the code as a mutation: a failure is the MutationCache's toast (src/lib/react-query.ts). */
export function useResendSignupCode({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({ mutationFn: resendSignupCode, onSuccess: () => onSuccess?.() });
}
