import type { QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getNewsQueryOptions } from '@/features/news/api/get-news';
import { NewsList } from '@/features/news/components/news-list';

export const clientLoader = (queryClient: QueryClient) => async () => {
  await queryClient.prefetchQuery(getNewsQueryOptions());
  return null;
};

/** The news list, served at /news-article and at /news (the navigation's "News"). */
export function Component() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{t('news.list.title')}</h1>
        <p className="text-muted-foreground">{t('news.list.lead')}</p>
      </header>
      <NewsList />
    </div>
  );
}
