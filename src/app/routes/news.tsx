import type { QueryClient } from '@tanstack/react-query';
import { getNewsQueryOptions } from '@/features/news/api/get-news';
import { NewsList } from '@/features/news/components/news-list';

export const clientLoader = (queryClient: QueryClient) => async () => {
  await queryClient.prefetchQuery(getNewsQueryOptions());
  return null;
};

/** The news list, served at /news-article and at /news (the navigation's "News"). */
export function Component() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Scam news</h1>
        <p className="text-muted-foreground">
          The latest scams making the rounds in the Philippines, and how to spot them.
        </p>
      </header>
      <NewsList />
    </div>
  );
}
