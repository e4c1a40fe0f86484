import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { truncate } from '@/lib/text';
import { useNews } from '../api/get-news';
import { NewsImage } from './news-image';

/** docs/behaviour.md §9: front-page cards cut the title at 35 characters and the description at 97. */
export const FRONT_TITLE_MAX = 35;
export const FRONT_DESCRIPTION_MAX = 97;
export const FRONT_PAGE_NEWS_LIMIT = 6;

export function FrontPageNews() {
  const { t } = useTranslation();
  const news = useNews({ limit: FRONT_PAGE_NEWS_LIMIT });

  if (news.isPending) {
    return (
      <div
        className="grid gap-6 md:grid-cols-2 lg:grid-cols-3"
        role="status"
        aria-busy="true"
        aria-label={t('news.loading')}
      >
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-72" />
        ))}
      </div>
    );
  }
  if (news.isError) {
    return <p className="text-muted-foreground">{t('news.loadFailed')}</p>;
  }
  if (news.data.length === 0) {
    return <p className="text-muted-foreground text-lg font-medium">{t('news.none')}</p>;
  }

  return (
    <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {news.data.map((article) => (
        <li key={article.id}>
          <Card className="relative h-full gap-4 overflow-hidden pt-0 transition-shadow hover:shadow-md">
            <NewsImage
              src={article.imageUrl}
              alt=""
              seed={article.newsTitle ?? article.id}
              className="h-40 w-full"
            />
            <CardHeader>
              <CardTitle className="text-base leading-snug">
                <Link
                  to={paths.newsArticle.getHref(article.id)}
                  className="after:absolute after:inset-0 hover:underline"
                >
                  {truncate(article.newsTitle, FRONT_TITLE_MAX)}
                </Link>
              </CardTitle>
            </CardHeader>
            <CardContent className="text-muted-foreground text-sm">
              {truncate(article.newsDescription, FRONT_DESCRIPTION_MAX)}
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
