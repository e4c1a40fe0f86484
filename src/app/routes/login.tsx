import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { ThemedAuth } from '@/features/auth/components/auth-ui';

/** Only same-site paths are followed after login, so a crafted link cannot send users elsewhere. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//')
    ? target
    : paths.dashboard.root.getHref();
}

export function Component() {
  const { t } = useTranslation();
  const { user, ready } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get('redirectTo'));

  // Signed in (just now, or already when the page opened): go on to the dashboard.
  useEffect(() => {
    if (ready && user) navigate(redirectTo, { replace: true });
  }, [ready, user, redirectTo, navigate]);

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">{t('auth.login.title')}</h1>
          </CardTitle>
          <CardDescription>{t('auth.login.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <ThemedAuth view="sign_in" />
        </CardContent>
        <CardFooter className="text-muted-foreground flex flex-col items-start gap-2 text-sm">
          <Link
            to={paths.auth.forgotPassword.getHref()}
            className="text-primary underline underline-offset-4"
          >
            {t('auth.forgot.request.title')}
          </Link>
          <p>
            <Trans
              i18nKey="auth.login.noAccount"
              components={{
                register: (
                  <Link
                    to={paths.auth.register.getHref()}
                    className="text-primary underline underline-offset-4"
                  />
                ),
              }}
            />
          </p>
        </CardFooter>
      </Card>
    </div>
  );
}
