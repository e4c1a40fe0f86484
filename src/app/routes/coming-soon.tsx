import { Link } from 'react-router-dom';
import { Hourglass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Hourglass className="text-primary size-12" aria-hidden />
      <h1 className="text-3xl font-bold">{t('comingSoon.title')}</h1>
      <p className="text-muted-foreground">{t('comingSoon.text')}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild>
          <Link to={paths.home.getHref()}>{t('comingSoon.search')}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.contact.getHref()}>{t('comingSoon.contact')}</Link>
        </Button>
      </div>
    </section>
  );
}
