import { Link } from 'react-router-dom';
import { SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Any unknown route (docs/behaviour.md §2: 404, 'Page Not Found', a link back home). */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
      <SearchX className="text-muted-foreground size-12" aria-hidden />
      <p className="text-muted-foreground text-sm font-semibold tracking-widest">404</p>
      <h1 className="text-3xl font-bold">{t('errors.notFound.title')}</h1>
      <p className="text-muted-foreground">{t('errors.notFound.text')}</p>
      <Button asChild>
        <Link to={paths.home.getHref()}>{t('common.backToHome')}</Link>
      </Button>
    </section>
  );
}
