import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { SubmitButton } from '@/components/submit-button';
import { otpInputSchema, useResendSignupCode, useVerifySignup, type OtpInput } from '../api/verify-signup';

/** The one-time-password entry: the e-mail (prefilled when remembered) and the 10-digit code. */
export function OtpForm({ defaultEmail, onVerified }: { defaultEmail: string; onVerified: () => void }) {
  const { t } = useTranslation();
  const form = useForm<OtpInput>({
    resolver: zodResolver(otpInputSchema),
    defaultValues: { email: defaultEmail, token: '' },
  });
  const verification = useVerifySignup({ onSuccess: onVerified });
  const resending = useResendSignupCode({ onSuccess: () => toast.success(t('auth.otp.newCodeSent')) });

  async function resend() {
    const valid = await form.trigger('email');
    if (valid) resending.mutate(form.getValues('email'));
  }

  return (
    <Form {...form}>
      <form
        noValidate
        onSubmit={form.handleSubmit(({ email, token }) => verification.mutate({ email, token }))}
        className="flex flex-col gap-4"
      >
        <FormField
          control={form.control}
          name="email"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('auth.ui.email')}</FormLabel>
              <FormControl>
                <Input type="email" autoComplete="email" required {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="token"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('auth.otp.label')}</FormLabel>
              <FormControl>
                <Input
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={10}
                  placeholder="0123456789"
                  required
                  className="h-12 text-center font-mono text-2xl tracking-[0.5em] md:text-2xl"
                  {...field}
                />
              </FormControl>
              <FormDescription>
                {defaultEmail ? t('auth.otp.hintTo', { email: defaultEmail }) : t('auth.otp.hint')}
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <SubmitButton isPending={verification.isPending} className="w-full" />
        <Button
          type="button"
          variant="link"
          onClick={resend}
          disabled={resending.isPending}
          className="self-start px-0"
        >
          {resending.isPending ? t('auth.ui.sending') : t('auth.sendNewCode')}
        </Button>
      </form>
    </Form>
  );
}
