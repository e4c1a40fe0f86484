import { Link } from 'react-router-dom';
import { HeartHandshake } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <HeartHandshake className="text-primary size-12" aria-hidden />
      <h1 className="text-3xl font-bold">{t('thankYou.title')}</h1>
      <p className="text-muted-foreground">{t('thankYou.text')}</p>
      <Button asChild>
        <Link to={paths.home.getHref()}>{t('common.backToHome')}</Link>
      </Button>
    </section>
  );
}
