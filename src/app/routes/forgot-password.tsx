import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { supabase } from '@/lib/supabase';
import { ThemedAuth } from '@/features/auth/components/auth-ui';

type Step = 'request' | 'verify' | 'update';

const steps: Record<Step, { title: string; description: string }> = {
  request: {
    title: 'Forgot your password?',
    description: 'Enter the e-mail of your account and we will send you a 6-digit reset code.',
  },
  verify: {
    title: 'Enter your reset code',
    description: 'Type your e-mail and the 6-digit code from the e-mail we sent you.',
  },
  update: {
    title: 'Choose a new password',
    description: 'You are verified. Pick a new password of at least 8 characters.',
  },
};

/**
 * The forgotten-password flow, built from Supabase Auth UI's own views: send a reset code, verify
 * it (which signs the user in for recovery), then set a new password. The recovery e-mail carries a
 * code rather than a link, so the views are chained here by the auth events they cause.
 */
export function Component() {
  const [step, setStep] = useState<Step>('request');
  const navigate = useNavigate();

  useEffect(() => {
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'PASSWORD_RECOVERY') setStep('update');
      if (event === 'USER_UPDATED') {
        toast.success('Your password has been updated');
        navigate(paths.dashboard.root.getHref(), { replace: true });
      }
    });
    return () => data.subscription.unsubscribe();
  }, [navigate]);

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">{steps[step].title}</h1>
          </CardTitle>
          <CardDescription>{steps[step].description}</CardDescription>
        </CardHeader>
        <CardContent>
          {step === 'request' && <ThemedAuth view="forgotten_password" />}
          {step === 'verify' && <ThemedAuth view="verify_otp" otpType="recovery" />}
          {step === 'update' && <ThemedAuth view="update_password" />}
        </CardContent>
        <CardFooter className="flex flex-col items-start gap-2 text-sm">
          {step === 'request' && (
            <Button variant="link" className="h-auto px-0" onClick={() => setStep('verify')}>
              I already have a code
            </Button>
          )}
          {step === 'verify' && (
            <Button variant="link" className="h-auto px-0" onClick={() => setStep('request')}>
              Send me a new code
            </Button>
          )}
          <Link
            to={paths.auth.login.getHref()}
            className="text-muted-foreground hover:text-foreground underline-offset-4 hover:underline"
          >
            Back to login
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
