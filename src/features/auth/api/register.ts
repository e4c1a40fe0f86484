import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { paths } from '@/config/paths';

export const MIN_PASSWORD_LENGTH = 8;

export const registerInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(100, 'Name is too long'),
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Enter a valid e-mail address')),
  password: z
    .string()
    .min(1, 'Password is required')
    .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`),
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

/**
 * Creates the account; Supabase Auth then e-mails the 6-digit code and the link to
 * /two-factor-authentication/{token hash}. The name travels as user metadata, from which the
 * database creates the profile.
 */
export async function register({ name, email, password }: RegisterInput) {
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { name },
      emailRedirectTo: `${window.location.origin}${paths.auth.twoFactor.getHref()}`,
    },
  });
  if (error) throw error;
  return data;
}

export function useRegister({ onSuccess }: { onSuccess?: (input: RegisterInput) => void } = {}) {
  return useMutation({
    mutationFn: register,
    onSuccess: (_data, input) => onSuccess?.(input),
  });
}
