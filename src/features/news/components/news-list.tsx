import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { truncate } from '@/lib/text';
import { useNews } from '../api/get-news';
import type { NewsArticle } from '../api/types';
import { NewsImage } from './news-image';

/** docs/behaviour.md §9: the news list cuts titles at 40 characters and descriptions at 200. */
export const LIST_TITLE_MAX = 40;
export const LIST_DESCRIPTION_MAX = 200;

/**
 * Related News: the articles sharing at least one tag with `lead`, most recent first (docs/behaviour.md leaves the
 * column empty; this is the real thing behind it). Tags compare without case.
 */
export function relatedNews(articles: NewsArticle[], lead: NewsArticle, limit = 5): NewsArticle[] {
  const tags = new Set(lead.tags.map((t) => t.toLowerCase()));
  return articles
    .filter((a) => a.id !== lead.id && a.tags.some((t) => tags.has(t.toLowerCase())))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .slice(0, limit);
}

export function NewsList() {
  const { t } = useTranslation();
  const news = useNews();

  if (news.isPending) {
    return (
      <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label={t('news.loading')}>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-48" />
        ))}
      </div>
    );
  }
  if (news.isError) return <p className="text-muted-foreground">{t('news.loadFailedLater')}</p>;
  if (news.data.length === 0) return <p className="text-lg font-medium">{t('news.none')}</p>;

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_18rem]">
      <ul className="flex flex-col gap-6">
        {news.data.map((article) => (
          <li key={article.id}>
            <Card className="gap-0 overflow-hidden py-0 md:flex-row">
              <NewsImage
                src={article.imageUrl}
                alt=""
                seed={article.newsTitle ?? article.id}
                className="h-48 w-full shrink-0 md:h-auto md:w-64"
              />
              <div className="flex flex-1 flex-col gap-3 py-6">
                <CardHeader>
                  <p className="text-muted-foreground text-xs">{formatDate(article.createdAt)}</p>
                  <CardTitle className="text-lg leading-snug">
                    <h2>{truncate(article.newsTitle, LIST_TITLE_MAX)}</h2>
                  </CardTitle>
                </CardHeader>
                <CardContent className="text-muted-foreground text-sm">
                  {truncate(article.newsDescription, LIST_DESCRIPTION_MAX)}
                </CardContent>
                <CardFooter className="flex flex-wrap items-center justify-between gap-2">
                  <div className="flex flex-wrap gap-1">
                    {article.tags.slice(0, 4).map((tag) => (
                      <Badge key={tag} variant="secondary">
                        {tag}
                      </Badge>
                    ))}
                  </div>
                  <Link
                    to={paths.newsArticle.getHref(article.id)}
                    className="text-primary text-sm font-medium underline-offset-4 hover:underline"
                    aria-label={t('news.list.readFullLabel', { title: article.newsTitle })}
                  >
                    {t('news.list.readFull')}
                  </Link>
                </CardFooter>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <aside aria-labelledby="top-news-heading" className="flex flex-col gap-3">
        <h2 id="top-news-heading" className="text-lg font-semibold">
          {t('news.list.top')}
        </h2>
        <ol className="flex flex-col gap-3 text-sm">
          {news.data.slice(0, 5).map((article) => (
            <li key={article.id} className="border-b pb-3 last:border-0">
              <Link to={paths.newsArticle.getHref(article.id)} className="hover:text-primary font-medium">
                {article.newsTitle}
              </Link>
              <p className="text-muted-foreground text-xs">
                {article.sourceDesc ?? formatDate(article.createdAt)}
              </p>
            </li>
          ))}
        </ol>
        <RelatedNews articles={news.data} />
      </aside>
    </div>
  );
}

/** The Related News column of the list: what shares a tag with the newest article. */
function RelatedNews({ articles }: { articles: NewsArticle[] }) {
  const { t } = useTranslation();
  const lead = articles[0];
  const related = relatedNews(articles, lead);
  return (
    <section aria-labelledby="related-news-heading" className="mt-4 flex flex-col gap-3">
      <h2 id="related-news-heading" className="text-lg font-semibold">
        {t('news.list.related')}
      </h2>
      <p className="text-muted-foreground text-xs">
        {t('news.list.relatedLead', { title: truncate(lead.newsTitle, LIST_TITLE_MAX) })}
      </p>
      {related.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t('news.list.noRelated')}</p>
      ) : (
        <ul className="flex flex-col gap-3 text-sm">
          {related.map((article) => (
            <li key={article.id} className="border-b pb-3 last:border-0">
              <Link to={paths.newsArticle.getHref(article.id)} className="hover:text-primary font-medium">
                {article.newsTitle}
              </Link>
              <p className="text-muted-foreground text-xs">
                {formatDate(article.createdAt)} ·{' '}
                {article.tags
                  .filter((t) => lead.tags.some((l) => l.toLowerCase() === t.toLowerCase()))
                  .join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
