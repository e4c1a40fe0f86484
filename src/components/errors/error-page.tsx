import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { NotFound } from '@/components/errors/not-found';

/**
 * The router's error element: a crash anywhere below shows 'Something went wrong, Please try again'
 * (docs/behaviour.md §8) instead of a blank page. A 404 thrown by a loader shows the not-found page.
 */
export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  // Keep the detail in the console for whoever debugs; the visitor gets the plain message.
  if (import.meta.env.DEV) console.warn(error);
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <AlertTriangle className="text-destructive size-12" aria-hidden />
      <h1 className="text-2xl font-semibold">{t('errors.generic')}</h1>
      <p className="text-muted-foreground">{t('errors.page.text')}</p>
      <div className="flex gap-3">
        <Button onClick={() => window.location.reload()}>{t('errors.page.reload')}</Button>
        <Button variant="outline" asChild>
          <Link to={paths.home.getHref()}>{t('errors.page.home')}</Link>
        </Button>
      </div>
    </section>
  );
}
