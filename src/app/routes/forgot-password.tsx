import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { supabase } from '@/lib/supabase';
import { ThemedAuth } from '@/features/auth/components/auth-ui';

type Step = 'request' | 'verify' | 'update';

const steps = {
  request: { title: 'auth.forgot.request.title', description: 'auth.forgot.request.description' },
  verify: { title: 'auth.forgot.verify.title', description: 'auth.forgot.verify.description' },
  update: { title: 'auth.forgot.update.title', description: 'auth.forgot.update.description' },
} as const satisfies Record<Step, { title: string; description: string }>;

/**
 * The forgotten-password flow, built from Supabase Auth UI's own views: send a reset code, verify
 * it (which signs the user in for recovery), then set a new password. The recovery e-mail carries a
 * code rather than a link, so the views are chained here by the auth events they cause.
 */
export function Component() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('request');
  const navigate = useNavigate();

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'PASSWORD_RECOVERY') setStep('update');
      if (event === 'USER_UPDATED') {
        toast.success(t('auth.passwordUpdated'));
        navigate(paths.dashboard.root.getHref(), { replace: true });
      }
    });
    return () => data.subscription.unsubscribe();
  }, [navigate, t]);

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">{t(steps[step].title)}</h1>
          </CardTitle>
          <CardDescription>{t(steps[step].description)}</CardDescription>
        </CardHeader>
        <CardContent>
          {step === 'request' && <ThemedAuth view="forgotten_password" />}
          {step === 'verify' && <ThemedAuth view="verify_otp" otpType="recovery" />}
          {step === 'update' && <ThemedAuth view="update_password" />}
        </CardContent>
        <CardFooter className="flex flex-col items-start gap-2 text-sm">
          {step === 'request' && (
            <Button variant="link" className="h-auto px-0" onClick={() => setStep('verify')}>
              {t('auth.forgot.haveCode')}
            </Button>
          )}
          {step === 'verify' && (
            <Button variant="link" className="h-auto px-0" onClick={() => setStep('request')}>
              {t('auth.sendNewCode')}
            </Button>
          )}
          <Link
            to={paths.auth.login.getHref()}
            className="text-muted-foreground hover:text-foreground underline-offset-4 hover:underline"
          >
            {t('auth.forgot.backToLogin')}
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
