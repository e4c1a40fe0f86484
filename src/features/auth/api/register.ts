import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { currentLanguage } from '@/i18n';
import { paths } from '@/config/paths';

export const MIN_PASSWORD_LENGTH = 8;

export const registerInputSchema = z.object({
  name: z.string().trim().min(1, 'validation.nameRequired').max(100, 'validation.nameTooLong'),
  email: z.string().trim().min(1, 'validation.emailRequired').pipe(z.email('validation.email')),
  password: z
    .string()
    .min(1, 'validation.passwordRequired')
    .min(MIN_PASSWORD_LENGTH, 'validation.passwordTooShort'),
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

/**
 * Creates the account; Supabase Auth then e-mails the 10-digit code and the link to
 * /two-factor-authentication/{token hash}. The name travels as user metadata, from which the
 * database creates the profile.
 */
export async function register({ name, email, password }: RegisterInput) {
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      // The language the visitor registered in: the confirmation e-mail is written in it, and the
      // database copies it into the profile (profiles.language) for every later e-mail.
      data: { name, locale: currentLanguage() },
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
