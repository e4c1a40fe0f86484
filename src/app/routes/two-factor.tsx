import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { emailHash, forgetSignupEmail, recallSignupEmail } from '@/features/auth/api/pending-signup';
import { verifySignup } from '@/features/auth/api/verify-signup';
import { OtpForm } from '@/features/auth/components/otp-form';

type LinkState = { status: 'idle' } | { status: 'verifying' } | { status: 'failed'; message: string };

/**
 * /two-factor-authentication[/{id}]. After registering, {id} is the hash of the remembered e-mail
 * and the visitor types the code. Any other {id} is the token hash from the confirmation e-mail's
 * link, which confirms the address without typing (in any browser).
 */
export function Component() {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const rememberedEmail = recallSignupEmail();
  const [linkState, setLinkState] = useState<LinkState>({ status: id ? 'verifying' : 'idle' });
  const started = useRef(false);

  function onVerified() {
    forgetSignupEmail();
    toast.success(t('auth.confirm.confirmedToast'));
    navigate(paths.auth.login.getHref(), { replace: true });
  }

  useEffect(() => {
    if (!id || started.current) return;
    started.current = true;
    (async () => {
      if (rememberedEmail && (await emailHash(rememberedEmail)) === id) {
        setLinkState({ status: 'idle' });
        return;
      }
      try {
        await verifySignup({ tokenHash: id });
        onVerified();
      } catch (error) {
        setLinkState({ status: 'failed', message: errorMessage(error) });
      }
    })();
    // Runs once per page: a token hash can be used only once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">{t('auth.confirm.title')}</h1>
          </CardTitle>
          <CardDescription>{t('auth.confirm.description')}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {linkState.status === 'verifying' ? (
            <p role="status" className="text-muted-foreground">
              {t('auth.confirm.confirming')}
            </p>
          ) : (
            <>
              {linkState.status === 'failed' && (
                <p role="alert" className="text-destructive text-sm">
                  {t('auth.confirm.linkFailed', { message: linkState.message })}
                </p>
              )}
              <OtpForm defaultEmail={rememberedEmail} onVerified={onVerified} />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
