import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { ParseKeys } from 'i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/submit-button';
import { errorMessage } from '@/lib/errors';
import { supabase } from '@/lib/supabase';

/** supabase/config.toml: minimum_password_length = 8. */
export const MIN_PASSWORD_LENGTH = 8;

/** Messages are catalogue keys (src/i18n/locales), which FormMessage translates. */
export const changePasswordSchema = z
  .object({
    /** The current password, or the code e-mailed by "E-mail me a code instead" (`useCode`). */
    proof: z.string().trim().min(1, 'changePassword.validation.currentRequired'),
    useCode: z.boolean(),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, 'validation.passwordTooShort')
      .max(72, 'changePassword.validation.tooLong'),
    confirmPassword: z.string().min(1, 'changePassword.validation.confirmRequired'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'changePassword.validation.mismatch',
  })
  .refine((v) => !v.useCode || /^\d{6,10}$/.test(v.proof), {
    path: ['proof'],
    message: 'changePassword.validation.codeFormat',
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** What Supabase Auth's refusals mean to the person at the form, and which field they belong to. */
type AuthFailure = { code?: string; status?: number; message: string };

function proofError(error: AuthFailure, useCode: boolean): ParseKeys | null {
  if (error.code === 'invalid_credentials') return 'changePassword.validation.wrongPassword';
  if (error.code === 'reauthentication_not_valid' || error.code === 'otp_expired')
    return 'changePassword.validation.codeInvalid';
  if (error.code === 'reauthentication_needed')
    return useCode ? 'changePassword.validation.codeRequired' : 'changePassword.validation.currentRequired';
  if (error.status === 429) return 'changePassword.validation.tooManyTries';
  return null;
}

/**
 * Change Password from the user menu (the old site logged out instead). Supabase Auth asks for proof
 * that the person is the account's owner and not only someone holding its access token
 * (`secure_password_change`): the current password, or a code it e-mails (reauthenticate) for those
 * who forgot it. The session stays valid; other sessions end.
 */
export function ChangePasswordDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { proof: '', useCode: false, password: '', confirmPassword: '' },
  });
  const useCode = useWatch({ control: form.control, name: 'useCode' });
  const sendCode = useMutation({
    mutationFn: async () => {
      const { error } = await supabase.auth.reauthenticate();
      if (error) throw error;
    },
    onSuccess: () => {
      form.setValue('useCode', true);
      form.setValue('proof', '');
      form.clearErrors('proof');
      toast.success(t('changePassword.codeSent'));
    },
  });
  const mutation = useMutation({
    mutationFn: async ({ password, proof, useCode: withCode }: ChangePasswordInput) => {
      const { error } = await supabase.auth.updateUser(
        withCode ? { password, nonce: proof } : { password, current_password: proof },
      );
      if (error) throw error;
    },
    onSuccess: () => {
      toast.success(t('changePassword.changed'));
      form.reset();
      onOpenChange(false);
    },
    // A wrong password or code is said under its field; anything else is a toast.
    meta: {
      errorToast: (error) =>
        proofError(error as AuthFailure, form.getValues('useCode')) ? null : errorMessage(error),
    },
    onError: (error: AuthFailure) => {
      const message = proofError(error, form.getValues('useCode'));
      if (message) form.setError('proof', { message });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('dashboard.topbar.changePassword')}</DialogTitle>
          <DialogDescription>
            {t('changePassword.description', { min: MIN_PASSWORD_LENGTH })}
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form
            noValidate
            onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
            className="flex flex-col gap-4"
          >
            <FormField
              control={form.control}
              name="proof"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>
                    {useCode ? t('changePassword.code') : t('changePassword.currentPassword')}
                  </FormLabel>
                  <FormControl>
                    {useCode ? (
                      <Input inputMode="numeric" autoComplete="one-time-code" maxLength={10} {...field} />
                    ) : (
                      <Input type="password" autoComplete="current-password" {...field} />
                    )}
                  </FormControl>
                  <FormMessage />
                  <Button
                    type="button"
                    variant="link"
                    className="h-auto justify-self-start p-0 text-sm"
                    disabled={sendCode.isPending}
                    onClick={() => sendCode.mutate()}
                  >
                    {useCode ? t('changePassword.emailNewCode') : t('changePassword.emailCode')}
                  </Button>
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="password"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('changePassword.newPassword')}</FormLabel>
                  <FormControl>
                    <Input type="password" autoComplete="new-password" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="confirmPassword"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('changePassword.confirmPassword')}</FormLabel>
                  <FormControl>
                    <Input type="password" autoComplete="new-password" {...field} />
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            <SubmitButton isPending={mutation.isPending} className="self-end" />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
