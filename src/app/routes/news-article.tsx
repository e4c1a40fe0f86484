import type { QueryClient } from '@tanstack/react-query';
import { useParams, type LoaderFunctionArgs } from 'react-router-dom';
import { getNewsArticleQueryOptions } from '@/features/news/api/get-news-article';
import { NewsArticleView } from '@/features/news/components/news-article-view';

export const clientLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    await queryClient.prefetchQuery(getNewsArticleQueryOptions(params.id ?? ''));
    return null;
  };

export function Component() {
  const { id = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <NewsArticleView id={id} />
    </div>
  );
}
