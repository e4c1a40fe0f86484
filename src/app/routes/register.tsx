import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Trans, useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { emailHash, rememberSignupEmail } from '@/features/auth/api/pending-signup';
import { RegisterForm } from '@/features/auth/components/register-form';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  async function onRegistered({ email }: { email: string }) {
    toast.success(t('auth.register.confirmToast'));
    rememberSignupEmail(email);
    navigate(paths.auth.twoFactor.getHref(await emailHash(email)));
  }

  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl">{t('auth.register.title')}</h1>
          </CardTitle>
          <CardDescription>{t('auth.register.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <RegisterForm onSuccess={onRegistered} />
        </CardContent>
        <CardFooter className="text-muted-foreground flex flex-col items-start gap-2 text-sm">
          <p>
            <Trans
              i18nKey="auth.register.haveAccount"
              components={{
                login: (
                  <Link
                    to={paths.auth.login.getHref()}
                    className="text-primary underline underline-offset-4"
                  />
                ),
              }}
            />
          </p>
          <p>
            <Trans
              i18nKey="auth.register.accept"
              components={{
                tos: <Link to={paths.tos.getHref()} className="text-primary underline underline-offset-4" />,
                privacy: (
                  <Link to={paths.privacy.getHref()} className="text-primary underline underline-offset-4" />
                ),
              }}
            />
          </p>
        </CardFooter>
      </Card>
    </div>
  );
}
