import { Link } from 'react-router-dom';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { useNewsArticle } from '../api/get-news-article';
import { NewsImage } from './news-image';

/** One article: title, source link, image, description, original-news link and tags (docs/behaviour.md §2). */
export function NewsArticleView({ id }: { id: string }) {
  const { t } = useTranslation();
  const article = useNewsArticle(id);

  if (article.isPending) {
    return (
      <div
        className="flex flex-col gap-4"
        role="status"
        aria-busy="true"
        aria-label={t('news.article.loading')}
      >
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-72 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  if (article.isError || !article.data) {
    return (
      <div className="flex flex-col items-start gap-4">
        <h1 className="text-2xl font-bold">{t('news.article.notFound')}</h1>
        <p className="text-muted-foreground">
          {article.isError ? t('news.article.loadFailed') : t('news.article.gone')}
        </p>
        <Button asChild variant="outline">
          <Link to={paths.newsList.getHref()}>
            <ArrowLeft aria-hidden /> {t('news.article.allNews')}
          </Link>
        </Button>
      </div>
    );
  }

  const { newsTitle, newsDescription, tags, imageUrl, sourceDesc, createdAt } = article.data;
  const source = safeHttpUrl(article.data.source);
  return (
    <article className="flex flex-col gap-6">
      <Link
        to={paths.newsList.getHref()}
        className="text-muted-foreground hover:text-foreground inline-flex items-center gap-1 text-sm"
      >
        <ArrowLeft className="size-4" aria-hidden /> {t('news.article.allNews')}
      </Link>
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{newsTitle}</h1>
        <p className="text-muted-foreground text-sm">
          {formatDate(createdAt)}
          {source && (
            <>
              {t('news.article.source')}
              <a
                href={source.href}
                target="_blank"
                rel="noopener noreferrer"
                className="text-primary underline underline-offset-4"
              >
                {sourceDesc || source.hostname}
              </a>
            </>
          )}
        </p>
      </header>
      <NewsImage src={imageUrl} alt={newsTitle} className="h-56 w-full rounded-xl md:h-80" />
      <div className="flex flex-col gap-4 leading-relaxed">
        {newsDescription.split(/\n{2,}/).map((paragraph, i) => (
          <p key={i} className="whitespace-pre-line">
            {paragraph}
          </p>
        ))}
      </div>
      {source && (
        <Button asChild variant="outline" className="self-start">
          <a href={source.href} target="_blank" rel="noopener noreferrer">
            {t('news.article.readOriginal')} <ExternalLink aria-hidden />
          </a>
        </Button>
      )}
      {tags.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t('news.article.tags')}>
          {tags.map((tag) => (
            <li key={tag}>
              <Badge variant="secondary">#{tag}</Badge>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** Only http(s) links are rendered: a stored `javascript:` URL must never become a clickable link. */
function safeHttpUrl(value: string | null): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
