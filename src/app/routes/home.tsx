import { Link } from 'react-router-dom';
import type { QueryClient } from '@tanstack/react-query';
import { BellRing, FileWarning, SearchCheck } from 'lucide-react';
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

const steps = [
  {
    icon: SearchCheck,
    title: 'Check before you pay',
    text: 'Type the mobile number, e-mail, website, e-wallet or crypto address you were given. We match it however it is written: 0917 123 4567, +63 917 123 4567 and 09171234567 are the same number.',
  },
  {
    icon: FileWarning,
    title: 'Report what happened',
    text: 'Were you scammed, hacked or spammed? A free account lets you file a report with evidence, so the next person is warned. Reports are reviewed before they count as verified.',
  },
  {
    icon: BellRing,
    title: 'Get notified',
    text: 'Register the numbers, e-mails or wallets you care about and we tell you as soon as anyone reports them.',
  },
];

export function Component() {
  // Signed-in users report from the dashboard, as the header's Report a Scam does.
  const { user } = useAuth();
  return (
    <>
      <section className="from-primary/10 to-background bg-gradient-to-b">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-6 px-4 py-16 text-center md:py-24">
          <h1 className="text-4xl font-extrabold tracking-tight md:text-5xl">Is it a Scam?</h1>
          <p className="text-muted-foreground max-w-xl text-lg">
            Search a mobile number, e-mail, website, e-wallet or crypto address to see whether it has been
            reported for scams in the Philippines.
          </p>
          <SearchForm className="max-w-2xl" />
          <p className="text-muted-foreground text-sm">
            No results does not mean safe.{' '}
            <Link to={paths.guide.getHref()} className="text-primary underline underline-offset-4">
              Read the scam-check guide
            </Link>
            .
          </p>
        </div>
      </section>

      <section aria-labelledby="how-heading" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="how-heading" className="mb-8 text-center text-2xl font-bold">
          How ScamCheck helps
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
              Report a Scam
            </Link>
          </Button>
        </div>
      </section>

      <section aria-labelledby="news-heading" className="bg-muted/30 border-t">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <div className="mb-6 flex items-end justify-between gap-4">
            <h2 id="news-heading" className="text-2xl font-bold">
              Latest scam news
            </h2>
            <Link
              to={paths.newsList.getHref()}
              className="text-primary text-sm font-medium underline-offset-4 hover:underline"
            >
              All news
            </Link>
          </div>
          <FrontPageNews />
        </div>
      </section>
    </>
  );
}
