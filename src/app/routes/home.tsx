import { Link } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { BellRing, FileWarning, SearchCheck } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { getNewsQueryOptions } from '@/features/news/api/get-news';
import { FRONT_PAGE_NEWS_LIMIT, FrontPageNews } from '@/features/news/components/front-page-news';
import { SearchForm } from '@/features/search/components/search-form';

export const clientLoader = (queryClient: QueryClient) => async () => {
  // Start the news request with the page's code; the search box does not wait for it.
  void queryClient.prefetchQuery(getNewsQueryOptions({ limit: FRONT_PAGE_NEWS_LIMIT }));
  return null;
};

export function Component() {
  const { t } = useTranslation();
  // Signed-in users report from the dashboard, as the header's Report a Scam does.
  const { user } = useAuth();
  const steps = [
    { icon: SearchCheck, title: t('home.steps.check.title'), text: t('home.steps.check.text') },
    { icon: FileWarning, title: t('home.steps.report.title'), text: t('home.steps.report.text') },
    { icon: BellRing, title: t('home.steps.notify.title'), text: t('home.steps.notify.text') },
  ];
  return (
    <>
      <section className="from-primary/10 to-background bg-gradient-to-b">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-6 px-4 py-16 text-center md:py-24">
          <h1 className="text-4xl font-extrabold tracking-tight md:text-5xl">{t('home.title')}</h1>
          <p className="text-muted-foreground max-w-xl text-lg">{t('home.lead')}</p>
          <SearchForm className="max-w-2xl" />
          <p className="text-muted-foreground text-sm">
            <Trans
              i18nKey="home.noResultsNotSafe"
              components={{
                guide: (
                  <Link to={paths.guide.getHref()} className="text-primary underline underline-offset-4" />
                ),
              }}
            />
          </p>
        </div>
      </section>

      <section aria-labelledby="how-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="how-heading" className="mb-8 text-center text-2xl font-bold">
          {t('home.howTitle')}
        </h2>
        <ol className="grid gap-6 md:grid-cols-3">
          {steps.map(({ icon: Icon, title, text }) => (
            <li key={title} className="bg-card rounded-xl border p-6 shadow-sm">
              <Icon className="text-primary mb-3 size-8" aria-hidden />
              <h3 className="mb-2 font-semibold">{title}</h3>
              <p className="text-muted-foreground text-sm">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-8 flex justify-center">
          <Button asChild size="lg">
            <Link to={user ? paths.dashboard.root.getHref() : paths.auth.register.getHref()}>
              {t('nav.reportScam')}
            </Link>
          </Button>
        </div>
      </section>

      <section aria-labelledby="news-heading" className="bg-muted/30 border-t">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <div className="mb-6 flex items-end justify-between gap-4">
            <h2 id="news-heading" className="text-2xl font-bold">
              {t('home.newsTitle')}
            </h2>
            <Link
              to={paths.newsList.getHref()}
              className="text-primary text-sm font-medium underline-offset-4 hover:underline"
            >
              {t('home.allNews')}
            </Link>
          </div>
          <FrontPageNews />
        </div>
      </section>
    </>
  );
}
